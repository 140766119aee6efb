import { describe, expect, it } from "vitest";
import { openJournal } from "../../src/journal/journal.js";
import type { GateDecision } from "../../src/core/gate-types.js";
import type { ProposedOrder } from "../../src/core/domain.js";
import { childBundle } from "./child-bundle.js";
import { buy, finish, freshJournal, startRun, tmpHome } from "./helpers.js";

describe("ledger", () => {
  it("init once, deposits append, cash is the ledger sum", async () => {
    const j = await freshJournal({ capital: 1000 });
    await expect(j.init({ capital: 5, currency: "USD", at: new Date() })).rejects.toMatchObject({ code: "already_initialised", exitCode: 2 });
    await j.deposit({ amount: 0.1, at: "2024-01-03T00:00:00Z" });
    await j.deposit({ amount: 0.2, at: "2024-01-04T00:00:00Z", note: "top up" });
    expect(j.cash()).toBe(1000.3);
    expect(j.ledger().map((e) => e.amount_minor)).toEqual([100000, 10, 20]);
    await expect(j.deposit({ amount: -5, at: new Date() })).rejects.toMatchObject({ code: "invalid_amount" });
    await expect(j.deposit({ amount: 0, at: new Date() })).rejects.toMatchObject({ code: "invalid_amount" });
  });

  it("refuses to work before init", async () => {
    const j = await openJournal(tmpHome(), { timezone: "UTC", fsync: false });
    expect(j.isInitialised()).toBe(false);
    expect(j.cash()).toBe(0);
    await expect(j.deposit({ amount: 5, at: new Date() })).rejects.toMatchObject({ code: "not_initialised" });
  });

  it("books fills: average cost includes commission and does not move on sells", async () => {
    const j = await freshJournal({ capital: 10_000 });
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 10, 100, 1);
    await buy(j, "r1", "c2", "AAA", 10, 110, 1);
    let h = j.holdings().AAA!;
    expect(h.quantity).toBe(20);
    expect(h.avg_cost).toBe(105.1); // (1000+1+1100+1)/20
    expect(j.cash()).toBe(10_000 - 2102);
    await buy(j, "r1", "c3", "AAA", 5, 120, 1, undefined, "SELL");
    h = j.holdings().AAA!;
    expect(h.quantity).toBe(15);
    expect(h.avg_cost).toBeCloseTo(105.1, 10);
    expect(j.cash()).toBe(10_000 - 2102 + 600 - 1);
    await buy(j, "r1", "c4", "AAA", 15, 90, 0, undefined, "SELL");
    expect(j.holdings().AAA).toBeUndefined();
    expect(j.verify()).toEqual([]);
  });

  it("fills are idempotent by fill id, conflicting repeats refused", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 3, 33.335);
    await j.bookFill("c1", { fill_id: "f-c1", symbol: "AAA", side: "BUY", quantity: 3, price: 33.335, commission: 0, fx_to_base: 1, at: new Date() });
    expect(j.fills()).toHaveLength(1);
    await expect(
      j.bookFill("c1", { fill_id: "f-c1", symbol: "AAA", side: "BUY", quantity: 2, price: 33.335, commission: 0, fx_to_base: 1, at: new Date() }),
    ).rejects.toMatchObject({ code: "fill_conflict" });
    await expect(
      j.bookFill("c1", { fill_id: "f-x", symbol: "BBB", side: "BUY", quantity: 1, price: 1, commission: 0, fx_to_base: 1, at: new Date() }),
    ).rejects.toMatchObject({ code: "fill_mismatch" });
    await expect(
      j.bookFill("nope", { fill_id: "f-y", symbol: "BBB", side: "BUY", quantity: 1, price: 1, commission: 0, fx_to_base: 1, at: new Date() }),
    ).rejects.toMatchObject({ code: "unknown_order" });
    expect(j.cash()).toBe(10_000 - 100); // 3 × 33.335 = 100.005 → 100.00 half-even
    expect(j.fills()).toHaveLength(1);
  });

  it("converts foreign fills at the fill's FX rate, exactly", async () => {
    const j = await freshJournal({ capital: 1_000_000, currency: "JPY" });
    await startRun(j, "r1");
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "c1",
      index: 0,
      symbol: "SPY",
      side: "BUY",
      quantity: 3,
      limit_price: 500.5,
      currency: "USD",
      fx_to_base: 151.37,
      at: new Date(),
    });
    await j.bookFill("c1", {
      fill_id: "f1",
      symbol: "SPY",
      side: "BUY",
      quantity: 3,
      price: 500.5,
      commission: 150,
      commission_currency: "JPY",
      fx_to_base: 151.37,
      at: new Date(),
    });
    // 3 × 500.5 × 151.37 = 227282.055 → 227282 yen, + 150 commission
    expect(j.cash()).toBe(1_000_000 - 227_282 - 150);
    expect(j.holdings().SPY).toMatchObject({ quantity: 3, currency: "USD", avg_cost: (227_282 + 150) / 3 });
  });

  it("books a commission charged in the instrument's currency at the order's rate; refuses an order in a foreign currency without its rate", async () => {
    const j = await freshJournal({ capital: 10_000, currency: "USD" });
    await startRun(j, "r1");
    await expect(
      j.recordOrderIntent({
        run_id: "r1",
        client_order_id: "c0",
        index: 0,
        symbol: "VOD",
        side: "BUY",
        quantity: 1,
        limit_price: 1,
        currency: "GBP",
        at: new Date(),
      }),
    ).rejects.toThrow(/needs its rate/);
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "c1",
      index: 0,
      symbol: "VOD",
      side: "BUY",
      quantity: 100,
      limit_price: 10.01,
      currency: "GBP",
      fx_to_base: 1.2,
      at: new Date(),
    });
    await j.bookFill("c1", {
      fill_id: "f1",
      symbol: "VOD",
      side: "BUY",
      quantity: 100,
      price: 10.01,
      commission: 1.05,
      commission_currency: "GBP",
      fx_to_base: 1.2,
      at: new Date(),
    });
    // 100 × 10.01 GBP × 1.2 = 1201.20 USD; commission 1.05 GBP × 1.2 = 1.26 USD
    expect(j.cash()).toBe(8797.54); // 10000 − 1201.20 − 1.26
    await expect(
      j.bookFill("c1", {
        fill_id: "f2",
        symbol: "VOD",
        side: "BUY",
        quantity: 1,
        price: 10,
        commission: 0,
        commission_currency: "GBP",
        fx_to_base: 1,
        at: new Date(),
      }),
    ).rejects.toThrow(/placed at 1.2/);
    expect(j.verify()).toEqual([]);
  });
});

