/**
 * Each executor step alone (src/executor/steps): intent → send → wait → cancel → settle → finish,
 * against the simulated paper broker with its faults and the in-memory journal of fakes.ts. Each
 * test drives one step from the state the steps before it leave, and checks what that step alone
 * did: the journal's writes, the broker's calls, the events and the order's result.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SimBroker } from "../../src/broker/simulated.js";
import type { SimBrokerConfig } from "../../src/config/types.js";
import type { Bar } from "../../src/core/domain.js";
import type { RunEventBody } from "../../src/core/events.js";
import type { Order } from "../../src/core/order.js";
import { cancelWorking } from "../../src/executor/steps/cancel.js";
import { executionContext, newEntry, type OrderEntry, record, sellsFirst, working } from "../../src/executor/steps/context.js";
import { finish } from "../../src/executor/steps/finish.js";
import { interrupted, notSent, recordIntent } from "../../src/executor/steps/intent.js";
import { send } from "../../src/executor/steps/send.js";
import { book, settleFills } from "../../src/executor/steps/settle.js";
import { poll, waitForEnd } from "../../src/executor/steps/wait.js";
import { MarketData } from "../../src/market/data.js";
import { FakeJournal, SpyBroker } from "./fakes.js";

const cfg: SimBrokerConfig = { participation_pct: 10, commission_per_share: 0.01, commission_min: 1, commission_max_pct: 1, start_date: null };
const bar = (date: string, c: number, h = c, l = c): Bar => ({ date, open: c, high: h, low: l, close: c, volume: 1_000_000 });
const market = MarketData.fromBars({ AAA: [bar("2020-01-02", 10), bar("2020-01-03", 10), bar("2020-01-06", 10, 10.5, 9.5), bar("2020-01-07", 10, 10.5, 9.5)] });
const buy = (quantity = 10, limit_price = 10): Order => ({
  symbol: "aaa",
  side: "BUY",
  quantity,
  limit_price,
  currency: "USD",
  fx_to_base: 1,
  liquidation: false,
});

const journals: FakeJournal[] = [];
afterEach(() => {
  // every status a step records is a legal step of the order lifecycle (the fake refuses the others, as the journal does)
  for (const j of journals.splice(0)) expect(j.illegal).toEqual([]);
});

function world(config = { wait_s: 2, settle_s: 1, poll_ms: 100 }) {
  const sim = SimBroker.open({ market, config: cfg, start: "2020-01-06" });
  sim.beginDay();
  const log: string[] = [];
  const journal = new FakeJournal(log);
  journals.push(journal);
  const broker = new SpyBroker(sim, log);
  const events: RunEventBody[] = [];
  let t = Date.UTC(2020, 0, 6, 15);
  const sleeps: number[] = [];
  const ctx = executionContext({
    runId: "r1",
    orders: [],
    broker,
    journal,
    config,
    emit: (e) => events.push(e),
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += Math.max(ms, 1);
    },
  });
  const entry = (order = buy(), index = 0) => newEntry(order, index, `tw-r1-${index}`);
  const types = () => events.map((e) => e.type);
  return { sim, journal, broker, log, events, ctx, entry, types, sleeps, elapsed: () => t - Date.UTC(2020, 0, 6, 15) };
}

/** intent + send: the state the wait starts from. */
async function sent(w: ReturnType<typeof world>, e: OrderEntry): Promise<OrderEntry> {
  await recordIntent(w.ctx, e, "r1");
  await send(w.ctx, e);
  return e;
}

describe("executor step: intent", () => {
  it("writes the order (upper-cased, with its client id, run and index) to the journal before anything is sent", async () => {
    const w = world();
    const e = w.entry(buy(), 3);
    expect(await recordIntent(w.ctx, e, "r1")).toBeUndefined();
    expect(w.log).toEqual(["intent tw-r1-3"]);
    expect(w.journal.orders.get("tw-r1-3")).toMatchObject({ symbol: "AAA", status: "intent" });
    expect(e.res.status).toBe("intent");
    expect(w.broker.sends.size).toBe(0);
  });

  it("a journal that cannot record the intent: the order is not sent, the reason is returned and reported", async () => {
    const w = world();
    w.journal.failIntent = true;
    const e = w.entry();
    expect(await recordIntent(w.ctx, e, "r1")).toBe("disk full");
    expect(e.res).toMatchObject({
      status: "not_sent",
      error_code: "journal_write_failed",
      message: "not sent: the journal could not record the intent (disk full)",
    });
    expect(e.done).toBe(true);
    expect(w.ctx.problems).toEqual(["tw-r1-0 not sent: the journal could not record the intent (disk full)"]);
    const later = w.entry(buy(), 1);
    notSent(later, "disk full");
    expect(later.res).toMatchObject({ status: "not_sent", error_code: "journal_write_failed" });
    const stopped = w.entry(buy(), 2);
    interrupted(stopped);
    expect(stopped.res).toMatchObject({ status: "not_sent", message: "interrupted before sending" });
  });

  it("sells go first, in their order, then the buys", () => {
    const w = world();
    const sell = (q: number): Order => ({ ...buy(q), side: "SELL" });
    const order = sellsFirst([w.entry(buy(1), 0), w.entry(sell(2), 1), w.entry(buy(3), 2), w.entry(sell(4), 3)]);
    expect(order.map((e) => e.res.index)).toEqual([1, 3, 0, 2]);
  });
});

