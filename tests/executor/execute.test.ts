import { describe, expect, it } from "vitest";
import type { Broker } from "../../src/broker/types.js";
import { SimBroker } from "../../src/broker/simulated.js";
import type { SimFault } from "../../src/broker/simulated-faults.js";
import type { SimBrokerConfig } from "../../src/config/types.js";
import type { Bar } from "../../src/core/domain.js";
import { clientOrderId, execute } from "../../src/executor/execute.js";
import { describeExecution } from "../../src/executor/summary.js";
import type { Order } from "../../src/core/order.js";
import { MarketData } from "../../src/market/data.js";
import type { RunEventBody } from "../../src/core/events.js";
import { FakeJournal, SpyBroker } from "./fakes.js";

const cfg: SimBrokerConfig = { participation_pct: 10, commission_per_share: 0.01, commission_min: 1, commission_max_pct: 1, start_date: null };
const b = (date: string, o: number, h: number, l: number, c: number, volume = 1_000_000): Bar => ({ date, open: o, high: h, low: l, close: c, volume });
const market = MarketData.fromBars({
  AAA: [b("2020-01-02", 10, 10, 10, 10), b("2020-01-03", 10, 10, 10, 10), b("2020-01-06", 10, 10.5, 9.5, 10.2), b("2020-01-07", 10, 10.5, 9.5, 10.2)],
  BBB: [b("2020-01-02", 50, 50, 50, 50), b("2020-01-03", 50, 50, 50, 50), b("2020-01-06", 50, 51, 49, 50), b("2020-01-07", 50, 51, 49, 50)],
});

async function setup(opts: { holdings?: boolean } = {}) {
  const sim = SimBroker.open({ market, config: cfg, start: "2020-01-06" });
  sim.beginDay();
  const seed = new FakeJournal();
  if (opts.holdings) {
    // A previous day's buy of 100 BBB, booked in both books.
    await execute({ runId: "seed", orders: [buy(100, 50, "BBB")], broker: sim, journal: seed, config: conf, emit: () => {}, ...clock() });
  }
  sim.beginDay();
  const log: string[] = [];
  const journal = new FakeJournal(log);
  for (const [id, f] of seed.fills) journal.fills.set(id, f);
  const broker = new SpyBroker(sim, log);
  const events: RunEventBody[] = [];
  return { sim, broker, journal, events, log, emit: (e: RunEventBody) => events.push(e) };
}

const conf = { wait_s: 2, settle_s: 1, poll_ms: 100 };
function clock() {
  let t = Date.UTC(2020, 0, 6, 15);
  return { now: () => t, sleep: async (ms: number) => void (t += Math.max(ms, 1)) };
}

const buy = (quantity = 10, limit_price = 10, symbol = "AAA"): Order => ({
  symbol,
  side: "BUY",
  quantity,
  limit_price,
  currency: "USD",
  fx_to_base: 1,
  liquidation: false,
});

async function run(s: Awaited<ReturnType<typeof setup>>, orders: Order[], broker: Broker = s.broker, runId = "r1") {
  const res = await execute({ runId, orders, broker, journal: s.journal, config: conf, emit: s.emit, ...clock() });
  expect(s.journal.illegal, "every status the executor records is a step of the order lifecycle").toEqual([]);
  return res;
}

/** Journal holdings (from booked fills) against the broker's positions. */
async function reconcile(s: Awaited<ReturnType<typeof setup>>) {
  const broker: Record<string, number> = {};
  for (const p of await s.sim.positions()) broker[p.symbol] = p.quantity;
  return { journal: s.journal.positions(), broker };
}

function noDuplicateSends(s: Awaited<ReturnType<typeof setup>>) {
  for (const [id, n] of s.broker.sends) expect(n, `${id} sent ${n} times`).toBe(1);
}