describe("peak: the two-run rule", () => {
  it("starts at the first value, rises only to a value seen twice, ignores a one-tick spike", async () => {
    const j = await freshJournal();
    const values = [10_000, 10_500, 10_600, 50_000, 10_700, 10_650];
    const peaks: number[] = [];
    for (const [i, v] of values.entries()) {
      await startRun(j, `r${i}`);
      const r = await j.observeFirstValuation(`r${i}`, v, new Date());
      // later valuations in the same run change nothing
      const again = await j.observeFirstValuation(`r${i}`, v * 3, new Date());
      expect(again).toMatchObject({ peak: r.peak, first: false });
      peaks.push(r.peak);
      await finish(j, `r${i}`);
    }
    // 10000; min(10500,10000)=10000; min(10600,10500)=10500; spike: min(50000,10600)=10600; min(10700,50000)=10700; min(10650,10700)=10650 → stays 10700
    expect(peaks).toEqual([10_000, 10_000, 10_500, 10_600, 10_700, 10_700]);
    expect(j.peak()).toBe(10_700);
    expect(j.run("r3")?.previous_value_minor).toBe(1_060_000);
  });

  it("a deposit reaches the peak one run later", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await j.observeFirstValuation("r1", 10_000, new Date());
    await finish(j, "r1");
    await j.deposit({ amount: 5_000, at: new Date() });
    await startRun(j, "r2");
    expect((await j.observeFirstValuation("r2", 15_000, new Date())).peak).toBe(10_000);
    await finish(j, "r2");
    await startRun(j, "r3");
    expect((await j.observeFirstValuation("r3", 15_000, new Date())).peak).toBe(15_000);
  });
});

