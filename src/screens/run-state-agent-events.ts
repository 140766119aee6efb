/** The run reducer's handlers for the model's turns and its tool calls. */
import { usd, withoutCodePrefix } from "../printers/format.js";
import { count, decimal } from "../core/format.js";
import { sanitizeLine, sanitizeText } from "../util/sanitize.js";
import { append, type EventHandler, type EventOf, note, type RunEventHandlers } from "./run-state-items.js";
import type { PendingToolCall, RunState, ToolCorrectionView } from "./run-state-types.js";
import { compactJson } from "./text.js";

const turnStarted: EventHandler<"model.turn_started"> = (s, e) => {
  const at = Date.parse(e.at);
  return {
    ...s,
    status: {
      ...s.status,
      phase: "agent",
      turn: e.turn,
      max_turns: e.max_turns,
      deadline_ms: Number.isFinite(at) ? at + e.time_left_ms : null,
      cost_usd: e.cost_usd,
      budget_usd: e.budget_usd,
      thinking: true,
      retry: null,
    },
    live: { turn: e.turn, text: "" },
  };
};

const modelResponse: EventHandler<"model.response"> = (s, e) =>
  append(
    { ...s, status: { ...s.status, thinking: false, retry: null, cost_usd: e.total_cost_usd } },
    e.seq,
    note(
      "dim",
      `turn ${e.turn}: ${sanitizeLine(e.stop_reason)} · ${count(e.usage.input_tokens + e.usage.cache_creation_input_tokens + e.usage.cache_read_input_tokens)} in (${count(e.usage.cache_read_input_tokens)} cached) / ${count(e.usage.output_tokens)} out tokens · ${usd(e.cost_usd)} · ${decimal(e.duration_ms / 1000, 1)}s`,
    ),
  );

function correctionView(c: EventOf<"tool.rejected">["correction"]): ToolCorrectionView | undefined {
  return c
    ? {
        instruction: sanitizeText(c.instruction),
        issues: (c.issues ?? []).map((i) => `${sanitizeLine(i.path || "(root)")}: ${sanitizeLine(i.message)}`),
        missing: (c.missing_fields ?? []).map(sanitizeLine),
        pending: (c.pending ?? []).map((p) => `${sanitizeLine(p.tool)} (${sanitizeLine(p.error_code)})`),
      }
    : undefined;
}

/** The state without the pending call, and that call's arguments ("" if it was never seen). */
function takePendingCall(s: RunState, callId: string): { rest: RunState; args: string } {
  const call = s.pendingTools.find((c) => c.call_id === callId);
  return { rest: { ...s, pendingTools: s.pendingTools.filter((x) => x.call_id !== callId) }, args: call?.args ?? "" };
}

const toolRejected: EventHandler<"tool.rejected"> = (s, e) => {
  const callId = sanitizeLine(e.call_id);
  const { rest, args } = takePendingCall(s, callId);
  const correction = correctionView(e.correction);
  return append(rest, e.seq, {
    kind: "tool",
    turn: e.turn,
    call_id: callId,
    tool: sanitizeLine(e.tool),
    args,
    status: "rejected",
    error_code: sanitizeLine(e.error_code),
    message: sanitizeText(withoutCodePrefix(e.error, e.error_code)),
    retryable: e.retryable,
    ...(correction ? { correction } : {}),
  });
};

const toolResult: EventHandler<"tool.result"> = (s, e) => {
  const callId = sanitizeLine(e.call_id);
  const { rest, args } = takePendingCall(s, callId);
  return append(rest, e.seq, {
    kind: "tool",
    turn: e.turn,
    call_id: callId,
    tool: sanitizeLine(e.tool),
    args,
    status: e.success ? "ok" : "failed",
    ...(e.error_code ? { error_code: sanitizeLine(e.error_code) } : {}),
    message: sanitizeText(withoutCodePrefix(e.summary, e.error_code)),
    truncated: e.truncated,
    duration_ms: e.duration_ms,
  });
};

const toolCalled: EventHandler<"tool.called"> = (s, e) => {
  const call: PendingToolCall = { call_id: sanitizeLine(e.call_id), tool: sanitizeLine(e.tool), args: sanitizeLine(compactJson(e.arguments)), turn: e.turn };
  return { ...s, pendingTools: [...s.pendingTools.filter((c) => c.call_id !== call.call_id), call] };
};

const toolPending: EventHandler<"tool.pending"> = (s, e) => {
  const pending = e.pending.map((p) => ({ tool: sanitizeLine(p.tool), error_code: sanitizeLine(p.error_code), error: sanitizeLine(p.error) }));
  return append({ ...s, pending }, e.seq, { kind: "pending", pending });
};

const agentFinished: EventHandler<"agent.finished"> = (s, e) =>
  append(
    {
      ...s,
      status: { ...s.status, thinking: false, cost_usd: Math.max(s.status.cost_usd, e.cost_usd), phase: "proposal" },
      pendingTools: [],
      agent: { outcome: e.outcome, reason: sanitizeLine(e.reason), turns: e.turns, cost_usd: e.cost_usd },
    },
    e.seq,
    note(
      e.outcome === "submitted" || e.outcome === "hold" ? "accent" : "warn",
      `agent finished: ${e.outcome} (${sanitizeLine(e.reason)}) after ${e.turns} turn(s), ${usd(e.cost_usd)}`,
    ),
  );

export const AGENT_HANDLERS = {
  "model.turn_started": turnStarted,
  "model.text": (s, e) => {
    const live = s.live && s.live.turn === e.turn ? { turn: e.turn, text: s.live.text + e.delta } : { turn: e.turn, text: e.delta };
    return { ...s, live };
  },
  "model.response": modelResponse,
  "model.retry": (s, e) => ({ ...s, status: { ...s.status, retry: `retry ${e.attempt}: ${sanitizeLine(e.message)}` } }),
  "tool.called": toolCalled,
  "tool.rejected": toolRejected,
  "tool.result": toolResult,
  "tool.pending": toolPending,
  "agent.finished": agentFinished,
} satisfies Partial<RunEventHandlers>;
