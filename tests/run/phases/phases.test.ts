import { describe, expect, it } from "vitest";
import { EXIT } from "../../../src/core/exit-codes.js";
import type { ProposedOrder } from "../../../src/core/domain.js";
import { agentPhase } from "../../../src/run/phases/agent.js";
import { budgetPhase } from "../../../src/run/phases/budget.js";
import { decisionPhase } from "../../../src/run/phases/decision.js";
import { executePhase } from "../../../src/run/phases/execute.js";
import { finalGatePhase } from "../../../src/run/phases/final-gate.js";
import { killSwitchPhase } from "../../../src/run/phases/killswitch.js";
import { preflight } from "../../../src/run/phases/preflight.js";
import { reconcilePhase } from "../../../src/run/phases/reconcile.js";
import { valuePhase } from "../../../src/run/phases/value.js";
import { ordersHash } from "../../../src/run/approval.js";
import type { Open, Proposed, Valued } from "../../../src/run/phases/context.js";
import { ok, phaseWorld } from "./helpers.js";

const order = (symbol: string, side: "BUY" | "SELL", quantity: number, limit_price: number): ProposedOrder => ({
  symbol,
  side,
  quantity,
  limit_price,
  reason: "test",
  evidence_ids: [],
});

type World = Awaited<ReturnType<typeof phaseWorld>>;

/** Preflight, reconcile and value, each on what the one before established. */
async function valued(ctx: World["ctx"]): Promise<Valued> {
  return ok(await valuePhase.run(ok(await reconcilePhase.run(ok(await preflight.run(ctx))))));
}

/** …and the kill switch: the market open, nothing halted or tripped. */
async function open(ctx: World["ctx"]): Promise<Open> {
  return ok(await killSwitchPhase.run(await valued(ctx)));
}

/** An open run with a proposal to decide (as the agent phase would hand it on). */
const proposed = (o: Open, orders: ProposedOrder[]): Proposed => ({ ...o, proposal: { orders, summary: "buy", transcript: [] } });

/** Decision, final gate and execute, each on what the one before established. */
async function decideAndPlace(p: Proposed) {
  return executePhase.run(ok(await finalGatePhase.run(ok(await decisionPhase.run(p)))));
}

