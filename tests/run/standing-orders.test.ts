/**
 * Standing orders at the start of a run, with the real journal and the real gate: the trigger rules
 * (pure), REDUCING blocking a fired buy, a mode that places nothing, and an approval that no longer
 * binds (the order was changed after it) never firing.
 */
import type { Order } from "../../src/core/order.js";
import { describe, expect, it } from "vitest";
import type { RunEventBody } from "../../src/core/events.js";
import { defaultConfig, limitsOf } from "../../src/config/load.js";
import { evaluate } from "../../src/gate/evaluate.js";
import type { GateOrder } from "../../src/core/gate-types.js";
import { checkTriggers, crosses } from "../../src/gate/standing-triggers.js";
import type { Journal } from "../../src/journal/journal.js";
import { bindingHash, SIDE_OF, type StandingOrder, type StandingType } from "../../src/journal/standing-orders.js";
import { buildGateInputs } from "../../src/run/gate-inputs.js";
import { fireStandingOrders } from "../../src/run/standing-orders.js";
import { freshJournal } from "../journal/helpers.js";

const DAY = "2024-01-10";
const prices = { ALFA: 100 } as Record<string, number>;
const priceSource = {
  referencePrice: (s: string) => (prices[s] ? { symbol: s, price: prices[s] as number, as_of: "2024-01-09", currency: "USD", fx_to_base: 1 } : undefined),
};

function standing(id: string, type: StandingType, trigger: number, extra: Partial<StandingOrder> = {}): StandingOrder {
  const o: StandingOrder = {
    id,
    symbol: "ALFA",
    type,
    trigger_price: trigger,
    side: SIDE_OF[type],
    quantity: 2,
    limit_price: 100,
    expires_on: "2024-01-31",
    reason: "t",
    evidence_ids: ["e"],
    proposed_run: "r0",
    proposed_day: "2024-01-05",
    proposed_at: "2024-01-05T15:00:00Z",
    ttl_trading_days: 20,
    binding_hash: "",
    status: "proposed",
    ...extra,
  };
  return { ...o, binding_hash: bindingHash(o) };
}

async function arm(j: Journal, orders: StandingOrder[], tamper?: (o: StandingOrder) => void) {
  await j.commitStanding(() => ({ events: orders.map((order) => ({ kind: "propose" as const, order })), result: null }));
  await j.commitStanding(() => ({
    events: orders.map((o) => ({ kind: "approve" as const, id: o.id, by: "alice", at: "2024-01-05T16:00:00Z", binding_hash: o.binding_hash })),
    result: null,
  }));
  if (tamper) for (const o of orders) tamper(j.standingState().orders.get(o.id) as StandingOrder);
}

async function fire(j: Journal, mode: "paper" | "observe" | "watch" = "paper") {
  const events: RunEventBody[] = [];
  const placed: Order[][] = [];
  const config = defaultConfig();
  const report = await fireStandingOrders({
    runId: "r1",
    tradingDay: DAY,
    mode,
    journal: j,
    referencePrice: (s) => prices[s],
    finalGate: (orders) => {
      const g = buildGateInputs({
        facts: { cash: j.cash(), holdings: j.holdings(), peak: j.peak() ?? j.cash(), ordersThisMonth: 0, tradingState: j.tradingState() },
        openOrders: [],
        prices: priceSource,
        universe: [{ symbol: "ALFA", currency: "USD" }],
        limits: limitsOf(config),
        schedule: config.broker.sim,
        tradingDay: DAY,
      });
      return evaluate(orders as unknown as GateOrder[], g.state, g.market, g.limits, g.universe, { commission: g.commission }).decisions;
    },
    place: async (orders) => {
      placed.push(orders);
    },
    emit: (e) => events.push(e),
    now: () => new Date("2024-01-10T14:30:00Z"),
  });
  return { report, events, placed };
}

describe("trigger rules", () => {
  it("stop-loss and buy-limit-below fire at or below, take-profit at or above; only later runs; not after the last day", () => {
    expect([
      crosses("stop_loss", 90, 90),
      crosses("stop_loss", 91, 90),
      crosses("take_profit", 110, 110),
      crosses("take_profit", 109, 110),
      crosses("buy_limit_below", 95, 95),
    ]).toEqual([true, false, true, false, true]);
    const orders = [
      { id: "a", symbol: "ALFA", type: "stop_loss" as const, trigger_price: 101, proposed_day: "2024-01-05", expires_on: "2024-01-31" },
      { id: "b", symbol: "ALFA", type: "stop_loss" as const, trigger_price: 101, proposed_day: DAY, expires_on: "2024-01-31" },
      { id: "c", symbol: "ALFA", type: "stop_loss" as const, trigger_price: 101, proposed_day: "2024-01-05", expires_on: "2024-01-09" },
      { id: "d", symbol: "ALFA", type: "take_profit" as const, trigger_price: 101, proposed_day: "2024-01-05", expires_on: "2024-01-31" },
    ];
    expect(checkTriggers(orders, DAY, (s) => prices[s]).map((v) => [v.order.id, v.kind])).toEqual([
      ["a", "triggered"],
      ["c", "expired"],
      ["d", "waiting"],
    ]);
  });
});

