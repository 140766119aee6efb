/**
 * One turn of the agent loop: the model call, its spend, the answer into the transcript, the stops
 * after it, and the tool calls it asked for (reads and dry runs first, then the final tool; one
 * user message carries every tool_result, in the order of the tool_use blocks).
 */
import type { RunEventBody } from "../core/events.js";
import { redactValue } from "../core/redact.js";
import { withShallowToolInputs } from "./deep-input.js";
import { callModel } from "./loop-call.js";
import { afterAnswer, beforeCall, failedCall, type LoopRun, type Stop, usd } from "./loop-run.js";
import type { UsageRecord } from "./loop-types.js";
import { costMicrosOf } from "./pricing.js";
import { uniqueToolUseIds } from "./tool-use-ids.js";
import { dispatchTurn, proposalFrom } from "./turn-tools.js";
import type { ContentBlock, ModelResponse, ToolUseBlock } from "./types.js";

/** Books a call's spend (the run journals it through `onUsage` before anything else) and reports it. */
async function* bookUsage(run: LoopRun, response: ModelResponse, turn: number, durationMs: number): AsyncGenerator<RunEventBody, void, void> {
  const callMicros = costMicrosOf(response.usage, run.opts.price);
  run.costMicros += callMicros;
  const record: UsageRecord = {
    turn,
    model: response.model,
    stop_reason: String(response.stop_reason),
    usage: response.usage,
    cost_usd: usd(callMicros),
    duration_ms: Math.round(durationMs),
  };
  run.usage.push(record);
  await run.opts.onUsage?.(record);
  yield {
    type: "model.response",
    turn,
    stop_reason: String(response.stop_reason),
    usage: response.usage,
    cost_usd: usd(callMicros),
    total_cost_usd: usd(run.costMicros),
    duration_ms: Math.round(durationMs),
  };
}

/** Runs the turn's tool calls and answers them; the run's stop when submit_orders succeeded or it was interrupted. */
async function* answerTools(run: LoopRun, turn: number, uses: ToolUseBlock[]): AsyncGenerator<RunEventBody, Stop | null, void> {
  const { runtime, signal, submitState } = run.opts;
  // Reads and dry runs first, then the final tool (./turn-tools.ts); results keep the order of the tool_use blocks.
  const { content, submitted } = yield* dispatchTurn({ runtime, turn, uses, finalTools: run.finalTools, dryRunTools: run.dryRunTools, signal, submitState });
  const pending = runtime.pending();
  const pendingKey = JSON.stringify(pending);
  if (pendingKey !== run.lastPending) {
    run.lastPending = pendingKey;
    yield { type: "tool.pending", pending };
  }
  run.transcript.push({ role: "user", content });
  if (submitted) {
    const proposal = proposalFrom(submitted, submitState);
    yield { type: "proposal", orders: proposal.orders, summary: proposal.summary, decisions: proposal.decisions, abandoned: proposal.abandoned };
    return proposal.orders.length === 0
      ? { outcome: "hold", reason: `submit_orders with no orders on turn ${turn}: hold`, proposal }
      : { outcome: "submitted", reason: `submit_orders with ${proposal.orders.length} order(s) on turn ${turn}`, proposal };
  }
  if (signal?.aborted) return { outcome: "interrupted", reason: `interrupted during the tool calls of turn ${turn}` };
  return repairBudgetSpent(run, turn);
}

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The run ends when the model sent a refused call again unchanged and it was refused again (src/tools/repair-budget.ts). */
function repairBudgetSpent(run: LoopRun, turn: number): Stop | null {
  const repeated = run.opts.runtime.repeatedRefusal();
  if (!repeated) return null;
  return {
    outcome: "repair_budget",
    reason: `the model repeated a refused call unchanged: ${repeated.tool} was refused ${repeated.refusals} times (the last on turn ${turn}) with the same arguments and the same error (${repeated.error_code}: ${clip(repeated.error, 300)})`,
  };
}

/** What the model answered, as the transcript keeps it and its tool calls run. */
function keptAnswer(run: LoopRun, response: ModelResponse, turn: number): ContentBlock[] {
  // The model's own text and tool arguments (keys as well as values) are kept, run and sent back
  // redacted; missing or repeated tool-use ids are repaired before anything answers them (./tool-use-ids.ts).
  const answer = uniqueToolUseIds(redactValue(response.content), run.toolUseIds, turn);
  run.transcript.push({ role: "assistant", content: answer });
  return answer;
}

/** One model turn and its tool calls: the stop that ends the run, or null to go on. */
export async function* agentTurn(run: LoopRun): AsyncGenerator<RunEventBody, Stop | null, void> {
  const { opts } = run;
  const timing = beforeCall(run);
  if ("outcome" in timing) return timing;
  run.turns += 1;
  const turn = run.turns;
  yield {
    type: "model.turn_started",
    turn,
    max_turns: opts.limits.maxTurns,
    time_left_ms: Math.round(timing.timeLeft),
    cost_usd: usd(run.costMicros),
    budget_usd: opts.limits.runBudgetUsd,
  };
  const end = yield* callModel({
    client: opts.client,
    system: opts.system,
    tools: run.tools,
    transcript: run.transcript,
    maxTokens: opts.limits.maxTokens,
    timeoutMs: timing.timeoutMs,
    turn,
    signal: opts.signal,
    now: run.now,
  });
  if (!end.outcome.ok) return failedCall(run, end.outcome.error, end.timedOut, turn, timing);
  // Tool arguments nested too deep are replaced before the transcript or an event holds them.
  const response = withShallowToolInputs(end.outcome.response);
  yield* bookUsage(run, response, turn, end.durationMs);
  const answer = keptAnswer(run, response, turn);
  const stop = afterAnswer(run, response, turn);
  if (stop) return stop;
  if (String(response.stop_reason) === "pause_turn") return null;
  const uses = answer.filter((b): b is ToolUseBlock => b.type === "tool_use");
  if (uses.length === 0)
    return { outcome: "no_submission", reason: `the model ended turn ${turn} (${String(response.stop_reason)}) without calling submit_orders` };
  return yield* answerTools(run, turn, uses);
}
