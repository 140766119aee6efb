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
import type { ProposedOrder } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";
import type { AgentOutcome, Correction, PendingError, RunEventBody, Usage } from "../core/events.js";
import { createHash } from "node:crypto";
import { CassetteError } from "./cassette.js";
import { costOf, type ModelPrice } from "./pricing.js";
import { summarizeNewTool } from "./tool-summaries.js";
import { normalizeDecisions, type SubmitState } from "./submit.js";
import type { CallHooks, ContentBlock, Message, ModelClient, ModelResponse, ToolResultBlock, ToolUseBlock } from "./types.js";

/** What the loop needs of the tool runtime (`src/tools/runtime.ts` provides it). */
export interface AgentToolRuntime {
  readonly contracts: ReadonlyArray<{ name: string; kind: string; callLimit: number | null }>;
  anthropicTools(): { name: string; description: string; input_schema: object }[];
  dispatch(name: string, rawArgs: unknown, opts?: { signal?: AbortSignal }): Promise<AgentDispatchOutcome>;
  pending(): PendingError[];
}

export interface AgentDispatchOutcome {
  tool: string;
  arguments: unknown;
  stage: string;
  success: boolean;
  envelope: Record<string, unknown>;
  text: string;
  errorCode?: string;
  retryable?: boolean;
  truncated: boolean;
  durationMs: number;
}

export interface AgentLimits {
  maxTurns: number;
  maxSeconds: number;
  runBudgetUsd: number;
  /** What is left of this month's LLM spend cap (cap minus spent), USD. */
  monthlyBudgetLeftUsd: number;
  maxTokens: number;
  /** Per-call timeout cap, seconds. */
  requestTimeoutS: number;
  /** Floor of a call's timeout, ms (default 5000). */
  minCallTimeoutMs?: number;
}

export interface RunAgentOptions {
  client: ModelClient;
  runtime: AgentToolRuntime;
  system: string;
  /** The first user message (carries the trading day). */
  task: string;
  limits: AgentLimits;
  price: ModelPrice;
  signal?: AbortSignal;
  /** Clock for the wall-clock limit (ms); defaults to performance.now(). */
  now?: () => number;
  /** The submit handler's state (`makeSubmitHandler(...).state`), for exact verdicts in events. */
  submitState?: SubmitState;
  /**
   * Called after every model call, before anything else happens: the run journals the call's spend
   * here, so an interrupt or crash later in the loop never loses what was already spent.
   */
  onUsage?: (record: UsageRecord) => Promise<void>;
}

export interface UsageRecord {
  turn: number;
  model: string;
  stop_reason: string;
  usage: Usage;
  cost_usd: number;
  duration_ms: number;
}

export interface AgentProposal {
  orders: ProposedOrder[];
  summary: string;
  abandoned: string[];
  abandon_explanation?: string;
  decisions: GateDecision[];
}

export interface AgentResult {
  outcome: AgentOutcome;
  reason: string;
  proposal?: AgentProposal;
  transcript: Message[];
  usage: UsageRecord[];
  cost_usd: number;
  turns: number;
}

