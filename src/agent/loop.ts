/**
 * The agent loop: an async generator of run events over a `ModelClient` and the tool runtime.
 *
 * Stops (every one except a successful submit_orders means no trades), each with its reason:
 * - `submitted` / `hold`: submit_orders succeeded (an empty list is a hold);
 * - `no_submission`: the model ended its turn without submitting;
 * - `turn_limit`: `maxTurns` model calls made without a submit;
 * - `time_limit`: the wall clock (`maxSeconds`), checked before each call; each call's timeout is
 *   max(minCallTimeout 5 s, min(request timeout, time left)) and the loop aborts the call at it;
 * - `cost_budget`: the run's LLM cost is strictly above `runBudgetUsd`, checked after each call;
 * - `monthly_budget`: nothing left of the month's LLM spend cap (checked before the first call) or
 *   this run's cost went above what was left of it;
 * - `refusal`, `max_tokens`, `context_window` (stop reasons); `model_error`: the call failed after
 *   the client's retries (or timed out); `interrupted`: the run's AbortSignal fired.
 * `pause_turn` sends the assistant turn back as is and continues (it counts as a turn).
 *
 * Every tool_use block of a turn is dispatched (read and dry-run tools before the final tool); one
 * user message then carries all the tool_result blocks, one per tool_use, in the order of the
 * tool_use blocks, with `is_error` on failures. The loop never trusts the model's words about order
 * state: the proposal comes from the validated arguments of a successful submit_orders.
 */
import { withShallowToolInputs } from "./deep-input.js";
import type { AgentOutcome, RunEventBody } from "../core/events.js";
import { redactValue } from "../core/redact.js";
import { StreamRedactor } from "../core/redact-stream.js";
import { CassetteError } from "./cassette.js";
import type { AgentProposal, AgentResult, RunAgentOptions, UsageRecord } from "./loop-types.js";
import { microsToUsd, usdToMicros } from "../core/money.js";
import { costMicrosOf } from "./pricing.js";
import { uniqueToolUseIds } from "./tool-use-ids.js";
import { dispatchTurn, proposalFrom } from "./turn-tools.js";
import type { CallHooks, Message, ModelResponse, ToolUseBlock } from "./types.js";

export type {
  AgentDispatchOutcome,
  AgentLimits,
  AgentProposal,
  AgentResult,
  AgentToolRuntime,
  RunAgentOptions,
  UsageRecord,
} from "./loop-types.js";
export { sha256 } from "./turn-tools.js";

/** Whole micro-dollars → USD for events and messages (exact: 6 decimals at most). */
const usd = microsToUsd;

type CallSettled = { ok: true; response: ModelResponse } | { ok: false; error: unknown };

