/**
 * Format 3 of the cassette: each call line stores its request as a delta on the previous call's
 * (the call line before it): how many of the previous request's messages open this one (`kept`;
 * a run's transcript only grows, so that is all of them), the messages after those, and the system
 * prompt only when it changed. A run of n calls no longer stores its history n times over. The
 * parser rebuilds every call's full request in order, and the key (SHA-256 of the full canonical
 * request, as in formats 1 and 2) is checked against it by replay and audit: an edit of any delta
 * changes the request it rebuilds, and every one after it.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { CanonicalRequest } from "./cassette-lines.js";

const DeltaRequestSchema = Type.Object({
  max_tokens: Type.Number(),
  /** Absent: the previous call's system prompt. */
  system: Type.Optional(Type.String()),
  /** The id of the tools line of the tools it offered; absent: it offered none. */
  tools_ref: Type.Optional(Type.String()),
  /** How many of the previous call's messages open this request's; `messages` follow them. */
  kept: Type.Integer({ minimum: 0 }),
  messages: Type.Array(Type.Unknown()),
});
export type DeltaRequest = Static<typeof DeltaRequestSchema>;

export const isDeltaRequest = (v: unknown): v is DeltaRequest => Value.Check(DeltaRequestSchema, v);

/** The same canonical message: the same object (the usual case: a transcript only grows), or the same JSON (canonical values are key-sorted). */
const sameMessage = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The delta of `request` on the previous call's request (null for the first call). */
export function deltaOf(prev: CanonicalRequest | null, request: CanonicalRequest, toolsId: string | null): DeltaRequest {
  let kept = 0;
  if (prev) {
    const n = Math.min(prev.messages.length, request.messages.length);
    while (kept < n && sameMessage(prev.messages[kept], request.messages[kept])) kept++;
  }
  const delta: DeltaRequest = { max_tokens: request.max_tokens, kept, messages: request.messages.slice(kept) };
  if (!prev || prev.system !== request.system) delta.system = request.system;
  if (toolsId !== null) delta.tools_ref = toolsId;
  return delta;
}

/** The full request (tools not resolved) a delta rebuilds on the previous call's, or a problem (subject-less). */
export function fromDelta(prev: CanonicalRequest | null, delta: DeltaRequest): Omit<CanonicalRequest, "tools"> | string {
  const system = delta.system ?? prev?.system;
  if (system === undefined) return "has no system prompt and no earlier call to take it from";
  const before = prev?.messages.length ?? 0;
  if (delta.kept > before) return `keeps ${delta.kept} message(s) of the previous call, which had ${before}`;
  const messages = delta.kept === 0 ? delta.messages : [...(prev?.messages.slice(0, delta.kept) ?? []), ...delta.messages];
  return { max_tokens: delta.max_tokens, messages, system };
}
