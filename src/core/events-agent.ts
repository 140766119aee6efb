/**
 * The agent's part of the run's event stream: model turns, tool calls and their results, research
 * and masking, dry runs and the agent's finish. Schemas; the union and its types are in ./events.ts.
 */
import { Type } from "@sinclair/typebox";
import { GateDecisionSchema } from "./gate-types.js";
import type { MaskInstrument, SearchLogEntry } from "./research.js";
import { AgentOutcomeSchema, CorrectionSchema, eventOf, PendingErrorSchema, UsageSchema } from "./events-parts.js";

/** Research shapes are typed in core/research.ts: the event schema names their types and leaves their shape to it. */
const SearchLogEntrySchema = Type.Unsafe<SearchLogEntry>({ type: "object", description: "A search's log entry (core/research.ts)." });
const MaskInstrumentSchema = Type.Unsafe<MaskInstrument>({ type: "object", description: "An instrument as masking knows it (core/research.ts)." });

const resultSha256 = (description: string) => Type.Optional(Type.String({ description }));

export const AGENT_EVENT_SCHEMAS = [
  eventOf("model.turn_started", {
    turn: Type.Number(),
    max_turns: Type.Number(),
    time_left_ms: Type.Number(),
    cost_usd: Type.Number(),
    budget_usd: Type.Number(),
  }),
  eventOf("model.text", { turn: Type.Number(), delta: Type.String() }),
  eventOf("model.response", {
    turn: Type.Number(),
    stop_reason: Type.String(),
    usage: UsageSchema,
    cost_usd: Type.Number(),
    total_cost_usd: Type.Number(),
    duration_ms: Type.Number(),
  }),
  eventOf("model.retry", { turn: Type.Number(), attempt: Type.Number(), message: Type.String() }),
  eventOf("tool.called", { turn: Type.Number(), call_id: Type.String(), tool: Type.String(), arguments: Type.Unknown() }),
  eventOf("tool.rejected", {
    turn: Type.Number(),
    call_id: Type.String(),
    tool: Type.String(),
    error_code: Type.String(),
    error: Type.String(),
    retryable: Type.Boolean(),
    correction: Type.Optional(CorrectionSchema),
    /** SHA-256 of the exact tool result text the model was given. */
    result_sha256: resultSha256("SHA-256 of the exact tool result text the model was given."),
  }),
  eventOf("tool.result", {
    turn: Type.Number(),
    call_id: Type.String(),
    tool: Type.String(),
    success: Type.Boolean(),
    error_code: Type.Optional(Type.String()),
    summary: Type.String(),
    truncated: Type.Boolean(),
    duration_ms: Type.Number(),
    /** SHA-256 of the exact tool result text the model was given (audit ties events, transcript and cassette together). */
    result_sha256: resultSha256("SHA-256 of the exact tool result text the model was given (ties events, transcript and cassette)."),
  }),
  eventOf("tool.pending", { pending: Type.Array(PendingErrorSchema) }),
  Type.Intersect([eventOf("research.search", {}), SearchLogEntrySchema]),
  eventOf("mask.enabled", { data_set: Type.String(), date_offset_days: Type.Number(), instruments: Type.Array(MaskInstrumentSchema) }),
  eventOf("mask.leak", {
    turn: Type.Number(),
    kind: Type.Union([Type.Literal("symbol"), Type.Literal("name"), Type.Literal("date"), Type.Literal("term")]),
    found: Type.String(),
    where: Type.String(),
  }),
  eventOf("gate.dry_run", { turn: Type.Number(), call_id: Type.String(), decisions: Type.Array(GateDecisionSchema) }),
  eventOf("submit.bounced", { turn: Type.Number(), decisions: Type.Array(GateDecisionSchema) }),
  eventOf("agent.finished", { outcome: AgentOutcomeSchema, reason: Type.String(), turns: Type.Number(), cost_usd: Type.Number() }),
] as const;
