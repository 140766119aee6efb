/** The `check_orders` adapter: the gate's verdicts on a copy of the run's state. */
import { dryRun, type GateInputs, modelVerdicts } from "../../gate/check-orders-handler.js";
import type { GateOrder, GateResult } from "../../core/gate-types.js";
import type { StaleEvidence } from "../../core/evidence-age.js";
import type { checkOrders } from "../defs/check-orders.js";
import type { AnswerOf, HandlerOf } from "../define.js";

/** The evidence ids an order cites (the gate's order is loose: anything else is no id). */
function citedIds(order: Readonly<Record<string, unknown>> | undefined): string[] {
  const ids = order?.evidence_ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

/**
 * `check_orders`: arguments arrive schema-validated as `{ orders: ProposedOrder[] }`. `staleOf`
 * (the run's evidence ages, src/core/evidence-age.ts) names each order's stale cited items: a
 * note on the decision, never a block. `gate` answers on a copy of the orders and state (default
 * `dryRun`; a run passes the gate memo it shares with its final gate, src/run/phases/gate.ts).
 */
export function makeCheckOrdersHandler<I extends GateInputs>(
  inputs: () => I,
  staleOf: (ids: readonly string[]) => StaleEvidence[] = () => [],
  gate: (orders: GateOrder[], inputs: I) => GateResult = dryRun,
): HandlerOf<typeof checkOrders> {
  return (args): AnswerOf<typeof checkOrders> => {
    const orders = args.orders;
    if (!Array.isArray(orders)) {
      return { ok: false, code: "invalid_tool_arguments", message: "`orders` must be an array of orders" };
    }
    let current: I;
    try {
      current = inputs();
    } catch (e) {
      return {
        ok: false,
        code: "tool_execution_failed",
        message: `the run's state is not available for the gate: ${(e as Error).message}`,
      };
    }
    const r = gate(orders, current);
    const shown = modelVerdicts(r);
    const decisions = shown.decisions.map((v, i) => {
      const stale = staleOf(citedIds(r.decisions[i]?.order));
      return stale.length > 0 ? { ...v, stale_evidence: stale } : v;
    });
    // The typed decisions (with each order's input index) go to the run's events, not to the model.
    return { ok: true, data: { ...shown, decisions }, verdicts: r.decisions };
  };
}
