/**
 * The edge between the canonical transcript (Anthropic content blocks) and OpenAI's Chat
 * Completions format. Pure: no SDK, no I/O.
 *
 * To the wire: the system prompt becomes the first `system` message; a user message's tool_result
 * blocks become one `tool` message each (first, so they directly follow the assistant's tool_calls,
 * as the API requires) and its text blocks one `user` message; an assistant message's text becomes
 * `content` and its tool_use blocks `tool_calls` (arguments as JSON text). Blocks no OpenAI model
 * produces (thinking, server tools) are dropped. Tools become `{type: "function", function}`.
 *
 * From the wire: the streamed text and tool calls become text and tool_use blocks (arguments parsed
 * when they are JSON, else kept as the raw text so the tool runtime's parse stage answers it), the
 * finish reason a canonical stop reason, and the usage canonical usage (cached prompt tokens are
 * cache reads; input tokens exclude them, as in Anthropic's accounting).
 */
import type { Usage } from "../core/events.js";
import type { ContentBlock, Message, StopReason, ToolDefinition, ToolResultBlock, ToolUseBlock } from "./types.js";

export type OpenAIMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

interface OpenAIToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export function toOpenAITools(tools: readonly ToolDefinition[]): OpenAITool[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.input_schema } }));
}

const argumentsText = (input: unknown): string => (typeof input === "string" ? input : JSON.stringify(input ?? {}));

export function toOpenAIMessages(system: string, messages: readonly Message[]): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const m of messages) {
    const texts = m.content.filter((b) => b.type === "text").map((b) => String((b as { text: unknown }).text ?? ""));
    if (m.role === "assistant") {
      const uses = m.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
      const msg: Extract<OpenAIMessage, { role: "assistant" }> = { role: "assistant", content: texts.length > 0 ? texts.join("") : null };
      if (uses.length > 0) msg.tool_calls = uses.map((u) => ({ id: u.id, type: "function", function: { name: u.name, arguments: argumentsText(u.input) } }));
      if (msg.content !== null || msg.tool_calls) out.push(msg);
      continue;
    }
    for (const r of m.content.filter((b): b is ToolResultBlock => b.type === "tool_result")) {
      out.push({ role: "tool", tool_call_id: r.tool_use_id, content: String(r.content) });
    }
    if (texts.length > 0) out.push({ role: "user", content: texts.join("\n\n") });
  }
  return out;
}

/** A tool call as assembled from the stream's deltas. */
export interface StreamedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export function toCanonicalContent(text: string, calls: readonly StreamedToolCall[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (text) blocks.push({ type: "text", text });
  for (const c of calls) {
    let input: unknown = c.arguments;
    try {
      input = c.arguments.trim() === "" ? {} : JSON.parse(c.arguments);
    } catch {
      // left as the raw text: the tool runtime refuses it with a parse correction
    }
    blocks.push({ type: "tool_use", id: c.id, name: c.name, input });
  }
  return blocks;
}

export function toCanonicalStop(finishReason: string | null | undefined, hasToolCalls: boolean, refused: boolean): StopReason | string {
  if (refused) return "refusal";
  switch (finishReason) {
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    default:
      // Some compatible servers answer tool calls with "stop": the calls decide.
      return hasToolCalls ? "tool_use" : "end_turn";
  }
}

export interface OpenAIUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  /** DeepSeek's names for the cached part of the prompt. */
  prompt_cache_hit_tokens?: number | null;
}

export function toCanonicalUsage(u: OpenAIUsage): Usage {
  const prompt = u.prompt_tokens ?? 0;
  const cached = Math.min(prompt, u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0);
  return { input_tokens: prompt - cached, output_tokens: u.completion_tokens ?? 0, cache_creation_input_tokens: 0, cache_read_input_tokens: cached };
}

/**
 * When a server streams no usage at all, tokens are estimated high (one per three characters) so a
 * budget still binds; never zero.
 */
export function estimatedUsage(requestChars: number, responseChars: number): Usage {
  return { input_tokens: Math.ceil(requestChars / 3), output_tokens: Math.ceil(responseChars / 3), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}
