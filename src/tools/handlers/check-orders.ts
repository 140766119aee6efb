/** The `check_orders` adapter: the gate's verdicts on a copy of the run's state. */
import { dryRun, type GateInputs, modelVerdicts } from "../../gate/check-orders-handler.js";
import type { checkOrders } from "../defs/check-orders.js";
import type { AnswerOf, HandlerOf } from "../define.js";

/** `check_orders`: arguments arrive schema-validated as `{ orders: ProposedOrder[] }`. */
export function makeCheckOrdersHandler(inputs: () => GateInputs): HandlerOf<typeof checkOrders> {
  return (args): AnswerOf<typeof checkOrders> => {
    const orders = args.orders;
    if (!Array.isArray(orders)) {
      return { ok: false, code: "invalid_tool_arguments", message: "`orders` must be an array of orders" };
    }
    let current: GateInputs;
    try {
      current = inputs();
    } catch (e) {
      return {
        ok: false,
        code: "tool_execution_failed",
        message: `the run's state is not available for the gate: ${(e as Error).message}`,
      };
    }
    const r = dryRun(orders, current);
    // The typed decisions (with each order's input index) go to the run's events, not to the model.
    return { ok: true, data: { ...modelVerdicts(r) }, verdicts: r.decisions };
  };
}