describe("kill switch", () => {
  it("trips, resets with who and why, stays REDUCING for N completed paper runs", async () => {
    const j = await freshJournal({ reducing: 2 });
    await startRun(j, "r1");
    await j.observeFirstValuation("r1", 10_000, new Date());
    await expect(j.reset({ at: new Date(), who: "ops", reason: "x", value: 1 })).rejects.toMatchObject({ code: "not_halted" });
    const trip = await j.trip({ run_id: "r1", at: "2024-01-02T14:10:00Z", value: 8_000, peak: 10_000, drawdown_pct: 20, reason: "drawdown 20% ≥ 15%" });
    expect(j.tradingState()).toBe("HALTED");
    expect(await j.trip({ run_id: "r1", at: new Date(), value: 7_000, peak: 10_000, drawdown_pct: 30, reason: "again" })).toEqual(trip);
    expect(j.tripHistory()).toHaveLength(1);
    expect(j.liquidationStatus()).toMatchObject({ halted: true, complete: true });
    await finish(j, "r1");
    await expect(j.reset({ at: new Date(), who: "", reason: "x", value: 8_000 })).rejects.toMatchObject({ code: "reset_who_required" });
    const reset = await j.reset({ at: "2024-01-03T09:00:00Z", who: "alice", reason: "reviewed the drawdown", value: 8_000 });
    expect(reset).toMatchObject({ who: "alice", new_peak: 8_000, reducing_runs: 2 });
    expect(j.peak()).toBe(8_000);
    expect(j.lastFirstValuation()).toBe(8_000);
    expect(j.tradingState()).toBe("REDUCING");
    await startRun(j, "obs", undefined, "observe");
    await finish(j, "obs"); // observe runs do not count
    await startRun(j, "r2");
    await j.finishRun("r2", { status: "failed", outcome: "broker_unavailable", exit_code: 4, message: "down", at: new Date() }); // nor failed ones
    expect(j.reducingRunsLeft()).toBe(2);
    await startRun(j, "r3");
    await finish(j, "r3");
    expect(j.tradingState()).toBe("REDUCING");
    await startRun(j, "r4");
    await finish(j, "r4");
    expect(j.tradingState()).toBe("ACTIVE");
    expect(j.resetHistory()).toHaveLength(1);
  });

  it("reports liquidation progress after a trip", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 10, 100);
    await buy(j, "r1", "c2", "BBB", 5, 50);
    await j.trip({ run_id: "r1", at: "2024-01-02T14:40:00Z", value: 1, peak: 2, drawdown_pct: 50, reason: "test" });
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "L1",
      index: 0,
      symbol: "AAA",
      side: "SELL",
      quantity: 10,
      limit_price: 99,
      liquidation: true,
      at: "2024-01-02T14:41:00Z",
    });
    await j.recordOrderUpdate("L1", { status: "accepted", at: "2024-01-02T14:41:00Z" });
    await j.bookFill("L1", { fill_id: "fl1", symbol: "AAA", side: "SELL", quantity: 10, price: 99, commission: 0, fx_to_base: 1, at: "2024-01-02T14:42:00Z" });
    const st = j.liquidationStatus();
    expect(st.remaining).toEqual([{ symbol: "BBB", quantity: 5 }]);
    expect(st.orders).toEqual([{ client_order_id: "L1", symbol: "AAA", quantity: 10, status: "accepted", filled_quantity: 10 }]);
    expect(st.complete).toBe(false);
    expect(j.ordersThisMonth(new Date("2024-01-15T00:00:00Z"))).toBe(2); // liquidation is outside the quota
  });
});

