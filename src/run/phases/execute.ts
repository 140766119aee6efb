/**
 * Execute: the final gate's orders go to the paper broker through the one placement path. The
 * run's words and exit code are the execution's facts (src/executor/summary.ts): "sent" counts only
 * what the broker acknowledged.
 */
import { EXIT } from "../../core/exit-codes.js";
import { describeExecution } from "../../executor/summary.js";
import { type Gated, type Phase, Stop } from "./context.js";
import { placeOrders } from "./place.js";

/** The last phase: it always ends the run, with the execution's outcome. */
export const executePhase: Phase<Gated, never> = {
  name: "execute",
  async run(ctx) {
    const executed = await placeOrders(ctx, ctx.toPlace);
    const told = describeExecution(executed.results, executed.journal_errors);
    if (ctx.deps.signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, `interrupted during execution: ${told.message}`);
    return new Stop(told.outcome, told.exitCode, told.message);
  },
};
