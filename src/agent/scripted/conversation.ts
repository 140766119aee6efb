/**
 * The scripted model reads only the conversation: its past tool calls, each paired with the parsed
 * JSON of its tool_result. No hidden state, so a replayed conversation gives the same answers.
 */
import type { NewsStep } from "../scripted-news.js";
import type { Message, ToolUseBlock } from "../types.js";

/** A past tool call and what came back. */
export type Step = NewsStep;

function parseJson(text: unknown): Record<string, unknown> {
  if (typeof text !== "string") return {};
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Parsed tool results by block: a conversation only grows, so each call would otherwise parse every
 * earlier result again. Memoised by identity (blocks are never mutated), so answers are unchanged.
 */
const parsedResults = new WeakMap<object, { ok: boolean; result: Record<string, unknown> }>();

function parsedResult(block: { tool_use_id: string; content: unknown; is_error?: boolean }): { ok: boolean; result: Record<string, unknown> } {
  let hit = parsedResults.get(block);
  if (!hit) {
    const result = parseJson(block.content);
    hit = { ok: block.is_error !== true && result.success === true, result };
    parsedResults.set(block, hit);
  }
  return hit;
}

/** The tool calls of the conversation so far, each with its parsed result. */
export function stepsOf(messages: readonly Message[]): Step[] {
  const results = new Map<string, { ok: boolean; result: Record<string, unknown> }>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const b of m.content) {
      if (b.type === "tool_result") {
        const r = b as { tool_use_id: string; content: unknown; is_error?: boolean };
        results.set(r.tool_use_id, parsedResult(r));
      }
    }
  }
  const steps: Step[] = [];
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const b of m.content) {
      if (b.type !== "tool_use") continue;
      const u = b as ToolUseBlock;
      const r = results.get(u.id);
      if (!r) continue;
      steps.push({ name: u.name, input: (u.input ?? {}) as Record<string, unknown>, ok: r.ok, result: r.result });
    }
  }
  return steps;
}

/** The latest call of the tool (optionally only a successful or only a failed one). */
export const last = (steps: Step[], name: string, ok?: boolean) => {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (s && s.name === name && (ok === undefined || s.ok === ok)) return s;
  }
  return undefined;
};

const jsonLengths = new WeakMap<object, number>();

/** `JSON.stringify(value).length`, memoised per object (tool lists and messages are never mutated). */
function jsonLength(value: unknown): number {
  if (value === null || typeof value !== "object") return JSON.stringify(value)?.length ?? 0;
  let n = jsonLengths.get(value);
  if (n === undefined) {
    n = JSON.stringify(value).length;
    jsonLengths.set(value, n);
  }
  return n;
}

/** The characters a request sends: system text, tool list and messages as JSON (the token estimate's input). */
export function requestChars(req: { system: string; tools?: unknown; messages: readonly Message[] }): number {
  // JSON.stringify(messages).length, message by message: brackets, commas and each message's JSON.
  const messages = req.messages.length === 0 ? 2 : 1 + req.messages.reduce((n, m) => n + jsonLength(m) + 1, 0);
  return req.system.length + (req.tools === undefined ? 0 : jsonLength(req.tools)) + messages;
}