describe("monthly quota", () => {
  async function sendAt(j: Awaited<ReturnType<typeof freshJournal>>, coid: string, at: string, status: "accepted" | "rejected" | "uncertain" = "accepted") {
    await j.recordOrderIntent({ run_id: "r1", client_order_id: coid, index: 0, symbol: "AAA", side: "BUY", quantity: 1, limit_price: 1, at });
    await j.recordOrderUpdate(coid, { status, at });
  }

  it("counts sent orders per calendar month in a far time zone (Pacific/Auckland)", async () => {
    const j = await freshJournal({ timezone: "Pacific/Auckland" });
    await startRun(j, "r1");
    await sendAt(j, "a", "2024-01-31T10:30:00Z"); // 23:30 NZDT Jan 31
    await sendAt(j, "b", "2024-01-31T11:30:00Z"); // 00:30 NZDT Feb 1
    await sendAt(j, "c", "2024-01-31T11:45:00Z", "rejected"); // rejected on send: not counted
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "d",
      index: 0,
      symbol: "AAA",
      side: "BUY",
      quantity: 1,
      limit_price: 1,
      at: "2024-01-31T11:50:00Z",
    }); // intent only
    expect(j.ordersThisMonth(new Date("2024-01-31T10:59:00Z"))).toBe(1);
    expect(j.ordersThisMonth(new Date("2024-01-31T11:00:00Z"))).toBe(1); // Feb 1 00:00 NZDT
    expect(j.ordersThisMonth(new Date("2024-02-28T00:00:00Z"))).toBe(1);
    // the intent-only order counts once the broker has it
    await j.recordOrderUpdate("d", { status: "uncertain", at: "2024-01-31T11:51:00Z" });
    expect(j.ordersThisMonth(new Date("2024-02-10T00:00:00Z"))).toBe(2);
    // an uncertain send later found rejected does not count
    await j.recordOrderUpdate("d", { status: "rejected", message: "lookup: rejected", at: "2024-01-31T11:52:00Z" });
    expect(j.ordersThisMonth(new Date("2024-02-10T00:00:00Z"))).toBe(1);
    // in UTC the same orders all fall in January
    const utc = await openJournal(j.home, { timezone: "UTC", readOnly: true });
    expect(utc.ordersThisMonth(new Date("2024-01-15T00:00:00Z"))).toBe(2);
  });

  it("handles a daylight-saving change (Australia/Sydney, April 2024)", async () => {
    const j = await freshJournal({ timezone: "Australia/Sydney" });
    await startRun(j, "r1");
    await sendAt(j, "m", "2024-03-31T12:59:00Z"); // 23:59 AEDT Mar 31
    await sendAt(j, "a1", "2024-03-31T13:00:00Z"); // 00:00 AEDT Apr 1
    await sendAt(j, "a2", "2024-04-30T13:30:00Z"); // 23:30 AEST Apr 30 (after DST ended Apr 7; +11 would say May)
    await sendAt(j, "y", "2024-04-30T14:00:00Z"); // 00:00 AEST May 1
    expect(j.ordersThisMonth(new Date("2024-03-15T00:00:00Z"))).toBe(1);
    expect(j.ordersThisMonth(new Date("2024-04-07T15:00:00Z"))).toBe(2);
    expect(j.ordersThisMonth(new Date("2024-05-02T00:00:00Z"))).toBe(1);
  });

  it("counts LLM spend per month exactly", async () => {
    const j = await freshJournal({ timezone: "Australia/Sydney" });
    await startRun(j, "r1");
    const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    for (let i = 0; i < 10; i++) await j.recordUsage("r1", { model: "m", usage, cost_usd: 0.1, at: "2024-01-15T00:00:00Z" });
    await j.recordUsage("r1", { model: "m", usage, cost_usd: 0.5, at: "2024-01-31T13:30:00Z" }); // Feb 1 in Sydney
    expect(j.spendThisMonth(new Date("2024-01-20T00:00:00Z"))).toBe(1);
    expect(j.spendThisMonth(new Date("2024-02-20T00:00:00Z"))).toBe(0.5);
    expect(j.runCostUsd("r1")).toBe(1.5);
  });
});

const dec = (o: ProposedOrder, approved: boolean, reasons: GateDecision["reasons"] = [], index = 0): GateDecision => ({
  index,
  order: { ...o },
  approved,
  reasons,
  notional: o.quantity * o.limit_price,
  commission: 1,
});
const po = (symbol: string, side: "BUY" | "SELL", quantity: number, limit_price: number): ProposedOrder => ({
  symbol,
  side,
  quantity,
  limit_price,
  reason: "r",
  evidence_ids: [],
});

