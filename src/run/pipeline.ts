/**
 * The daily run: one pipeline, many front ends. Named phases, each taking what the one before it
 * established and returning what it establishes (or a `Stop`), so the compiler keeps their order:
 *
 *   preflight (Opened) ─► recover & reconcile (Reconciled) ─► value (Valued) ─► kill switch (Open)
 *     ─► standing orders ─► budget (Affordable) ─► agent (Proposed) ─► decision [Approver]
 *     ─► final gate ─► execute ─► close
 *
 * Each phase is a small module under ./phases. Every phase emits typed run events through the
 * EventSink; every stop is recorded with its reason and maps to one exit code. Nothing reaches the
 * broker except orders approved by the final gate (on fresh state) and the operator, or kill-switch
 * liquidations, through one placement path.
 *
 * To add a phase, type it by what it takes and what it establishes and call it in `dailyPhases`
 * where its input is established. The reconcile phase first recovers every order of an earlier run
 * whose outcome is not final, by its client order id (phases/recover-reconcile.ts).
 */
import { randomBytes } from "node:crypto";
import type { RunOutcome } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { ensureRunDir } from "./artifacts.js";
import { agentPhase } from "./phases/agent.js";
import { budgetPhase } from "./phases/budget.js";
import { closeRun } from "./phases/close.js";
import {
  type Affordable,
  type Phase,
  type PipelineDeps,
  type Proposed,
  type RunStart,
  type ResumedProposal,
  type RunSummary,
  Stop,
  type Valued,
} from "./phases/context.js";
import { decisionPhase } from "./phases/decision.js";
import { executePhase } from "./phases/execute.js";
import { finalGatePhase } from "./phases/final-gate.js";
import { killSwitchPhase } from "./phases/killswitch.js";
import { preflight } from "./phases/preflight.js";
import { reconcilePhase } from "./phases/reconcile.js";
import { resumePhase } from "./phases/resume.js";
import { standingPhase } from "./phases/standing.js";
import { valuePhase } from "./phases/value.js";

export type { PipelineDeps, ResumedProposal, RunSummary, Session } from "./phases/context.js";

/** Preflight, reconcile and value: each takes what the one before established. */
async function valueRun(ctx: RunStart): Promise<Stop | Valued> {
  const opened = await preflight.run(ctx);
  if (opened instanceof Stop) return opened;
  const reconciled = await reconcilePhase.run(opened);
  if (reconciled instanceof Stop) return reconciled;
  return valuePhase.run(reconciled);
}

/** Decision, final gate and execute: the proposal to the operator, what is approved to the broker. */
async function decideAndPlace(proposed: Proposed): Promise<Stop> {
  const decided = await decisionPhase.run(proposed);
  if (decided instanceof Stop) return decided;
  const gated = await finalGatePhase.run(decided);
  if (gated instanceof Stop) return gated;
  return executePhase.run(gated);
}

/**
 * The daily run's phases with `agent` as the agent phase, each on what the one before established
 * (close always runs after them). `tradewarden mcp` puts an MCP client's model in the agent's place.
 */
export function dailyPhasesWith(agent: Phase<Affordable, Proposed>): (ctx: RunStart) => Promise<Stop> {
  return async (ctx) => {
    const valued = await valueRun(ctx);
    if (valued instanceof Stop) return valued;
    const open = await killSwitchPhase.run(valued);
    if (open instanceof Stop) return open;
    const fired = await standingPhase.run(open);
    if (fired instanceof Stop) return fired;
    const affordable = await budgetPhase.run(fired);
    if (affordable instanceof Stop) return affordable;
    const proposed = await agent.run(affordable);
    if (proposed instanceof Stop) return proposed;
    return decideAndPlace(proposed);
  };
}

/** The daily run's phases, the model working the day through the agent loop. */
const dailyPhases = dailyPhasesWith(agentPhase);

/** `tradewarden approve`: an earlier run's proposal (resume) in place of the standing, budget and agent phases. */
function approvePhases(resume: ResumedProposal): (ctx: RunStart) => Promise<Stop> {
  return async (ctx) => {
    const valued = await valueRun(ctx);
    if (valued instanceof Stop) return valued;
    const open = await killSwitchPhase.run(valued);
    if (open instanceof Stop) return open;
    const proposed = await resumePhase.run({ ...open, resume });
    if (proposed instanceof Stop) return proposed;
    return decideAndPlace(proposed);
  };
}

/**
 * A run's id: its UTC start time to the millisecond and a random suffix, so ids sort by start time
 * (`latest` is the last) even for runs started within one second: a scheduler's retry, or commands
 * run one after another in one process. Ids of earlier builds (to the second) still resolve.
 */
export function newRunId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, "");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/** A fresh context for one run (its run directory created and the event file attached). */
export function newRunContext(deps: PipelineDeps): RunStart {
  const now = deps.now ?? (() => new Date());
  const runId = deps.runId ?? newRunId(now());
  deps.sink.runId = runId;
  const runDir = homePaths(deps.home).runDir(runId);
  const paths = ensureRunDir(runDir);
  // Held artifacts: the events are taken from the sink at close, never streamed to a file.
  if (!deps.held) deps.sink.attachFile(paths.events);
  return {
    deps,
    runId,
    paths,
    runDir,
    now,
    progress: { tradingDay: "", started: false, couldTrade: false, agentResult: null },
  };
}

/** Runs the phases until one stops; an error becomes the stop it maps to. */
async function runPhases(ctx: RunStart, phases: (ctx: RunStart) => Promise<Stop>): Promise<Stop> {
  const { sink } = ctx.deps;
  try {
    return await phases(ctx);
  } catch (e) {
    if (e instanceof Stop) return e;
    if (e instanceof TwError) {
      const outcome: RunOutcome = e.exitCode === EXIT.BROKER_OR_DATA_UNAVAILABLE ? "broker_unavailable" : "error";
      sink.emit({ type: "run.note", level: "warn", message: `${e.code}: ${e.message}` });
      return new Stop(outcome, e.exitCode, e.message);
    }
    const message = e instanceof Error ? e.message : String(e);
    sink.emit({ type: "run.note", level: "warn", message: `internal error: ${message}` });
    return new Stop("error", EXIT.INTERNAL_ERROR, `internal error: ${message}`);
  }
}

export async function runDaily(
  deps: PipelineDeps,
  phases: (ctx: RunStart) => Promise<Stop> = deps.resume ? approvePhases(deps.resume) : dailyPhases,
): Promise<RunSummary> {
  const ctx = newRunContext(deps);
  try {
    return await closeRun(ctx, await runPhases(ctx, phases));
  } finally {
    deps.sink.close(); // an event emitted later (a front end's last word) reopens the file
  }
}
