/**
 * The shapes of a cassette's lines, each a TypeBox schema with its type `Static<>` of it, and the
 * checks the parser narrows a line's JSON with (a line that does not fit is a problem, never cast).
 * The recorded response is a `ModelResponse` (src/agent/types.ts), checked by `isModelResponse`.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Usage } from "../core/events.js";
import { type ContentBlock, MODEL_CALL_ERROR_KINDS, type ModelResponse } from "./types.js";
import type { DeltaRequest } from "./cassette-delta.js";

const CassetteMetaSchema = Type.Object({
  type: Type.Literal("meta"),
  /** Absent in a file that predates the format number (read as format 1). */
  format: Type.Optional(Type.Number()),
  contract_version: Type.String(),
  /** The names of the tools the run offered (src/tools/subsets.ts); absent: every tool of its contract version. */
  tools: Type.Optional(Type.Array(Type.String())),
  model: Type.String(),
  created_at: Type.String(),
});
export type CassetteMeta = Static<typeof CassetteMetaSchema>;

/**
 * A request as its key is computed: system, tools, messages and max_tokens, canonical and redacted.
 * A request that offered no tools has no `tools` (and its call line no `tools_ref`).
 */
const CanonicalRequestSchema = Type.Object({
  system: Type.String(),
  tools: Type.Optional(Type.Array(Type.Unknown())),
  messages: Type.Array(Type.Unknown()),
  max_tokens: Type.Number(),
});
export type CanonicalRequest = Static<typeof CanonicalRequestSchema>;

/** A request as a format 2 call line stores it: its tools by reference (absent when it had none). */
const StoredRequestSchema = Type.Composite([Type.Omit(CanonicalRequestSchema, ["tools"]), Type.Object({ tools_ref: Type.Optional(Type.String()) })]);
export type StoredRequest = Static<typeof StoredRequestSchema>;

/** Format 2: a tool list, written once before the first call that offers it. */
const ToolsLineSchema = Type.Object({
  type: Type.Literal("tools"),
  id: Type.String(),
  tools: Type.Array(Type.Unknown()),
});
export type ToolsLine = Static<typeof ToolsLineSchema>;

/** A recorded failure: how the call failed (ModelCallError's kind), its message and HTTP status. */
const CallErrorSchema = Type.Object({
  kind: Type.Union(MODEL_CALL_ERROR_KINDS.map((kind) => Type.Literal(kind))),
  message: Type.String(),
  status: Type.Optional(Type.Number()),
});

/** A call line's own fields: everything but the request (checked as stored) and the response. */
const CallHeadSchema = Type.Object({
  type: Type.Literal("call"),
  index: Type.Number(),
  key: Type.String(),
  error: Type.Optional(CallErrorSchema),
});

export interface CallLine extends Static<typeof CallHeadSchema> {
  /** Formats 1 and 2: the request (format 1 with its tools inline); format 3: its delta (./cassette-delta.ts). */
  request: StoredRequest | DeltaRequest;
  response?: ModelResponse;
}

export const isCassetteMeta = (v: unknown): v is CassetteMeta => Value.Check(CassetteMetaSchema, v);
export const isCanonicalRequest = (v: unknown): v is CanonicalRequest => Value.Check(CanonicalRequestSchema, v);
export const isStoredRequest = (v: unknown): v is StoredRequest => Value.Check(StoredRequestSchema, v);
export const isCallHead = (v: unknown): v is Static<typeof CallHeadSchema> => Value.Check(CallHeadSchema, v);

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number";

/** A content block: any object with a `type`; the three the loop reads carry their fields. */
function isContentBlock(v: unknown): v is ContentBlock {
  if (!isRecord(v) || typeof v.type !== "string") return false;
  if (v.type === "text") return typeof v.text === "string";
  if (v.type === "tool_use") return typeof v.id === "string" && typeof v.name === "string";
  if (v.type === "tool_result")
    return typeof v.tool_use_id === "string" && typeof v.content === "string" && (v.is_error === undefined || typeof v.is_error === "boolean");
  return true;
}

function isUsage(v: unknown): v is Usage {
  if (!isRecord(v)) return false;
  const required = [v.input_tokens, v.output_tokens, v.cache_creation_input_tokens, v.cache_read_input_tokens];
  const optional = [v.cache_creation_5m_input_tokens, v.cache_creation_1h_input_tokens];
  return required.every(isCount) && optional.every((n) => n === undefined || isCount(n));
}

/** A recorded answer: its content blocks, stop reason, usage and the model that answered. */
export function isModelResponse(v: unknown): v is ModelResponse {
  return (
    isRecord(v) &&
    Array.isArray(v.content) &&
    v.content.every(isContentBlock) &&
    typeof v.stop_reason === "string" &&
    isUsage(v.usage) &&
    typeof v.model === "string"
  );
}
