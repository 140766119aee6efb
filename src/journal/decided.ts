/**
 * Which later run decided a proposal recorded as awaiting approval. `tradewarden approve` starts a
 * new run on the same trading day whose proposal is the awaiting one, unchanged (the resume phase
 * records it as is); the run that finished after deciding it is the deciding run. An `approve` that
 * was stopped before it finished has decided nothing (the proposal is still pending).
 */
import { type Static, Type } from "@sinclair/typebox";
import type { JournalReads } from "./journal-reads.js";

const DecidedBySchema = Type.Object({
  /** The run that decided the proposal. */
  run_id: Type.String({ minLength: 1 }),
  /** Its decision: approved, rejected, killswitch. */
  decision: Type.String(),
});
export type DecidedBy = Static<typeof DecidedBySchema>;

type DecidedJournal = Pick<JournalReads, "runs" | "approvals" | "proposals">;

const sameOrders = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The run that decided run `runId`'s awaiting proposal, or null (not awaiting, or still pending). */
export function decidedBy(journal: DecidedJournal, runId: string): DecidedBy | null {
  const runs = journal.runs();
  const i = runs.findIndex((r) => r.run_id === runId);
  const run = runs[i];
  if (!run || journal.approvals(runId).at(-1)?.decision !== "awaiting") return null;
  const proposal = journal.proposals(runId).at(-1);
  if (!proposal) return null;
  for (const later of runs.slice(i + 1)) {
    if (later.trading_day !== run.trading_day || later.status !== "completed") continue;
    if (!sameOrders(journal.proposals(later.run_id).at(-1)?.orders, proposal.orders)) continue;
    const decided = journal.approvals(later.run_id).find((a) => a.decision !== "awaiting");
    if (decided) return { run_id: later.run_id, decision: decided.decision };
  }
  return null;
}