/** Run r0 on 2024-01-05 bought `quantity` ALFA at 100 (filled), so the journal holds it. */
async function holdAlfa(j: Awaited<ReturnType<typeof freshJournal>>, quantity: number): Promise<void> {
  await j.startRun({
    run_id: "r0",
    mode: "paper",
    trading_day: "2024-01-05",
    at: "2024-01-05T14:00:00Z",
    model: { provider: "scripted", id: "x" },
    broker: { kind: "sim", account_id: "s", endpoint: "local" },
  });
  await j.recordOrderIntent({
    run_id: "r0",
    client_order_id: "c1",
    index: 0,
    symbol: "ALFA",
    side: "BUY",
    quantity,
    limit_price: 100,
    at: "2024-01-05T14:30:00Z",
  });
  await j.recordOrderUpdate("c1", { status: "accepted", broker_order_id: "b1", at: "2024-01-05T14:30:00Z" });
  await j.bookFill("c1", { fill_id: "f1", symbol: "ALFA", side: "BUY", quantity, price: 100, commission: 0, fx_to_base: 1, at: "2024-01-05T14:31:00Z" });
}

describe("fireStandingOrders", () => {
  it("no second wave for standing orders: a fired buy only a fired sell's proceeds would pay for is blocked, the sell goes ahead", async () => {
    const j = await freshJournal({ capital: 10_000 });
    await holdAlfa(j, 99);
    // Cash 100: the buy (2,000) needs the stop-loss sell's proceeds.
    await arm(j, [standing("so-1", "buy_limit_below", 101, { quantity: 20 }), standing("so-2", "stop_loss", 101, { quantity: 99, limit_price: 99.5 })]);
    const { report, events, placed } = await fire(j);
    expect(report).toEqual({ placed: ["so-2"], blocked: ["so-1"], expired: [], notPlaced: [] });
    expect(placed).toEqual([[expect.objectContaining({ symbol: "ALFA", side: "SELL", quantity: 99 })]]);
    const fired = events.find((e) => e.type === "standing.fired" && e.id === "so-1");
    expect(fired).toMatchObject({
      result: "blocked",
      reasons: [{ code: "insufficient_cash", message: expect.stringMatching(/placed only with cash already held/) }],
    });
  });

  it("in REDUCING a fired buy is blocked by the final gate and not placed; a fired sell of a holding goes ahead", async () => {
    const j = await freshJournal({ capital: 10_000, reducing: 2 });
    await holdAlfa(j, 10);
    await j.trip({ run_id: "r0", at: "2024-01-06T14:00:00Z", value: 8000, peak: 10_000, drawdown_pct: 20, reason: "test" });
    await j.reset({ at: "2024-01-07T14:00:00Z", who: "alice", reason: "reviewed", value: 9000, reducing_runs: 2 });
    expect(j.tradingState()).toBe("REDUCING");
    await arm(j, [standing("so-1", "buy_limit_below", 101), standing("so-2", "stop_loss", 101, { quantity: 10, limit_price: 99.5 })]);
    const { report, events, placed } = await fire(j);
    expect(report).toEqual({ placed: ["so-2"], blocked: ["so-1"], expired: [], notPlaced: [] });
    expect(placed).toEqual([[expect.objectContaining({ symbol: "ALFA", side: "SELL", quantity: 10 })]]);
    const blocked = events.find((e) => e.type === "standing.fired" && e.id === "so-1");
    expect(blocked).toMatchObject({ result: "blocked", reasons: [expect.objectContaining({ code: expect.stringMatching(/reducing|state/i) })] });
    expect(j.standingState().orders.get("so-1")).toMatchObject({ status: "blocked" });
    expect(j.standingState().orders.get("so-2")).toMatchObject({ status: "placed", fired: { client_order_id: "tw-r1-S0", reference_price: 100 } });
  });

  it("observe and watch runs place nothing and leave the order armed", async () => {
    for (const mode of ["observe", "watch"] as const) {
      const j = await freshJournal();
      await arm(j, [standing("so-1", "buy_limit_below", 101)]);
      const { report, placed, events } = await fire(j, mode);
      expect(report.notPlaced).toEqual(["so-1"]);
      expect(placed).toEqual([]);
      expect(events.filter((e) => e.type === "gate.final")).toEqual([]);
      expect(j.standingState().orders.get("so-1")?.status).toBe("active");
    }
  });

  it("an approval binds to the trigger and order it was given for: a changed order never fires, a wrong hash never arms", async () => {
    const j = await freshJournal();
    await arm(j, [standing("so-1", "buy_limit_below", 101)], (o) => {
      o.quantity = 500; // changed after the approval (e.g. a tampered record)
    });
    expect((await fire(j)).report.placed).toEqual([]);
    const k = await freshJournal();
    const o = standing("so-1", "buy_limit_below", 101);
    await k.commitStanding(() => ({ events: [{ kind: "propose", order: o }], result: null }));
    await k.commitStanding(() => ({
      events: [{ kind: "approve", id: "so-1", by: "alice", at: "2024-01-05T16:00:00Z", binding_hash: "0".repeat(64) }],
      result: null,
    }));
    expect(k.standingState().orders.get("so-1")?.status).toBe("proposed");
  });
});
