/**
 * The agent loop's running state (transcript, usage, spend, turns) and the stops it checks around
 * each model call: before the call (interrupt, turn and time limits), when the call fails, and
 * after the answer (run and monthly budgets, the stop reasons that end the run).
 */
import type { AgentOutcome, RunEventBody } from "../core/events.js";
import { microsToUsd, usdToMicros } from "../core/money.js";
import { CassetteError } from "./cassette.js";
import type { AgentProposal, AgentResult, RunAgentOptions, UsageRecord } from "./loop-types.js";
import type { Message, ModelResponse, ToolDefinition } from "./types.js";

/** Whole micro-dollars → USD for events and messages (exact: 6 decimals at most). */
export const usd = microsToUsd;

/** Why the run ends (and the proposal, when submit_orders succeeded). */
export interface Stop {
  outcome: AgentOutcome;
  reason: string;
  proposal?: AgentProposal;
}

export interface LoopRun {
  readonly opts: RunAgentOptions;
  readonly now: () => number;
  readonly start: number;
  readonly tools: readonly ToolDefinition[];
  readonly finalTools: ReadonlySet<string>;
  readonly dryRunTools: ReadonlySet<string>;
  readonly transcript: Message[];
  readonly usage: UsageRecord[];
  /** Every tool_use id of the transcript so far: each answer's ids are made unique against them. */
  readonly toolUseIds: Set<string>;
  readonly runBudgetMicros: number;
  readonly monthLeftMicros: number;
  /** The run's LLM spend so far, in whole micro-dollars (exact). */
  costMicros: number;
  turns: number;
  lastPending: string;
}

export function startRun(opts: RunAgentOptions): LoopRun {
  const now = opts.now ?? (() => performance.now());
  const { runtime, limits } = opts;
  return {
    opts,
    now,
    start: now(),
    tools: runtime.anthropicTools(),
    finalTools: new Set(runtime.contracts.filter((c) => c.kind === "final").map((c) => c.name)),
    dryRunTools: new Set(runtime.contracts.filter((c) => c.kind === "dry_run").map((c) => c.name)),
    transcript: [{ role: "user", content: [{ type: "text", text: opts.task }] }],
    usage: [],
    toolUseIds: new Set<string>(),
    runBudgetMicros: usdToMicros(limits.runBudgetUsd),
    monthLeftMicros: usdToMicros(limits.monthlyBudgetLeftUsd),
    costMicros: 0,
    turns: 0,
    lastPending: "[]",
  };
}

/** The run's last event and its result. */
export function finishRun(run: LoopRun, stop: Stop): { event: RunEventBody; result: AgentResult } {
  const { outcome, reason, proposal } = stop;
  const result: AgentResult = { outcome, reason, transcript: run.transcript, usage: run.usage, cost_usd: usd(run.costMicros), turns: run.turns };
  if (proposal) result.proposal = proposal;
  return { event: { type: "agent.finished", outcome, reason, turns: run.turns, cost_usd: usd(run.costMicros) }, result };
}

/** Nothing left of the month's LLM spend cap: the model is not called at all. */
export function monthlyCapUsedUp(run: LoopRun): Stop | null {
  if (run.opts.limits.monthlyBudgetLeftUsd <= 0) {
    return { outcome: "monthly_budget", reason: `the month's LLM spend cap is used up (${usd(run.monthLeftMicros)} USD left); the model was not called` };
  }
  return null;
}

/** The next call's time budget, or the stop that comes before it. */
export function beforeCall(run: LoopRun): Stop | { timeLeft: number; timeoutMs: number; cappedByClock: boolean } {
  const { limits, signal } = run.opts;
  if (signal?.aborted) return { outcome: "interrupted", reason: "interrupted before the next model call" };
  if (run.turns >= limits.maxTurns) return { outcome: "turn_limit", reason: `turn limit reached (${limits.maxTurns} model turns) without submit_orders` };
  const timeLeft = limits.maxSeconds * 1000 - (run.now() - run.start);
  if (timeLeft <= 0) return { outcome: "time_limit", reason: `wall-clock limit reached (${limits.maxSeconds} s) before model turn ${run.turns + 1}` };
  const timeoutMs = Math.max(limits.minCallTimeoutMs ?? 5000, Math.min(limits.requestTimeoutS * 1000, timeLeft));
  return { timeLeft, timeoutMs, cappedByClock: timeLeft <= limits.requestTimeoutS * 1000 };
}

/** Why a failed call ends the run (a cassette's drift is not the model's failure: it is thrown). */
export function failedCall(run: LoopRun, error: unknown, timedOut: boolean, turn: number, timing: { timeoutMs: number; cappedByClock: boolean }): Stop {
  const { limits, signal } = run.opts;
  if (error instanceof CassetteError) throw error;
  if (signal?.aborted) return { outcome: "interrupted", reason: `interrupted during model turn ${turn}` };
  if (timedOut) {
    return timing.cappedByClock
      ? { outcome: "time_limit", reason: `wall-clock limit reached (${limits.maxSeconds} s) during model turn ${turn}` }
      : { outcome: "model_error", reason: `model turn ${turn} timed out after ${Math.round(timing.timeoutMs / 1000)} s` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { outcome: "model_error", reason: `model call failed on turn ${turn}: ${message}` };
}

/** The budgets after a call's spend, then the stop reasons that end the run. */
export function afterAnswer(run: LoopRun, response: ModelResponse, turn: number): Stop | null {
  const { limits } = run.opts;
  if (run.costMicros > run.runBudgetMicros) {
    return { outcome: "cost_budget", reason: `run cost ${usd(run.costMicros)} USD is above the run budget of ${limits.runBudgetUsd} USD (after turn ${turn})` };
  }
  if (run.costMicros > run.monthLeftMicros) {
    return {
      outcome: "monthly_budget",
      reason: `run cost ${usd(run.costMicros)} USD is above what was left of the month's LLM spend cap (${usd(run.monthLeftMicros)} USD)`,
    };
  }
  const stop = String(response.stop_reason);
  if (stop === "refusal") return { outcome: "refusal", reason: `the model refused on turn ${turn}` };
  if (stop === "max_tokens")
    return { outcome: "max_tokens", reason: `the response hit max_tokens (${limits.maxTokens}) on turn ${turn}; its tool calls were not run` };
  if (stop === "model_context_window_exceeded")
    return { outcome: "context_window", reason: `the conversation exceeded the model's context window on turn ${turn}` };
  return null;
}