describe("executor step: send", () => {
  it("an order the broker accepts is placed and its state recorded", async () => {
    const w = world();
    const e = await sent(w, w.entry(buy(10, 9))); // below the day's low: it works
    expect(w.log).toEqual(["intent tw-r1-0", "send tw-r1-0"]);
    expect(w.types()).toEqual(["order.placed"]);
    expect(e.res.status).toBe("accepted");
    expect(w.journal.orders.get("tw-r1-0")).toMatchObject({ status: "accepted", broker_order_id: e.res.broker_order_id });
    expect(working([e])).toEqual([e]);
  });

  it("a refused send is recorded as rejected and never retried", async () => {
    const w = world();
    w.sim.inject({ kind: "reject_next", message: "insufficient buying power" });
    const e = await sent(w, w.entry());
    expect(e.res).toMatchObject({ status: "rejected", message: "insufficient buying power", error_code: "order_rejected" });
    expect(e.done).toBe(true);
    expect(w.types()).toEqual(["order.rejected"]);
    expect(w.broker.sends.get("tw-r1-0")).toBe(1);
  });

  it("a send that times out after acceptance: uncertain, then found by its client id, never re-sent", async () => {
    const w = world();
    w.sim.inject({ kind: "timeout_after_accept" });
    const e = await sent(w, w.entry());
    expect(w.journal.updates.map((u) => u.status)).toEqual(["uncertain", "filled"]);
    expect(w.types()).toEqual(["order.uncertain", "order.placed"]);
    expect(e.res.message).toMatch(/found at the broker by client order id/);
    expect(w.broker.sends.get("tw-r1-0")).toBe(1);
  });

  it("a send the broker never received: looked up until the executor's wait has passed, then rejected as not received", async () => {
    const w = world();
    w.sim.inject({ kind: "timeout_before_accept" });
    const e = await sent(w, w.entry());
    expect(w.elapsed()).toBeGreaterThanOrEqual(2000);
    expect(e.res).toMatchObject({ status: "rejected", error_code: "timeout", message: expect.stringMatching(/was not received \(not re-sent\)/) });
    expect(w.journal.updates.map((u) => u.status)).toEqual(["uncertain", "rejected"]);
    expect(w.broker.sends.get("tw-r1-0")).toBe(1);
  });
});

describe("executor step: wait", () => {
  it("polls a working order until the wait is over, recording what changed and announcing a partial fill once", async () => {
    const w = world();
    w.sim.inject({ kind: "partial_next", quantity: 4 });
    const e = await sent(w, w.entry());
    const before = w.elapsed();
    await waitForEnd(w.ctx, [e]);
    expect(w.elapsed() - before).toBeGreaterThanOrEqual(2000);
    expect(e.res).toMatchObject({ status: "partially_filled", filled_quantity: 4 });
    expect(w.types()).toEqual(["order.placed", "order.partially_filled"]);
    expect(w.broker.sends.get("tw-r1-0")).toBe(1);
    expect(working([e])).toEqual([e]); // the wait never cancels
  });

  it("ends at once when nothing is working", async () => {
    const w = world();
    const e = await sent(w, w.entry()); // fills by the first poll
    await waitForEnd(w.ctx, [e]);
    expect(w.sleeps).toEqual([]);
    expect(e.res.status).toBe("filled");
  });

  it("a poll finds an order gone from the open orders by its client id", async () => {
    const w = world();
    const e = await sent(w, w.entry(buy(10, 9)));
    await w.sim.cancel(e.broker!.broker_order_id); // ended at the broker behind the executor's back
    await poll(w.ctx, [e]);
    expect(e.res.status).toBe("cancelled");
    expect(w.journal.orders.get("tw-r1-0")?.status).toBe("cancelled");
  });
});

describe("executor step: cancel", () => {
  it("cancels what is still working; nothing else is touched", async () => {
    const w = world();
    const working1 = await sent(w, w.entry(buy(10, 9), 0));
    const filled = await sent(w, w.entry(buy(5), 1));
    await poll(w.ctx, [working1, filled]);
    const writes = w.journal.updates.length;
    await cancelWorking(w.ctx, [working1, filled]);
    expect(working1.res).toMatchObject({ status: "cancelled", filled_quantity: 0 });
    expect(filled.res.status).toBe("filled");
    expect(w.journal.updates.slice(writes)).toEqual([{ client_order_id: "tw-r1-0", status: "cancelled" }]);
  });

  it("a cancel that finds the order filled returns the filled state", async () => {
    const w = world();
    w.sim.inject({ kind: "fill_during_cancel" });
    const e = await sent(w, w.entry());
    await cancelWorking(w.ctx, [e]);
    expect(e.res).toMatchObject({ status: "filled", filled_quantity: 10 });
  });

  it("an order that ignores the cancel is polled until settle_s and left working", async () => {
    const w = world();
    w.sim.inject({ kind: "stuck_after_cancel" });
    const e = await sent(w, w.entry(buy(10, 9)));
    const before = w.elapsed();
    await cancelWorking(w.ctx, [e]);
    expect(w.elapsed() - before).toBeGreaterThanOrEqual(1000);
    expect(e.broker?.status).toBe("pending_cancel");
    expect(working([e])).toEqual([e]);
  });
});

