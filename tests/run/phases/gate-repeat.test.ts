/**
 * The run's gate answers a repeated question (the same orders on the same state) with the decisions
 * it gave, and a changed question afresh: a copy the caller may change without changing the next answer.
 */
import { describe, expect, it } from "vitest";
import type { ProposedOrder } from "../../../src/core/domain.js";
import { evaluate } from "../../../src/gate/evaluate.js";
import { dryRun } from "../../../src/gate/check-orders-handler.js";
import { evaluateOrders, gateInputs, gateResult } from "../../../src/run/phases/gate.js";
import { preflight } from "../../../src/run/phases/preflight.js";
import { reconcilePhase } from "../../../src/run/phases/reconcile.js";
import { valuePhase } from "../../../src/run/phases/value.js";
import { ok, phaseWorld } from "./helpers.js";

const buy = (quantity: number): ProposedOrder => ({ symbol: "AAA", side: "BUY", quantity, limit_price: 10, reason: "test", evidence_ids: [] });

describe("the run's gate on a repeated question", () => {
  it("answers as the gate does, for equal and for changed orders and state", async () => {
    const w = await phaseWorld();
    const v = ok(await valuePhase.run(ok(await reconcilePhase.run(ok(await preflight.run(w.ctx))))));
    const direct = (ctx: typeof v, orders: ProposedOrder[]) => {
      const g = gateInputs(ctx);
      return evaluate(orders, g.state, g.market, g.limits, g.universe, { commission: g.commission }).decisions;
    };
    const first = evaluateOrders(v, [buy(100)]);
    expect(first[0]?.approved).toBe(true);
    first[0]!.approved = false; // a caller's change to its answer is not the next caller's
    expect(evaluateOrders({ ...v }, [buy(100)])).toEqual(direct(v, [buy(100)]));
    // More than the cash buys: a different question, a different answer.
    expect(evaluateOrders(v, [buy(5000)])).toEqual(direct(v, [buy(5000)]));
    expect(evaluateOrders(v, [buy(5000)])[0]?.approved).toBe(false);
    // The same orders on changed state (an open order reserving the cash) are gated afresh.
    const reserved = { ...v, openOrders: [{ symbol: "AAA", side: "BUY" as const, quantity: 950, limit_price: 10 }] };
    expect(evaluateOrders(reserved, [buy(100)])).toEqual(direct(reserved, [buy(100)]));
    expect(evaluateOrders(reserved, [buy(100)])[0]?.approved).toBe(false);
    expect(evaluateOrders(v, [buy(100)])[0]?.approved).toBe(true);
  });

  it("the dry run and the final gate share the memo: the same whole result as the dry run alone", async () => {
    const w = await phaseWorld();
    const v = ok(await valuePhase.run(ok(await reconcilePhase.run(ok(await preflight.run(w.ctx))))));
    const orders = [buy(100), buy(5000)];
    const alone = dryRun(structuredClone(orders), gateInputs(v));
    const checked = gateResult(v, structuredClone(orders), gateInputs(v));
    expect(checked).toEqual(alone);
    checked.portfolio_after.cash = -1; // the caller's copy, not the memo's
    expect(gateResult(v, orders)).toEqual(alone);
    expect(evaluateOrders(v, orders)).toEqual(alone.decisions);
  });
});