describe("run phases", () => {
  it("preflight records the run on the session's day; a day not after the last completed run's is refused with exit 3", async () => {
    const w = await phaseWorld();
    expect(ok(await preflight.run(w.ctx)).tradingDay).toBe("2020-01-06");
    expect(w.ctx.progress.tradingDay).toBe("2020-01-06");
    expect(w.journal.run(w.ctx.runId)?.trading_day).toBe("2020-01-06");
    await w.journal.observeFirstValuation(w.ctx.runId, 10_000, new Date());
    await w.journal.finishRun(w.ctx.runId, { status: "completed", outcome: "hold", exit_code: 0, message: "", at: new Date() });

    // The same journal, the broker's clock back on the same day: refused before the run is recorded.
    const again = await phaseWorld();
    const ctx = { ...again.ctx, deps: { ...again.ctx.deps, journal: w.journal } };
    const stop = await preflight.run(ctx);
    expect(stop).toMatchObject({ outcome: "reconcile_failed", exitCode: EXIT.RECONCILE_FAILED });
    expect(stop).toMatchObject({ message: expect.stringMatching(/not after 2020-01-06.*fresh account/) });
    expect(w.journal.runs()).toHaveLength(1);
  });

  it("reconcile compares the cash moved by trading with the simulated broker's book", async () => {
    const w = await phaseWorld();
    const opened = ok(await preflight.run(w.ctx));
    expect(ok(await reconcilePhase.run(opened)).openOrders).toEqual([]);
    // A trade the journal never saw: the broker's cash moved, its position too.
    await w.broker.placeLimitDayOrder({ client_order_id: "x-1", symbol: "AAA", side: "BUY", quantity: 10, limit_price: 10.5 });
    expect(await reconcilePhase.run(opened)).toMatchObject({ exitCode: EXIT.RECONCILE_FAILED });
    const diffs = (w.events("reconcile.failed")[0] as { differences: { kind: string }[] }).differences.map((d) => d.kind).sort();
    expect(diffs).toEqual(["cash_mismatch", "unbooked_position"]);
  });

  it("value sets the first valuation and the peak and emits it; budget stops when the quota is used up", async () => {
    const w = await phaseWorld({ config: (c) => void (c.limits.max_orders_per_month = 0) });
    const v = await valued(w.ctx);
    expect(v.value).toBe(10_000);
    expect(v.peak).toBe(10_000);
    expect(w.events("valuation")).toHaveLength(1);
    expect(await budgetPhase.run(ok(await killSwitchPhase.run(v)))).toMatchObject({ outcome: "quota_exhausted", exitCode: EXIT.OK });
  });

  it("decision, final gate and execute: the pipeline hashes the orders it places; a GBP buy is booked in USD at 1.2", async () => {
    const w = await phaseWorld();
    const decided = ok(await decisionPhase.run(proposed(ok(await budgetPhase.run(await open(w.ctx))), [order("GBX", "BUY", 10, 20)])));
    expect(decided.approved).toEqual([order("GBX", "BUY", 10, 20)]);
    const gated = ok(await finalGatePhase.run(decided));
    expect(gated.toPlace).toEqual([{ symbol: "GBX", side: "BUY", quantity: 10, limit_price: 20, currency: "GBP", fx_to_base: 1.2, liquidation: false }]);
    const gate = w.events("gate.final")[0] as { orders_hash?: string };
    expect(gate.orders_hash).toBe(ordersHash(gated.toPlace));
    expect(await executePhase.run(gated)).toMatchObject({ outcome: "executed" });
    const o = w.journal.orders(w.ctx.runId)[0]!;
    expect(o).toMatchObject({ currency: "GBP", fx_to_base: 1.2, liquidation: false });
    // 10 × 20 GBP × 1.2 = 240 USD, commission 1.00 GBP (the minimum) × 1.2 = 1.20 USD.
    expect(w.journal.cash()).toBe(10_000 - 240 - 1.2);
    expect((await w.broker.account()).cash).toBe(10_000 - 240 - 1.2);
  });

  it("the compiler keeps the order: each phase takes only what the phase before it established", async () => {
    const w = await phaseWorld();
    const v = await valued(w.ctx);
    const o = ok(await killSwitchPhase.run(v));
    // Never called: these lines only have to fail to compile (tsc checks the tests).
    const outOfOrder = [
      // @ts-expect-error the decision takes a proposal (Proposed), not a valued run
      () => decisionPhase.run(v),
      // @ts-expect-error the agent runs only after the budget phase (Affordable)
      () => agentPhase.run(o),
      // @ts-expect-error nothing is placed before the final gate (Gated)
      () => executePhase.run(o),
      // @ts-expect-error the kill switch needs the valuation (Valued)
      () => killSwitchPhase.run(w.ctx),
    ];
    expect(outOfOrder).toHaveLength(4);
  });

  it("decision refuses an approval that goes beyond the proposal, whatever the approver says", async () => {
    const approver = { name: "greedy", decide: async () => ({ kind: "approve" as const, orders: [order("AAA", "BUY", 99, 10)], by: "operator" as const }) };
    const w = await phaseWorld({ approver });
    await expect(decisionPhase.run(proposed(await open(w.ctx), [order("AAA", "BUY", 10, 10)]))).rejects.toThrow(/beyond the proposal/);
  });

  it("kill switch: a drawdown past the limit trips, and the liquidation goes through the placement path flagged and outside the quota", async () => {
    const w = await phaseWorld({ closes: [10, 10, 10, 10, 10] });
    expect(await decideAndPlace(proposed(await open(w.ctx), [order("AAA", "BUY", 200, 10)]))).toMatchObject({ outcome: "executed" });
    expect(w.journal.holdings().AAA?.quantity).toBe(200);
    // Tomorrow the account is worth much less than the peak: fake it with a tiny limit.
    const t = await phaseWorld({ config: (c) => void (c.limits.max_drawdown_pct = 0.01) });
    const ctx = { ...t.ctx, deps: { ...t.ctx.deps, journal: w.journal, broker: w.broker, openSession: w.ctx.deps.openSession } };
    const v = await valued(ctx);
    const stop = await killSwitchPhase.run({ ...v, peak: v.value + 100 }); // a confirmed peak above today's value
    expect(stop).toMatchObject({ outcome: "tripped", exitCode: EXIT.HALTED_OR_TRIPPED });
    const sold = w.journal.orders(ctx.runId);
    expect(sold.length).toBe(1);
    expect(sold[0]).toMatchObject({ side: "SELL", liquidation: true, counted_at: null, currency: "USD" });
    expect(sold[0]?.client_order_id).toMatch(/-L0$/);
    expect(w.journal.liquidationStatus().orders.map((o) => o.client_order_id)).toEqual([sold[0]?.client_order_id]);
    // The activity the model reads tomorrow names it as a liquidation, never as a proposal's order.
    const activity = w.journal.recentActivity(10).filter((a) => a.run_id === ctx.runId);
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ liquidation: true, counted: false });
  });
});