describe("executor step: settle", () => {
  it("books each fill the broker reports once by fill id, waiting for fills that lag", async () => {
    const w = world();
    w.sim.inject({ kind: "fill_during_cancel", settle_polls: 3 });
    const e = await sent(w, w.entry());
    await cancelWorking(w.ctx, [e]);
    await settleFills(w.ctx, [e]);
    expect(e.res.fills).toHaveLength(1);
    expect(w.journal.positions()).toEqual({ AAA: 10 });
    await book(w.ctx, e, await w.sim.fills(e.broker!.broker_order_id)); // again: nothing new
    expect(e.res.fills).toHaveLength(1);
    expect(w.journal.fills.size).toBe(1);
  });

  it("fills that never arrive are given up at settle_s; nothing is booked that the broker did not report", async () => {
    const w = world();
    w.sim.inject({ kind: "fill_during_cancel", settle_polls: 1000 });
    const e = await sent(w, w.entry());
    await cancelWorking(w.ctx, [e]);
    const before = w.elapsed();
    await settleFills(w.ctx, [e]);
    expect(w.elapsed() - before).toBeGreaterThanOrEqual(1000);
    expect(e.res.fills).toEqual([]);
    expect(w.journal.fills.size).toBe(0);
  });

  it("an order with nothing filled needs no fills", async () => {
    const w = world();
    const e = await sent(w, w.entry(buy(10, 9)));
    await cancelWorking(w.ctx, [e]);
    await settleFills(w.ctx, [e]);
    expect(w.sleeps.length).toBe(0);
    expect(e.res.fills).toEqual([]);
  });
});

describe("executor step: finish", () => {
  it("a filled order: its final state, average price and commission from the booked fills, order.filled", async () => {
    const w = world();
    const e = await sent(w, w.entry());
    await waitForEnd(w.ctx, [e]);
    await settleFills(w.ctx, [e]);
    await finish(w.ctx, e);
    expect(e.res).toMatchObject({ status: "filled", filled_quantity: 10, avg_price: 10, commission: 1 });
    expect(w.events.at(-1)).toMatchObject({ type: "order.filled", client_order_id: "tw-r1-0", filled_quantity: 10, avg_price: 10, commission: 1 });
    expect(w.ctx.problems).toEqual([]);
  });

  it("an order still working after the cancel: working_after_cancel, order.uncertain and a warning", async () => {
    const w = world();
    w.sim.inject({ kind: "partial_next", quantity: 2 });
    w.sim.inject({ kind: "stuck_after_cancel" });
    const e = await sent(w, w.entry());
    await cancelWorking(w.ctx, [e]);
    await settleFills(w.ctx, [e]);
    await finish(w.ctx, e);
    expect(e.res).toMatchObject({ status: "working_after_cancel", filled_quantity: 2 });
    expect(w.journal.orders.get("tw-r1-0")?.status).toBe("working_after_cancel");
    expect(w.types().slice(-2)).toEqual(["order.uncertain", "run.note"]);
  });

  it("a filled quantity the booked fills do not add up to is a discrepancy reported", async () => {
    const w = world();
    w.sim.inject({ kind: "fill_during_cancel", settle_polls: 1000 });
    const e = await sent(w, w.entry());
    await cancelWorking(w.ctx, [e]);
    await finish(w.ctx, e);
    expect(e.res.discrepancy).toBe("the broker reports 10 filled but its fills add up to 0 (booked 0)");
    expect(w.ctx.problems.join("\n")).toMatch(/tw-r1-0 \(BUY AAA\): the broker reports 10 filled/);
  });

  it("an order already ended (rejected, unresolved) or never sent emits nothing more", async () => {
    const w = world();
    w.sim.inject({ kind: "reject_next" });
    const e = await sent(w, w.entry());
    const before = w.events.length;
    await finish(w.ctx, e);
    await finish(w.ctx, w.entry(buy(), 1));
    expect(w.events.length).toBe(before);
  });
});

describe("executor steps and the order lifecycle", () => {
  it("a status change the lifecycle does not allow is refused by the journal and reported, never thrown into the run", async () => {
    const w = world();
    const e = await sent(w, w.entry());
    await waitForEnd(w.ctx, [e]);
    expect(e.res.status).toBe("filled");
    await record(w.ctx, e, "accepted");
    expect(w.journal.orders.get("tw-r1-0")?.status).toBe("filled");
    expect(w.ctx.journalErrors).toEqual(["tw-r1-0: order tw-r1-0 cannot go from filled to accepted: filled is terminal (the broker has finished with it)"]);
    expect(w.journal.illegal.splice(0)).toHaveLength(1);
  });
});