export async function* runAgent(opts: RunAgentOptions): AsyncGenerator<RunEventBody, AgentResult, void> {
  const { client, runtime, limits } = opts;
  const now = opts.now ?? (() => performance.now());
  const start = now();
  const maxMs = limits.maxSeconds * 1000;
  const minCallMs = limits.minCallTimeoutMs ?? 5000;
  const finalTools = new Set(runtime.contracts.filter((c) => c.kind === "final").map((c) => c.name));
  const dryRunTools = new Set(runtime.contracts.filter((c) => c.kind === "dry_run").map((c) => c.name));
  const tools = runtime.anthropicTools();
  const transcript: Message[] = [{ role: "user", content: [{ type: "text", text: opts.task }] }];
  const usage: UsageRecord[] = [];
  /** The run's LLM spend so far, in whole micro-dollars (exact). */
  let costMicros = 0;
  const runBudgetMicros = usdToMicros(limits.runBudgetUsd);
  const monthLeftMicros = usdToMicros(limits.monthlyBudgetLeftUsd);
  let turns = 0;
  let lastPending = "[]";
  /** Every tool_use id of the transcript so far: each answer's ids are made unique against them. */
  const toolUseIds = new Set<string>();

  const finish = (outcome: AgentOutcome, reason: string, proposal?: AgentProposal): { event: RunEventBody; result: AgentResult } => {
    const result: AgentResult = { outcome, reason, transcript, usage, cost_usd: usd(costMicros), turns };
    if (proposal) result.proposal = proposal;
    return { event: { type: "agent.finished", outcome, reason, turns, cost_usd: usd(costMicros) }, result };
  };

  if (limits.monthlyBudgetLeftUsd <= 0) {
    const f = finish("monthly_budget", `the month's LLM spend cap is used up (${usd(monthLeftMicros)} USD left); the model was not called`);
    yield f.event;
    return f.result;
  }

  for (;;) {
    if (opts.signal?.aborted) {
      const f = finish("interrupted", "interrupted before the next model call");
      yield f.event;
      return f.result;
    }
    if (turns >= limits.maxTurns) {
      const f = finish("turn_limit", `turn limit reached (${limits.maxTurns} model turns) without submit_orders`);
      yield f.event;
      return f.result;
    }
    const timeLeft = maxMs - (now() - start);
    if (timeLeft <= 0) {
      const f = finish("time_limit", `wall-clock limit reached (${limits.maxSeconds} s) before model turn ${turns + 1}`);
      yield f.event;
      return f.result;
    }
    const timeoutMs = Math.max(minCallMs, Math.min(limits.requestTimeoutS * 1000, timeLeft));
    const cappedByClock = timeLeft <= limits.requestTimeoutS * 1000;
    turns += 1;
    const turn = turns;
    yield {
      type: "model.turn_started",
      turn,
      max_turns: limits.maxTurns,
      time_left_ms: Math.round(timeLeft),
      cost_usd: usd(costMicros),
      budget_usd: limits.runBudgetUsd,
    };

    // One call, with its live text and retry notices turned into events as they happen.
    const queue: RunEventBody[] = [];
    let wake: (() => void) | undefined;
    const push = (e: RunEventBody) => {
      queue.push(e);
      wake?.();
    };
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
    // The live text is redacted whole, not piece by piece: a tail that could begin a key waits for the next piece.
    const live = new StreamRedactor();
    const text = (delta: string) => {
      if (delta) push({ type: "model.text", turn, delta });
    };
    const hooks: CallHooks = {
      onText: (delta) => text(live.push(delta)),
      onRetry: (attempt, message) => {
        text(live.flush());
        push({ type: "model.retry", turn, attempt, message });
      },
    };
    const t0 = now();
    let settled: CallSettled | undefined;
    // What leaves for the model passes the redactor too (the transcript is redacted where it grows; this is the last door).
    const call = client
      .complete({ system: opts.system, tools, messages: redactValue(transcript.slice()), maxTokens: limits.maxTokens, timeoutMs, signal }, hooks)
      .then(
        (response): CallSettled => ({ ok: true, response }),
        (error: unknown): CallSettled => ({ ok: false, error }),
      );
    void call.then((s) => {
      settled = s;
      wake?.();
    });
    // A call that ignores its signal must not hold the loop past its deadline.
    const onAbort = () => {
      if (!settled) {
        settled = { ok: false, error: new Error("aborted") };
        wake?.();
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    while (!settled || queue.length > 0) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    const rest = live.flush();
    if (rest) yield { type: "model.text", turn, delta: rest };
    const durationMs = now() - t0;
    const outcome = settled;

    if (!outcome.ok) {
      if (outcome.error instanceof CassetteError) throw outcome.error;
      if (opts.signal?.aborted) {
        const f = finish("interrupted", `interrupted during model turn ${turn}`);
        yield f.event;
        return f.result;
      }
      if (timedOut) {
        const f = cappedByClock
          ? finish("time_limit", `wall-clock limit reached (${limits.maxSeconds} s) during model turn ${turn}`)
          : finish("model_error", `model turn ${turn} timed out after ${Math.round(timeoutMs / 1000)} s`);
        yield f.event;
        return f.result;
      }
      const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      const f = finish("model_error", `model call failed on turn ${turn}: ${message}`);
      yield f.event;
      return f.result;
    }

    // Tool arguments nested too deep are replaced before the transcript or an event holds them.
    const response = withShallowToolInputs(outcome.response);
    const callMicros = costMicrosOf(response.usage, opts.price);
    costMicros += callMicros;
    const record: UsageRecord = {
      turn,
      model: response.model,
      stop_reason: String(response.stop_reason),
      usage: response.usage,
      cost_usd: usd(callMicros),
      duration_ms: Math.round(durationMs),
    };
    usage.push(record);
    await opts.onUsage?.(record);
    yield {
      type: "model.response",
      turn,
      stop_reason: String(response.stop_reason),
      usage: response.usage,
      cost_usd: usd(callMicros),
      total_cost_usd: usd(costMicros),
      duration_ms: Math.round(durationMs),
    };
    // The model's own text and tool arguments (keys as well as values) are kept, run and sent back
    // redacted; missing or repeated tool-use ids are repaired before anything answers them (./tool-use-ids.ts).
    const answer = uniqueToolUseIds(redactValue(response.content), toolUseIds, turn);
    transcript.push({ role: "assistant", content: answer });

    if (costMicros > runBudgetMicros) {
      const f = finish("cost_budget", `run cost ${usd(costMicros)} USD is above the run budget of ${limits.runBudgetUsd} USD (after turn ${turn})`);
      yield f.event;
      return f.result;
    }
    if (costMicros > monthLeftMicros) {
      const f = finish(
        "monthly_budget",
        `run cost ${usd(costMicros)} USD is above what was left of the month's LLM spend cap (${usd(monthLeftMicros)} USD)`,
      );
      yield f.event;
      return f.result;
    }

    const stop = String(response.stop_reason);
    if (stop === "refusal") {
      const f = finish("refusal", `the model refused on turn ${turn}`);
      yield f.event;
      return f.result;
    }
    if (stop === "max_tokens") {
      const f = finish("max_tokens", `the response hit max_tokens (${limits.maxTokens}) on turn ${turn}; its tool calls were not run`);
      yield f.event;
      return f.result;
    }
    if (stop === "model_context_window_exceeded") {
      const f = finish("context_window", `the conversation exceeded the model's context window on turn ${turn}`);
      yield f.event;
      return f.result;
    }
    if (stop === "pause_turn") continue;

    const uses = answer.filter((b): b is ToolUseBlock => b.type === "tool_use");
    if (uses.length === 0) {
      const f = finish("no_submission", `the model ended turn ${turn} (${stop}) without calling submit_orders`);
      yield f.event;
      return f.result;
    }

    // Reads and dry runs first, then the final tool (./turn-tools.ts); results keep the order of the tool_use blocks.
    const { content, submitted } = yield* dispatchTurn({
      runtime,
      turn,
      uses,
      finalTools,
      dryRunTools,
      signal: opts.signal,
      submitState: opts.submitState,
    });

    const pending = runtime.pending();
    const pendingKey = JSON.stringify(pending);
    if (pendingKey !== lastPending) {
      lastPending = pendingKey;
      yield { type: "tool.pending", pending };
    }
    transcript.push({ role: "user", content });

    if (submitted) {
      const proposal = proposalFrom(submitted, opts.submitState);
      yield { type: "proposal", orders: proposal.orders, summary: proposal.summary, decisions: proposal.decisions, abandoned: proposal.abandoned };
      const f =
        proposal.orders.length === 0
          ? finish("hold", `submit_orders with no orders on turn ${turn}: hold`, proposal)
          : finish("submitted", `submit_orders with ${proposal.orders.length} order(s) on turn ${turn}`, proposal);
      yield f.event;
      return f.result;
    }
    if (opts.signal?.aborted) {
      const f = finish("interrupted", `interrupted during the tool calls of turn ${turn}`);
      yield f.event;
      return f.result;
    }
  }
}
