/**
 * Execute: the final gate's orders go to the paper broker through the one placement path, in two
 * waves: first the sells and the buys the cash held covers (each waited for, cancelled where still
 * working, settled); then the buys funded by those sells, re-gated on the cash they actually brought
 * (src/run/phases/second-wave.ts). The run's words and exit code are the execution's facts
 * (src/executor/summary.ts): "sent" counts only what the broker acknowledged.
 */
import { EXIT } from "../../core/exit-codes.js";
import { describeExecution } from "../../executor/summary.js";
import { type Gated, type Phase, Stop } from "./context.js";
import { placeOrders } from "./place.js";
import { secondWave } from "./second-wave.js";

/** The last phase: it always ends the run, with the execution's outcome. */
export const executePhase: Phase<Gated, never> = {
  name: "execute",
  async run(ctx) {
    const first = await placeOrders(ctx, ctx.toPlace);
    const second = await secondWave(ctx, first);
    const results = [...first.results, ...(second?.results ?? [])];
    const journalErrors = [...(first.journal_errors ?? []), ...(second?.journal_errors ?? [])];
    const told = describeExecution(results, journalErrors);
    if (ctx.deps.signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, `interrupted during execution: ${told.message}`);
    return new Stop(told.outcome, told.exitCode, told.message);
  },
};