describe("executor", () => {
  it("places sells first, records each intent before its send, books the fills", async () => {
    const s = await setup({ holdings: true });
    const res = await run(s, [buy(10, 10), { ...buy(40, 49.5, "BBB"), side: "SELL" }, buy(5, 9.8)]);
    expect(s.log).toEqual(["intent tw-r1-1", "send tw-r1-1", "intent tw-r1-0", "send tw-r1-0", "intent tw-r1-2", "send tw-r1-2"]);
    expect(res.results.map((r) => [r.client_order_id, r.status, r.filled_quantity])).toEqual([
      ["tw-r1-0", "filled", 10],
      ["tw-r1-1", "filled", 40],
      ["tw-r1-2", "filled", 5],
    ]);
    expect(res.results[1]).toMatchObject({ avg_price: 50, commission: 1 });
    expect(s.events.filter((e) => e.type === "order.placed")).toHaveLength(3);
    expect(s.events.filter((e) => e.type === "order.filled")).toHaveLength(3);
    expect(await reconcile(s)).toEqual({ journal: { AAA: 15, BBB: 60 }, broker: { AAA: 15, BBB: 60 } });
    expect(res.problems).toEqual([]);
    noDuplicateSends(s);
  });

  it("derives client ids from run id and index, within 128 characters", () => {
    expect(clientOrderId("20200106-abc", 3)).toBe("tw-20200106-abc-3");
    const long = clientOrderId("x".repeat(200), 7);
    expect(long.length).toBeLessThanOrEqual(128);
    expect(long).toBe(clientOrderId("x".repeat(200), 7));
    expect(clientOrderId("r1", 0, { liquidation: true })).toBe("tw-r1-L0");
  });

  it("an order the day never reaches is cancelled after the wait; nothing is booked", async () => {
    const s = await setup();
    const res = await run(s, [buy(10, 9.0)]);
    expect(res.results[0]).toMatchObject({ status: "cancelled", filled_quantity: 0, fills: [] });
    expect(s.events.map((e) => e.type)).toEqual(["order.placed", "order.cancelled"]);
    expect(s.journal.orders.get("tw-r1-0")?.status).toBe("cancelled");
    expect(await reconcile(s)).toEqual({ journal: {}, broker: {} });
  });

  it("fault: a rejected order is recorded and never retried", async () => {
    const s = await setup();
    s.sim.inject({ kind: "reject_next", message: "insufficient buying power" });
    const res = await run(s, [buy(), buy(3)]);
    expect(res.results[0]).toMatchObject({ status: "rejected", message: "insufficient buying power", fills: [] });
    expect(res.results[1]).toMatchObject({ status: "filled" });
    expect(s.events[0]).toMatchObject({ type: "order.rejected", client_order_id: "tw-r1-0" });
    expect(s.journal.orders.get("tw-r1-0")?.status).toBe("rejected");
    expect(await reconcile(s)).toEqual({ journal: { AAA: 3 }, broker: { AAA: 3 } });
    noDuplicateSends(s);
  });

  it("fault: a partial fill waits, cancels the rest, and books only what filled", async () => {
    const s = await setup();
    s.sim.inject({ kind: "partial_next", quantity: 4 });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]).toMatchObject({ status: "cancelled", filled_quantity: 4, avg_price: 10 });
    expect(s.events.map((e) => e.type)).toEqual(["order.placed", "order.partially_filled", "order.cancelled"]);
    expect(await reconcile(s)).toEqual({ journal: { AAA: 4 }, broker: { AAA: 4 } });
    expect(s.journal.orders.get("tw-r1-0")).toMatchObject({ status: "cancelled", filled_quantity: 4 });
  });

  it("fault: a fill arriving during the cancel is the final state; settling fills are waited for", async () => {
    const s = await setup();
    s.sim.inject({ kind: "fill_during_cancel", settle_polls: 3 });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]).toMatchObject({ status: "filled", filled_quantity: 10 });
    expect(res.results[0]?.fills).toHaveLength(1);
    expect(s.events.at(-1)).toMatchObject({ type: "order.filled", filled_quantity: 10, avg_price: 10, commission: 1 });
    expect(await reconcile(s)).toEqual({ journal: { AAA: 10 }, broker: { AAA: 10 } });
  });

  it("fault: fills that never settle are not booked and the difference is reported", async () => {
    const s = await setup();
    s.sim.inject({ kind: "fill_during_cancel", settle_polls: 1000 });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]).toMatchObject({ status: "filled", filled_quantity: 10, fills: [] });
    expect(res.results[0]?.discrepancy).toMatch(/reports 10 filled but its fills add up to 0/);
    expect(res.problems.join("\n")).toMatch(/tw-r1-0/);
    expect(s.journal.fills.size).toBe(0);
    expect(await reconcile(s)).toEqual({ journal: {}, broker: { AAA: 10 } }); // reported, for reconciliation to stop on
  });

  it("fault: a send that times out after acceptance is resolved by lookup, not by re-sending", async () => {
    const s = await setup();
    s.sim.inject({ kind: "timeout_after_accept" });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]).toMatchObject({ status: "filled", filled_quantity: 10 });
    expect(s.events.map((e) => e.type)).toEqual(["order.uncertain", "order.placed", "order.filled"]);
    expect(s.journal.updates[0]).toEqual({ client_order_id: "tw-r1-0", status: "uncertain" });
    noDuplicateSends(s);
    expect(await reconcile(s)).toEqual({ journal: { AAA: 10 }, broker: { AAA: 10 } });
  });

  it("fault: a send lost before the broker got it ends as not received, never re-sent", async () => {
    const s = await setup();
    s.sim.inject({ kind: "timeout_before_accept" });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]?.status).toBe("rejected");
    expect(res.results[0]?.message).toMatch(/was not received \(not re-sent\)/);
    noDuplicateSends(s);
    expect(await s.sim.openOrders()).toEqual([]);
  });

  it("fault: every send lost before the broker got it: the run says the broker was unavailable (exit 4), not that there was nothing to trade (exit 0)", async () => {
    const s = await setup();
    s.sim.inject({ kind: "timeout_before_accept" });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]).toMatchObject({ status: "rejected", error_code: "timeout" });
    const told = describeExecution(res.results);
    expect(told).toMatchObject({ outcome: "broker_unavailable", exitCode: 4, acknowledged: 0 });
    expect(told.message).toMatch(/0 orders sent .* was not received \(not re-sent\)/);
    noDuplicateSends(s);
  });

  it("fault: a dropped connection after acceptance counts as sent (exit 0): the lookup found it", async () => {
    const s = await setup();
    s.sim.inject({ kind: "timeout_after_accept", code: "broker_unreachable" });
    const res = await run(s, [buy(10)]);
    expect(describeExecution(res.results)).toMatchObject({ outcome: "executed", exitCode: 0, acknowledged: 1 });
  });

  it("an unknown send outcome stays uncertain until the executor's wait has passed: a send that arrives late is adopted, never declared rejected early", async () => {
    const s = await setup();
    s.sim.inject({ kind: "timeout_before_accept" });
    let lookups = 0;
    // The lost request reaches the broker only by the third lookup (a slow proxy, a retrying load balancer).
    const late = new Proxy(s.broker, {
      get(target, prop) {
        if (prop === "orderByClientId") {
          return async (id: string) => {
            lookups++;
            if (lookups === 3) await s.sim.placeLimitDayOrder({ client_order_id: id, symbol: "AAA", side: "BUY", quantity: 10, limit_price: 10 });
            return lookups >= 3 ? s.sim.orderByClientId(id) : undefined;
          };
        }
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const res = await run(s, [buy(10)], late);
    expect(lookups).toBeGreaterThanOrEqual(3);
    expect(res.results[0]?.status).toBe("filled");
    expect(s.journal.updates.map((u) => u.status)).not.toContain("rejected");
    expect(await reconcile(s)).toEqual({ journal: { AAA: 10 }, broker: { AAA: 10 } });
  });

  it("fault: a dropped connection after acceptance is resolved by lookup", async () => {
    const s = await setup();
    s.sim.inject({ kind: "timeout_after_accept", code: "broker_unreachable" });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]?.status).toBe("filled");
    noDuplicateSends(s);
  });

  it("fault: an unreachable broker leaves the order uncertain and reported", async () => {
    const s = await setup();
    s.sim.inject({ kind: "unreachable" });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]?.status).toBe("uncertain");
    expect(s.journal.orders.get("tw-r1-0")?.status).toBe("uncertain");
    expect(res.problems[0]).toMatch(/uncertain/);
    noDuplicateSends(s);
    s.sim.heal();
    expect(await s.sim.openOrders()).toEqual([]);
  });

  it("fault: a duplicate client id means already sent: it is looked up and adopted", async () => {
    const s = await setup();
    // An earlier attempt of the same run already reached the broker.
    await s.sim.placeLimitDayOrder({ client_order_id: "tw-r1-0", symbol: "AAA", side: "BUY", quantity: 10, limit_price: 10 });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]).toMatchObject({ status: "filled", filled_quantity: 10 });
    expect(res.results[0]?.message).toMatch(/already sent/);
    expect((await s.sim.positions())[0]?.quantity).toBe(10);
    expect(s.journal.positions()).toEqual({ AAA: 10 });
  });

  it("fault: an order still working after the cancel is recorded as working_after_cancel", async () => {
    const s = await setup();
    s.sim.inject({ kind: "partial_next", quantity: 2 });
    s.sim.inject({ kind: "stuck_after_cancel" });
    const res = await run(s, [buy(10)]);
    expect(res.results[0]).toMatchObject({ status: "working_after_cancel", filled_quantity: 2 });
    expect(s.journal.orders.get("tw-r1-0")?.status).toBe("working_after_cancel");
    expect(s.events.find((e) => e.type === "order.uncertain")).toMatchObject({ message: expect.stringMatching(/still working/) });
    expect(s.events.at(-1)).toMatchObject({ type: "run.note", level: "warn" });
    expect((await s.sim.openOrders()).map((o) => o.client_order_id)).toEqual(["tw-r1-0"]);
    expect(await reconcile(s)).toEqual({ journal: { AAA: 2 }, broker: { AAA: 2 } });
  });

  it("sends nothing when interrupted, or when the journal cannot record the intent", async () => {
    const s = await setup();
    const ac = new AbortController();
    ac.abort();
    const res = await execute({
      runId: "r1",
      orders: [buy()],
      broker: s.broker,
      journal: s.journal,
      config: conf,
      emit: s.emit,
      signal: ac.signal,
      ...clock(),
    });
    expect(res.results[0]?.status).toBe("not_sent");
    s.journal.failIntent = true;
    const res2 = await run(s, [buy(), buy()], s.broker, "r2");
    expect(res2.results.map((r) => r.status)).toEqual(["not_sent", "not_sent"]);
    expect(s.broker.sends.size).toBe(0);
  });

  it("interrupting during the wait cancels what is working and books what filled", async () => {
    const s = await setup();
    s.sim.inject({ kind: "partial_next", quantity: 3 });
    const ac = new AbortController();
    let t = 0;
    const res = await execute({
      runId: "r1",
      orders: [buy(10)],
      broker: s.broker,
      journal: s.journal,
      config: { wait_s: 1000, settle_s: 1, poll_ms: 100 },
      emit: s.emit,
      signal: ac.signal,
      now: () => t,
      sleep: async (ms) => {
        t += ms;
        ac.abort();
      },
    });
    expect(res.results[0]).toMatchObject({ status: "cancelled", filled_quantity: 3 });
    expect(t).toBeLessThan(1000);
  });

  it("every fault, one run: no duplicate order, nothing booked that did not fill", async () => {
    const s = await setup();
    const faults: SimFault[] = [
      { kind: "reject_next" },
      { kind: "partial_next", quantity: 1 },
      { kind: "fill_during_cancel" },
      { kind: "timeout_after_accept" },
    ];
    const orders = faults.map(() => buy(5));
    // Inject each fault right before its order's send.
    let i = 0;
    const broker = new Proxy(s.broker, {
      get(target, prop, recv) {
        if (prop === "placeLimitDayOrder") {
          return (req: Parameters<Broker["placeLimitDayOrder"]>[0]) => {
            const f = faults[i++];
            if (f) s.sim.inject(f);
            return target.placeLimitDayOrder(req);
          };
        }
        return Reflect.get(target, prop, recv);
      },
    });
    const res = await run(s, orders, broker);
    expect(res.results.map((r) => r.status)).toEqual(["rejected", "cancelled", "filled", "filled"]);
    noDuplicateSends(s);
    const booked = [...s.journal.fills.values()].reduce((a, f) => a + f.quantity, 0);
    expect(booked).toBe(res.results.reduce((a, r) => a + r.filled_quantity, 0));
    expect(await reconcile(s)).toEqual({ journal: { AAA: 11 }, broker: { AAA: 11 } });
  });
});
