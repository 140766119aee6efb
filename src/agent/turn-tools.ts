/**
 * One turn's tool calls: every tool_use block is dispatched (reads and dry runs before the final
 * tool), each yields its `tool.called` and `tool.result` / `tool.rejected` event (plus
 * `gate.dry_run` / `submit.bounced`), and the tool_result blocks come back in the order of the
 * tool_use blocks, with `is_error` on failures. Also: the proposal taken from a successful
 * submit_orders, and the hash of a tool result the events carry (its one-line summary comes with the
 * dispatch outcome, from the tool's definition).
 */
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { OrderIntentSchema } from "../core/order-intent.js";
import type { Correction, RunEventBody } from "../core/events.js";
import { createHash } from "node:crypto";
import { redact } from "../core/redact.js";
import { redact as redactCredentials } from "./cassette-format.js";
import type { AgentDispatchOutcome, AgentProposal, AgentToolRuntime } from "./loop-types.js";
import type { SubmitState } from "./submit.js";
import type { ContentBlock, ToolResultBlock, ToolUseBlock } from "./types.js";

const ORDER_BATCH = Type.Array(OrderIntentSchema);

/** Dispatch stages at which the call was refused before its handler ran. */
const REJECTED_STAGES = new Set(["unknown_tool", "parse", "validation", "unmask", "grounding", "pending", "limit"]);

export interface TurnTools {
  runtime: AgentToolRuntime;
  turn: number;
  /** The turn's tool_use blocks, in the model's order. */
  uses: ToolUseBlock[];
  finalTools: ReadonlySet<string>;
  dryRunTools: ReadonlySet<string>;
  signal?: AbortSignal | undefined;
  submitState?: SubmitState | undefined;
}

export interface TurnToolsResult {
  /** One tool_result block per tool_use block, in the order of the tool_use blocks. */
  content: ContentBlock[];
  /** The first successful call of a final tool, if any. */
  submitted?: AgentDispatchOutcome;
}

/** Runs a turn's tool calls, yielding their events; returns the tool_result blocks and the submit, if any. */
export async function* dispatchTurn(t: TurnTools): AsyncGenerator<RunEventBody, TurnToolsResult, void> {
  const { turn, uses } = t;
  // Reads and dry runs first, then the final tool; results keep the order of the tool_use blocks.
  // (By place, not by id: one result per tool_use block whatever its id.)
  const places = uses.map((use, at) => ({ use, at }));
  const ordered = [...places.filter((p) => !t.finalTools.has(p.use.name)), ...places.filter((p) => t.finalTools.has(p.use.name))];
  const results: ToolResultBlock[] = [];
  let submitted: AgentDispatchOutcome | undefined;
  for (const { use, at } of ordered) {
    yield { type: "tool.called", turn, call_id: use.id, tool: use.name, arguments: use.input };
    let out: AgentDispatchOutcome;
    try {
      out = await t.runtime.dispatch(use.name, use.input, t.signal ? { signal: t.signal } : {});
    } catch (e) {
      out = failedOutcome(use, e);
    }
    // A result may echo a key (a search provider's error, a page that quotes one): it is redacted
    // once, here, so the model, the transcript, the cassette and the event's hash all see the same text.
    out = { ...out, text: redactCredentials(redact(out.text)) };
    const block: ToolResultBlock = { type: "tool_result", tool_use_id: use.id, content: out.text };
    if (!out.success) block.is_error = true;
    results[at] = block;

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
        summary: out.summary,
        truncated: out.truncated,
        duration_ms: Math.round(out.durationMs * 1000) / 1000,
        result_sha256: sha256(out.text),
      };
      if (out.errorCode) ev.error_code = out.errorCode;
      yield ev;
    }
    // The gate's typed decisions (each naming its input order by index) come with the outcome; the
    // model-facing result is never parsed back.
    if (out.success && t.dryRunTools.has(use.name)) {
      yield { type: "gate.dry_run", turn, call_id: use.id, decisions: out.verdicts ?? [] };
    }
    if (out.errorCode === "orders_blocked") {
      yield { type: "submit.bounced", turn, decisions: out.verdicts ?? t.submitState?.lastDecisions ?? [] };
    }
    if (out.success && t.finalTools.has(use.name) && !submitted) submitted = out;
  }

  const content: ContentBlock[] = uses.map((_, at) => results[at] as ToolResultBlock);
  return submitted ? { content, submitted } : { content };
}

/** The proposal of a successful submit: the submit handler's accepted state when there is one, else the call's arguments. */
export function proposalFrom(out: AgentDispatchOutcome, state: SubmitState | undefined): AgentProposal {
  if (state?.accepted) {
    const a = state.accepted;
    const p: AgentProposal = { orders: a.orders, summary: a.summary, abandoned: a.abandoned, decisions: a.decisions };
    if (a.abandon_explanation !== undefined) p.abandon_explanation = a.abandon_explanation;
    return p;
  }
  // The call's arguments passed the contract before the handler ran; checked again against the one
  // order intent schema here, so the orders are typed without a cast.
  const args: Record<string, unknown> = typeof out.arguments === "object" && out.arguments !== null ? { ...out.arguments } : {};
  const codes = args.abandon_error_codes;
  const p: AgentProposal = {
    orders: Value.Check(ORDER_BATCH, args.orders) ? args.orders : [],
    summary: String(args.summary ?? ""),
    abandoned: Array.isArray(codes) ? codes.map(String) : [],
    decisions: out.verdicts ?? [],
  };
  if (typeof args.abandon_explanation === "string") p.abandon_explanation = args.abandon_explanation;
  return p;
}

function failedOutcome(use: ToolUseBlock, e: unknown): AgentDispatchOutcome {
  const error = `the tool failed while running: ${(e as Error)?.message ?? String(e)}`;
  const envelope = {
    success: false,
    error,
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
    summary: `tool_execution_failed: ${error.slice(0, 200)}`,
  };
}

/** The hex SHA-256 of a tool result's text, as the events record it. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
