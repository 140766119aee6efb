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

/** The tool calls of the conversation so far, each with its parsed result. */
export function stepsOf(messages: readonly Message[]): Step[] {
  const results = new Map<string, { ok: boolean; result: Record<string, unknown> }>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const b of m.content) {
      if (b.type === "tool_result") {
        const r = b as { tool_use_id: string; content: unknown; is_error?: boolean };
        const result = parseJson(r.content);
        results.set(r.tool_use_id, { ok: r.is_error !== true && result.success === true, result });
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