/** Dispatch stages at which the call was refused before its handler ran. */
const REJECTED_STAGES = new Set(["unknown_tool", "parse", "validation", "unmask", "grounding", "pending", "limit"]);

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

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
  let cost = 0;
  let turns = 0;
  let lastPending = "[]";

  const finish = (outcome: AgentOutcome, reason: string, proposal?: AgentProposal): { event: RunEventBody; result: AgentResult } => {
    const result: AgentResult = { outcome, reason, transcript, usage, cost_usd: round6(cost), turns };
    if (proposal) result.proposal = proposal;
    return { event: { type: "agent.finished", outcome, reason, turns, cost_usd: round6(cost) }, result };
  };

  if (limits.monthlyBudgetLeftUsd <= 0) {
    const f = finish("monthly_budget", `the month's LLM spend cap is used up (${round6(limits.monthlyBudgetLeftUsd)} USD left); the model was not called`);
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
      cost_usd: round6(cost),
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
    const hooks: CallHooks = {
      onText: (delta) => push({ type: "model.text", turn, delta }),
      onRetry: (attempt, message) => push({ type: "model.retry", turn, attempt, message }),
    };
    const t0 = now();
    let settled: CallSettled | undefined;
    const call = client
      .complete({ system: opts.system, tools, messages: transcript.slice(), maxTokens: limits.maxTokens, timeoutMs, signal }, hooks)
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

    const response = outcome.response;
    const callCost = costOf(response.usage, opts.price);
    cost += callCost;
    const record: UsageRecord = {
      turn,
      model: response.model,
      stop_reason: String(response.stop_reason),
      usage: response.usage,
      cost_usd: round6(callCost),
      duration_ms: Math.round(durationMs),
    };
    usage.push(record);
    await opts.onUsage?.(record);
    yield {
      type: "model.response",
      turn,
      stop_reason: String(response.stop_reason),
      usage: response.usage,
      cost_usd: round6(callCost),
      total_cost_usd: round6(cost),
      duration_ms: Math.round(durationMs),
    };
    transcript.push({ role: "assistant", content: response.content });

    if (cost > limits.runBudgetUsd) {
      const f = finish("cost_budget", `run cost ${round6(cost)} USD is above the run budget of ${limits.runBudgetUsd} USD (after turn ${turn})`);
      yield f.event;
      return f.result;
    }
    if (cost > limits.monthlyBudgetLeftUsd) {
      const f = finish(
        "monthly_budget",
        `run cost ${round6(cost)} USD is above what was left of the month's LLM spend cap (${round6(limits.monthlyBudgetLeftUsd)} USD)`,
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

    const uses = response.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    if (uses.length === 0) {
      const f = finish("no_submission", `the model ended turn ${turn} (${stop}) without calling submit_orders`);
      yield f.event;
      return f.result;
    }

    // Reads and dry runs first, then the final tool; results keep the order of the tool_use blocks.
    const ordered = [...uses.filter((u) => !finalTools.has(u.name)), ...uses.filter((u) => finalTools.has(u.name))];
    const results = new Map<string, ToolResultBlock>();
    let submitted: AgentDispatchOutcome | undefined;
    for (const use of ordered) {
      yield { type: "tool.called", turn, call_id: use.id, tool: use.name, arguments: use.input };
      let out: AgentDispatchOutcome;
      try {
        out = await runtime.dispatch(use.name, use.input, opts.signal ? { signal: opts.signal } : {});
      } catch (e) {
        out = failedOutcome(use, e);
      }
      const block: ToolResultBlock = { type: "tool_result", tool_use_id: use.id, content: out.text };
      if (!out.success) block.is_error = true;
      results.set(use.id, block);

      const env = out.envelope;
      if (!out.success && REJECTED_STAGES.has(out.stage)) {
        const rejected: RunEventBody = {
          type: "tool.rejected",
          turn,
          call_id: use.id,
          tool: use.name,
          error_code: out.errorCode ?? String(env.error_code ?? "unknown"),
          error: String(env.error ?? ""),
          retryable: out.retryable ?? env.retryable === true,
          result_sha256: sha256(out.text),
        };
        if (typeof env.correction === "object" && env.correction !== null) rejected.correction = env.correction as Correction;
        yield rejected;
      } else {
        const ev: RunEventBody = {
          type: "tool.result",
          turn,
          call_id: use.id,
          tool: use.name,
          success: out.success,
          summary: summarize(out),
          truncated: out.truncated,
          duration_ms: Math.round(out.durationMs * 1000) / 1000,
          result_sha256: sha256(out.text),
        };
        if (out.errorCode) ev.error_code = out.errorCode;
        yield ev;
      }
      if (out.success && dryRunTools.has(use.name)) {
        yield { type: "gate.dry_run", turn, call_id: use.id, decisions: normalizeDecisions(env.decisions) };
      }
      if (out.errorCode === "orders_blocked") {
        const correction = env.correction as Record<string, unknown> | undefined;
        const decisions = opts.submitState?.lastDecisions ?? normalizeDecisions(correction?.decisions ?? env.decisions);
        yield { type: "submit.bounced", turn, decisions };
      }
      if (out.success && finalTools.has(use.name) && !submitted) submitted = out;
    }

    const pending = runtime.pending();
    const pendingKey = JSON.stringify(pending);
    if (pendingKey !== lastPending) {
      lastPending = pendingKey;
      yield { type: "tool.pending", pending };
    }
    const content: ContentBlock[] = uses.map((u) => results.get(u.id) as ToolResultBlock);
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

function proposalFrom(out: AgentDispatchOutcome, state: SubmitState | undefined): AgentProposal {
  if (state?.accepted) {
    const a = state.accepted;
    const p: AgentProposal = { orders: a.orders, summary: a.summary, abandoned: a.abandoned, decisions: a.decisions };
    if (a.abandon_explanation !== undefined) p.abandon_explanation = a.abandon_explanation;
    return p;
  }
  const args = (typeof out.arguments === "object" && out.arguments !== null ? out.arguments : {}) as Record<string, unknown>;
  const p: AgentProposal = {
    orders: Array.isArray(args.orders) ? (args.orders as ProposedOrder[]) : [],
    summary: String(args.summary ?? ""),
    abandoned: Array.isArray(args.abandon_error_codes) ? (args.abandon_error_codes as string[]) : [],
    decisions: normalizeDecisions(out.envelope.decisions),
  };
  if (typeof args.abandon_explanation === "string") p.abandon_explanation = args.abandon_explanation;
  return p;
}

function failedOutcome(use: ToolUseBlock, e: unknown): AgentDispatchOutcome {
  const envelope = {
    success: false,
    error: `the tool failed while running: ${(e as Error)?.message ?? String(e)}`,
    error_code: "tool_execution_failed",
    retryable: false,
    correction: {
      tool: use.name,
      instruction: "Do not repeat this call; continue without its result.",
      valid_arguments_example: {},
      received_arguments: use.input,
    },
  };
  return {
    tool: use.name,
    arguments: use.input,
    stage: "handler",
    success: false,
    envelope,
    text: JSON.stringify(envelope),
    errorCode: "tool_execution_failed",
    retryable: false,
    truncated: false,
    durationMs: 0,
  };
}

/** One line for the screen about a tool result. */
export function summarize(out: AgentDispatchOutcome): string {
  const e = out.envelope;
  if (!out.success) return `${out.errorCode ?? e.error_code ?? "error"}: ${String(e.error ?? "").slice(0, 200)}`;
  switch (out.tool) {
    case "get_portfolio":
      return `value ${e.value} ${e.base_currency ?? ""}, cash ${e.cash}, ${Array.isArray(e.holdings) ? e.holdings.length : 0} holding(s), ${e.trading_state ?? "?"}, ${e.orders_left_this_month ?? "?"} orders left`;
    case "list_universe":
      return `${e.returned ?? (Array.isArray(e.instruments) ? e.instruments.length : "?")} of ${e.total ?? "?"} instruments`;
    case "get_price_history": {
      const r = (e.returns_pct ?? e.returns ?? {}) as Record<string, unknown>;
      return `${e.symbol} last close ${e.last_close} (${e.as_of}), 3m ${r["3m"] ?? "?"}%, SMA50 ${e.sma50 ?? "?"}`;
    }
    case "check_orders": {
      const d = normalizeDecisions(e.decisions);
      return `${d.length} order(s): ${d.filter((x) => x.approved).length} approved, ${d.filter((x) => !x.approved).length} blocked`;
    }
    case "search_news": {
      const removed = (e.removed ?? {}) as Record<string, unknown>;
      const n = (k: string) => (Array.isArray(e[k]) ? (e[k] as unknown[]).length : 0);
      return `${e.status ?? "?"} via ${e.provider ?? "?"}: ${n("results")} result(s), ${n("undated")} undated; removed cutoff ${removed.cutoff ?? 0}, undated ${removed.undated ?? 0}, policy ${removed.policy ?? 0}, duplicates ${removed.duplicates ?? 0}`;
    }
    case "submit_orders":
      return e.hold === true ? "hold submitted" : `proposal submitted (${e.accepted_orders ?? "?"} order(s))`;
    default: {
      const own = summarizeNewTool(out.tool, e);
      if (own) return own;
      const keys = Object.keys(e).filter((k) => k !== "success");
      return `ok (${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", …" : ""})`;
    }
  }
}

/** The hex SHA-256 of a tool result's text, as the events record it. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
