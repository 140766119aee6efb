/**
 * The `submit_orders` adapter. The submission itself (the single bounce, the hold, the accepted
 * proposal the run goes on with) is the agent's (src/agent/submit.ts); this adapter types its
 * answer against the tool's output schema, so a field the contract does not declare is caught
 * here rather than shown to the model.
 */
import { Value } from "@sinclair/typebox/value";
import type { SubmitHandler } from "../../agent/submit.js";
import type { AnswerOf, HandlerOf } from "../define.js";
import { submitOrders } from "../defs/submit-orders.js";

export function makeSubmitOrdersAdapter(submit: SubmitHandler): HandlerOf<typeof submitOrders> {
  return async (args, ctx): Promise<AnswerOf<typeof submitOrders>> => {
    const r = await submit(args, ctx);
    if (!r.ok) return r;
    const shown = { success: true as const, ...r.data };
    if (!Value.Check(submitOrders.output, shown)) {
      const first = [...Value.Errors(submitOrders.output, shown)][0];
      return {
        ok: false,
        code: "tool_execution_failed",
        message: `submit_orders answered outside its contract${first ? ` at ${first.path || "/"}: ${first.message}` : ""}`,
      };
    }
    const { success: _success, ...data } = shown;
    return { ok: true, data, ...(r.evidenceIds ? { evidenceIds: r.evidenceIds } : {}) };
  };
}