describe("recent activity", () => {
  it("tells what became of each order of real runs", async () => {
    const j = await freshJournal({ capital: 100_000 });
    await startRun(j, "r1", "2024-01-02T14:00:00Z");
    const orders = [
      po("AAA", "BUY", 10, 10),
      po("BBB", "BUY", 10, 10),
      po("CCC", "BUY", 10, 10),
      po("DDD", "BUY", 10, 10),
      po("EEE", "BUY", 10, 10),
      po("FFF", "BUY", 1, 1),
    ];
    const decisions = [
      dec(orders[0]!, false, [{ code: "position_limit", message: "position would be 40% (max 20%)" }]),
      ...orders.slice(1).map((o) => dec(o, true)),
    ];
    await j.recordProposal("r1", { orders, summary: "s", decisions, at: "2024-01-02T14:05:00Z" });
    const approved = orders.slice(1, 5);
    await j.recordApproval("r1", { decision: "approved", by: "operator", orders_hash: "h", orders: approved, at: "2024-01-02T14:06:00Z" });
    await j.recordFinalGate(
      "r1",
      approved.map((o) => dec(o, true)),
    );
    // BBB filled
    await buy(j, "r1", "r1-1", "BBB", 10, 10);
    // CCC partially filled, rest cancelled
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "r1-2",
      index: 2,
      symbol: "CCC",
      side: "BUY",
      quantity: 10,
      limit_price: 10,
      at: "2024-01-02T14:07:00Z",
    });
    await j.recordOrderUpdate("r1-2", { status: "accepted", at: "2024-01-02T14:07:00Z" });
    await j.bookFill("r1-2", { fill_id: "x", symbol: "CCC", side: "BUY", quantity: 4, price: 9.5, commission: 0, fx_to_base: 1, at: "2024-01-02T14:08:00Z" });
    await j.recordOrderUpdate("r1-2", { status: "cancelled", filled_quantity: 4, at: "2024-01-02T14:09:00Z" });
    // DDD not filled, cancelled, counted
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "r1-3",
      index: 3,
      symbol: "DDD",
      side: "BUY",
      quantity: 10,
      limit_price: 10,
      at: "2024-01-02T14:07:00Z",
    });
    await j.recordOrderUpdate("r1-3", { status: "accepted", at: "2024-01-02T14:07:00Z" });
    await j.recordOrderUpdate("r1-3", { status: "cancelled", filled_quantity: 0, at: "2024-01-02T14:09:00Z" });
    // EEE: rejected by the broker
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "r1-4",
      index: 4,
      symbol: "EEE",
      side: "BUY",
      quantity: 10,
      limit_price: 10,
      at: "2024-01-02T14:07:00Z",
    });
    await j.recordOrderUpdate("r1-4", { status: "rejected", message: "insufficient buying power", at: "2024-01-02T14:07:00Z" });
    await finish(j, "r1");
    // observe-mode runs are not real
    await startRun(j, "obs", "2024-01-03T14:00:00Z", "observe");
    await j.recordProposal("obs", {
      orders: [po("ZZZ", "BUY", 1, 1)],
      summary: "",
      decisions: [dec(po("ZZZ", "BUY", 1, 1), true)],
      at: "2024-01-03T14:05:00Z",
    });
    await finish(j, "obs");
    // r2: the operator rejected everything
    await startRun(j, "r2", "2024-01-04T14:00:00Z");
    await j.recordProposal("r2", {
      orders: [po("GGG", "SELL", 1, 1)],
      summary: "",
      decisions: [dec(po("GGG", "SELL", 1, 1), true)],
      at: "2024-01-04T14:05:00Z",
    });
    await j.recordApproval("r2", { decision: "rejected", by: "operator", orders_hash: "h2", reason: "not today", at: "2024-01-04T14:06:00Z" });
    await finish(j, "r2");

    const act = j.recentActivity(10);
    expect(act.map((a) => [a.run_id, a.symbol, a.outcome])).toEqual([
      ["r2", "GGG", "not_placed"],
      ["r1", "AAA", "blocked"],
      ["r1", "BBB", "filled"],
      ["r1", "CCC", "partially_filled"],
      ["r1", "DDD", "not_filled"],
      ["r1", "EEE", "rejected"],
      ["r1", "FFF", "not_placed"],
    ]);
    expect(act[0]!.detail).toMatch(/rejected by the operator: not today/);
    expect(act[1]!.reasons).toEqual([{ code: "position_limit", message: "position would be 40% (max 20%)" }]);
    expect(act[3]).toMatchObject({ filled_quantity: 4, avg_fill_price: 9.5, counted: true });
    expect(act[4]).toMatchObject({ counted: true, filled_quantity: 0 });
    expect(act[5]).toMatchObject({ counted: false });
    expect(act[6]!.detail).toMatch(/dropped by the operator/);
    expect(j.recentActivity(3)).toHaveLength(3);
    expect(j.ordersThisMonth(new Date("2024-01-20T00:00:00Z"))).toBe(3);
    expect(j.verify()).toEqual([]);
  });
});

