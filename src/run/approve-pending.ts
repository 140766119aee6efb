/**
 * `tradewarden approve [RUN]`: a proposal recorded as awaiting approval (a run without a terminal
 * and without --yes exits 6) can be decided later, within its trading session. This finds it,
 * checks its session is still the broker's open session, and hands it to the daily-run pipeline
 * as a resumed proposal: a new run that re-gates it on fresh state, asks the operator, runs the
 * final gate and the executor exactly as `run` does. Outside its session it has expired.
 */
import { existsSync, readFileSync } from "node:fs";
import type { ProposedOrder } from "../core/domain.js";
import { decidedBy } from "../journal/decided.js";
import type { Journal } from "../journal/journal.js";
import type { RunRecord } from "../journal/types.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { artifactPaths } from "./artifacts.js";
import { EXIT } from "../core/exit-codes.js";
import type { ResumedProposal, Session } from "./pipeline.js";

export interface PendingProposal {
  runId: string;
  tradingDay: string;
  orders: ProposedOrder[];
  summary: string;
  awaitingSince: string;
}

const refuse = (code: string, message: string) => new TwError(code, message, EXIT.USAGE_OR_CONFIG);

type PendingJournal = Pick<Journal, "runs" | "approvals" | "proposals" | "orders">;

/**
 * Whether `later` was an `approve` of `run`'s proposal that stopped before it placed anything (a
 * kill, a signal or a failure after the decision or the final gate): the same session, the same
 * orders (its approval names the awaiting proposal's hash), no order in the journal, and not
 * completed. Such a run has not moved the account: the proposal is still pending.
 */
function stoppedResumeOf(journal: PendingJournal, later: RunRecord, run: RunRecord, awaitingHash: string): boolean {
  if (later.trading_day !== run.trading_day || later.status === "completed") return false;
  if (journal.orders(later.run_id).length > 0) return false;
  const decided = journal.approvals(later.run_id);
  return decided.length > 0 && decided.every((a) => a.decision !== "awaiting" && a.orders_hash === awaitingHash);
}

/** The run whose proposal is pending: the latest run, passing over stopped `approve` runs of an earlier proposal. */
function latestDeciding(journal: PendingJournal, runs: RunRecord[]): RunRecord | undefined {
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as RunRecord;
    const awaiting = journal.approvals(run.run_id).at(-1);
    if (awaiting?.decision !== "awaiting") continue;
    const after = runs.slice(i + 1);
    if (after.every((later) => stoppedResumeOf(journal, later, run, awaiting.orders_hash))) return run;
  }
  return runs.at(-1);
}

/**
 * The proposal awaiting approval: of run `runId`, else of the latest run. Only the latest run's
 * proposal can be pending (any later run has moved the account and the session on) — except that
 * an `approve` of it that was stopped before it placed anything does not count as a later run.
 */
export function findPendingProposal(journal: PendingJournal, runId?: string): PendingProposal {
  const runs = journal.runs();
  const latest = latestDeciding(journal, runs);
  if (!latest) throw refuse("nothing_pending", "no run in the journal: there is no proposal to approve");
  const run = runId ? runs.find((r) => r.run_id === runId) : latest;
  if (!run) throw refuse("unknown_run", `run ${runId} is not in the journal (\`tradewarden journal\` lists the runs)`);
  const approval = journal.approvals(run.run_id).at(-1);
  if (approval?.decision !== "awaiting") {
    const what = approval ? `its proposal was already decided (${approval.decision})` : "it recorded no proposal awaiting approval";
    throw refuse("nothing_pending", `run ${run.run_id} has nothing to approve: ${what}`);
  }
  if (run.run_id !== latest.run_id) {
    // Decided by a later run (an approve of it that finished): said as such, not as an expired proposal.
    const decided = decidedBy(journal, run.run_id);
    if (decided)
      throw refuse(
        "already_decided",
        `the proposal of run ${run.run_id} was already decided: run ${decided.run_id} recorded it as ${decided.decision}; nothing was placed`,
      );
    throw refuse(
      "proposal_expired",
      `the proposal of run ${run.run_id} (trading day ${run.trading_day}) has expired: run ${latest.run_id} came after it; nothing was placed`,
    );
  }
  const proposal = journal.proposals(run.run_id).at(-1);
  if (!proposal || proposal.orders.length === 0) throw refuse("nothing_pending", `run ${run.run_id} recorded no orders to approve`);
  return { runId: run.run_id, tradingDay: run.trading_day, orders: proposal.orders, summary: proposal.summary, awaitingSince: approval.at };
}

/** The proposal may be decided only while its trading session is the broker's open session. */
export function checkSession(pending: PendingProposal, clock: Session): void {
  if (clock.tradingDay !== pending.tradingDay || !clock.isOpen) {
    const now = clock.isOpen ? `the open session is ${clock.tradingDay}` : `the market is closed (next session ${clock.tradingDay})`;
    throw refuse(
      "proposal_expired",
      `the proposal of run ${pending.runId} was for the session of ${pending.tradingDay} and has expired: ${now}; nothing was placed`,
    );
  }
}

function readTranscript(home: string, runId: string): ResumedProposal["transcript"] {
  const path = artifactPaths(homePaths(home).runDir(runId)).transcript;
  if (!existsSync(path)) return { system: null, messages: [] };
  try {
    const t = JSON.parse(readFileSync(path, "utf8")) as { system?: unknown; messages?: Array<{ role: string; content: unknown }> };
    return { system: t.system ?? null, messages: Array.isArray(t.messages) ? t.messages : [] };
  } catch {
    return { system: null, messages: [] };
  }
}

/**
 * What the pipeline needs to decide `pending`: the resumed proposal, and an `openSession` that
 * re-checks the session instead of opening a new one (on the simulated broker, opening would
 * move to the next day).
 */
export function resumeDeps(
  home: string,
  pending: PendingProposal,
  clock: () => Promise<Session>,
): { resume: ResumedProposal; openSession: () => Promise<Session> } {
  return {
    resume: { fromRunId: pending.runId, orders: pending.orders, summary: pending.summary, transcript: readTranscript(home, pending.runId) },
    openSession: async () => {
      const c = await clock();
      checkSession(pending, c);
      return { tradingDay: pending.tradingDay, isOpen: true };
    },
  };
}