describe("runs", () => {
  it("closes a run left running by a dead process as aborted, with a note", async () => {
    const j = await freshJournal();
    await startRun(j, "r1", new Date().toISOString());
    // same process starting another run: the old one cannot still be running
    const { aborted } = await startRun(j, "r2", new Date().toISOString());
    expect(aborted).toEqual(["r1"]);
    expect(j.run("r1")).toMatchObject({ status: "aborted", outcome: "interrupted" });
    expect(j.run("r1")!.notes[0]).toMatch(/never finished.*closed by run r2/);
    await expect(startRun(j, "r2")).rejects.toMatchObject({ code: "duplicate_run" });
    await finish(j, "r2");
    await expect(finish(j, "r2")).rejects.toMatchObject({ code: "run_finished" });
  });

  it("aborts runs of dead pids and runs older than 30 minutes; refuses a live recent one", async () => {
    const { execa } = await import("execa");
    const home = tmpHome();
    const j = await freshJournal({ home });
    // a child process starts a run and exits without finishing it
    // (The children are bundled ahead: ./child-bundle.ts. One script: the run's id and age are its arguments.)
    const starter = await childBundle({
      source: `import { openJournal } from "./src/journal/journal.js";
const [home, id, minutesAgo, stay] = process.argv.slice(2);
const j = await openJournal(home, { timezone: "UTC", fsync: false });
await j.startRun({ run_id: id, mode: "paper", trading_day: "2024-01-02", at: new Date(Date.now() - Number(minutesAgo) * 60000), model: { provider: "x", id: "y" }, broker: { kind: "sim" } });
if (stay === "stay") { console.log("started"); setTimeout(() => {}, 20000); }`,
    });
    await execa(process.execPath, [starter, home, "child", "0", "exit"]);
    const j2 = await openJournal(home, { timezone: "UTC", fsync: false });
    expect(j2.run("child")?.status).toBe("running");
    const { aborted } = await startRun(j2, "next", new Date().toISOString());
    expect(aborted).toEqual(["child"]);
    expect(j2.run("child")!.notes[0]).toMatch(/process \(pid \d+ on .*\) is gone/);
    await finish(j2, "next");

    // a live process with a recent run: refused; the same live process 40 minutes on: aborted
    const live = (id: string, minutesAgo: number) => execa(process.execPath, [starter, home, id, String(minutesAgo), "stay"], { buffer: false });
    for (const [id, minutes, expectAbort] of [
      ["live-recent", 1, false],
      ["live-old", 40, true],
    ] as const) {
      const child = live(id, minutes);
      await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
      const j3 = await openJournal(home, { timezone: "UTC", fsync: false });
      if (expectAbort) {
        expect((await startRun(j3, `after-${id}`, new Date().toISOString())).aborted).toEqual([id]);
        expect(j3.run(id)!.notes[0]).toMatch(/still running 40 minutes/);
      } else {
        await expect(startRun(j3, `after-${id}`, new Date().toISOString())).rejects.toMatchObject({ code: "run_in_progress" });
      }
      child.kill("SIGKILL");
      await child.catch(() => {});
      if (!expectAbort) {
        const j4 = await openJournal(home, { timezone: "UTC", fsync: false });
        expect((await startRun(j4, `after-dead-${id}`, new Date().toISOString())).aborted).toEqual([id]);
        await finish(j4, `after-dead-${id}`);
      }
    }
    void j;
  });
});

describe("memory notes", () => {
  it("ids, supersession, cap, recall filters", async () => {
    const j = await freshJournal();
    const n1 = await j.remember({ kind: "watch", text: "AAA near its 50-day average", symbol: "aaa", run_id: "r1", at: "2024-01-02T00:00:00Z" });
    expect(n1).toMatchObject({ id: "n-1", symbol: "AAA", status: "live" });
    const n2 = await j.remember({ kind: "lesson", text: "Limit orders far from the close do not fill", run_id: "r1", at: "2024-01-02T00:00:01Z" });
    const n3 = await j.remember({
      kind: "watch",
      text: "AAA broke above its 50-day average",
      symbol: "AAA",
      supersedes: "n-1",
      run_id: "r2",
      at: "2024-01-03T00:00:00Z",
    });
    expect(j.note("n-1")).toMatchObject({ status: "superseded", superseded_by: n3.id });
    await expect(j.remember({ kind: "plan", text: "x", supersedes: "n-1", run_id: "r2", at: new Date() })).rejects.toMatchObject({ code: "note_not_found" });
    await expect(j.remember({ kind: "plan", text: "x", supersedes: "n-99", run_id: "r2", at: new Date() })).rejects.toMatchObject({ code: "note_not_found" });
    expect(j.recall({ symbol: "aaa" }).notes.map((n) => n.id)).toEqual(["n-3"]);
    expect(j.recall({ query: "50-day AVERAGE" }).total).toBe(1);
    expect(j.recall({ kind: "lesson" }).notes).toEqual([n2]);
    expect(j.recall({ limit: 1 })).toMatchObject({ total: 2, notes: [{ id: "n-3" }] });
    for (let i = 0; i < 48; i++) await j.remember({ kind: "observation", text: `note ${i}`, run_id: "r3", at: new Date() });
    await expect(j.remember({ kind: "observation", text: "one too many", run_id: "r3", at: new Date() })).rejects.toMatchObject({ code: "memory_full" });
    const sup = await j.remember({ kind: "observation", text: "replaces note 0", supersedes: "n-4", run_id: "r3", at: new Date() });
    expect(sup.id).toBe("n-52");
    // ids survive a reopen
    const again = await openJournal(j.home, { timezone: "UTC", fsync: false });
    expect(again.recall({ limit: 100 }).total).toBe(50);
    expect((await again.remember({ kind: "plan", text: "p", supersedes: "n-5", run_id: "r4", at: new Date() })).id).toBe("n-53");
  });
});

describe("verify", () => {
  it("finds an overfilled order and a fill without a run", async () => {
    const j = await freshJournal();
    await startRun(j, "r1");
    await buy(j, "r1", "c1", "AAA", 1, 10);
    await j.bookFill("c1", { fill_id: "extra", symbol: "AAA", side: "BUY", quantity: 1, price: 10, commission: 0, fx_to_base: 1, at: new Date() });
    const codes = j.verify().map((f) => f.code);
    expect(codes).toContain("overfilled_order");
    expect(codes).toContain("unbooked_fills");
  });
});

describe("which run a reset comes before", () => {
  it("is read from the log's order, not the clocks: a simulated reset time earlier than every wall-clock run start still lands before the next run", async () => {
    const j = await freshJournal();
    const trip = async (run: string) => {
      await j.observeFirstValuation(run, 10_000, "2026-12-02T10:00:00Z");
      await j.trip({ run_id: run, at: "2007-10-05T20:00:00Z", value: 8_000, peak: 10_000, drawdown_pct: 20, reason: "drawdown" });
    };
    // Runs start on today's wall clock; the simulation's trips and resets carry its session times (2007).
    await startRun(j, "r1", "2026-12-02T10:00:00Z");
    await trip("r1");
    await finish(j, "r1", "2026-12-02T10:00:01Z");
    await j.reset({ at: "2007-10-08T20:00:00Z", who: "simulation", reason: "automatic reset", value: 8_000 });
    await startRun(j, "r2", "2026-12-02T10:00:02Z");
    await finish(j, "r2", "2026-12-02T10:00:03Z");
    await startRun(j, "r3", "2026-12-02T10:00:04Z");
    await trip("r3");
    await finish(j, "r3", "2026-12-02T10:00:05Z");
    await j.reset({ at: "2007-11-08T20:00:00Z", who: "simulation", reason: "automatic reset", value: 8_000 });
    expect(j.resetNextRuns()).toEqual(["r2", null]);
    await startRun(j, "r4", "2026-12-02T10:00:06Z");
    expect(j.resetNextRuns()).toEqual(["r2", "r4"]);
    // The same order after the journal is folded again from its log.
    const again = await openJournal(j.home, { timezone: "UTC", readOnly: true });
    expect(again.resetNextRuns()).toEqual(["r2", "r4"]);
  });
});
