/**
 * Claude through `@anthropic-ai/sdk`, streaming: text deltas reach the screen as they are written.
 *
 * - `timeout` (per attempt) and `maxRetries` are set explicitly on every request; the SDK retries
 *   408/409/429/5xx and connection errors, honouring `retry-after`. Each retry is reported through
 *   `hooks.onRetry` (seen by wrapping the client's `fetch`, `observed-fetch.ts`).
 * - At most four prompt-cache breakpoints per request (the API's limit) — the last tool, the system
 *   prompt, the last block of the newest user message and the last block of the user message before
 *   it — placed on copies by the pure `buildMessageParams`, so the transcript never accumulates stale
 *   breakpoints. The tools and the system prompt hold nothing run-varying, so a day's first request
 *   (and a simulation's next day) reads them from the cache; each later request reads everything up to
 *   the previous request's last breakpoint, which it carries again: the API looks for a cached prefix
 *   only 20 blocks back from a breakpoint, and a turn of many parallel tool calls adds more than that.
 * - Usage keeps both cache counters and the 5m/1h split of cache writes, for exact cost.
 * - No redirect is followed (observed-fetch.ts); an answer that is no event stream (an HTML page, an
 *   empty 200) fails naming the endpoint and what came back.
 */
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, type ClientOptions } from "@anthropic-ai/sdk";
import type { ContentBlockParam, ContentBlock as SdkContentBlock, MessageParam, Tool } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { Usage } from "../core/events.js";
import { redactor } from "../core/redact.js";
import {
  type CallHooks,
  type ContentBlock,
  ModelCallError,
  type ModelClient,
  modelCallErrorFrom,
  type ModelRequest,
  type ModelResponse,
  type ToolDefinition,
} from "./types.js";
import { describeAnswer, RetryObserver } from "./observed-fetch.js";

const EPHEMERAL = { type: "ephemeral" } as const;

export interface AnthropicRequestParams {
  model: string;
  max_tokens: number;
  system: { type: "text"; text: string; cache_control?: typeof EPHEMERAL }[];
  tools: Tool[];
  messages: { role: "user" | "assistant"; content: Record<string, unknown>[] }[];
}

function stripCache(block: Record<string, unknown>): Record<string, unknown> {
  const { cache_control: _drop, ...rest } = block;
  return rest;
}

/** A tool as the Messages API takes it (every contract's input schema is an object schema). */
function toolParam(t: ToolDefinition, last: boolean): Tool {
  const schema = t.input_schema;
  if (schema.type !== "object") throw new ModelCallError("protocol", `tool ${t.name}: its input schema is not an object schema`);
  const tool: Tool = { ...stripCache({ ...t }), name: t.name, description: t.description, input_schema: { ...schema, type: "object" } };
  if (last) tool.cache_control = EPHEMERAL;
  return tool;
}

/** The indexes of the newest two user messages that have content (newest first). */
function newestUserMessages(messages: ModelRequest["messages"]): number[] {
  const out: number[] = [];
  for (let i = messages.length - 1; i >= 0 && out.length < 2; i--) {
    const m = messages[i];
    if (m && m.role === "user" && m.content.length > 0) out.push(i);
  }
  return out;
}

/**
 * The request body for one call (pure). Breakpoints: last tool, system, last block of the newest
 * user message and of the one before it (where the previous request put its own) — never more
 * than four, whatever the input carried.
 */
export function buildMessageParams(req: Pick<ModelRequest, "system" | "tools" | "messages" | "maxTokens">, model: string): AnthropicRequestParams {
  const system: AnthropicRequestParams["system"] = req.system ? [{ type: "text", text: req.system, cache_control: EPHEMERAL }] : [];
  const tools = req.tools.map((t, i) => toolParam(t, i === req.tools.length - 1));
  const marked = new Set(newestUserMessages(req.messages));
  const messages = req.messages.map((m, i) => ({
    role: m.role,
    content: m.content.map((b, j) => {
      const copy = stripCache({ ...b });
      if (marked.has(i) && j === m.content.length - 1) copy.cache_control = EPHEMERAL;
      return copy;
    }),
  }));
  return { model, max_tokens: req.maxTokens, system, tools, messages };
}

/** A canonical message as the SDK takes it (the one cast: see the comment inside). */
function sdkMessage(m: AnthropicRequestParams["messages"][number]): MessageParam {
  // Blocks the loop does not interpret (thinking, server tools) go back verbatim: no SDK param type can be proven for them.
  return { role: m.role, content: m.content as unknown as ContentBlockParam[] };
}

/** Counts the cache breakpoints of a request body (tests and the fake server use it). */
export function countBreakpoints(params: { system?: unknown; tools?: unknown; messages?: unknown }): number {
  const has = (x: unknown) => typeof x === "object" && x !== null && "cache_control" in x && (x as Record<string, unknown>).cache_control != null;
  let n = 0;
  if (Array.isArray(params.system)) n += params.system.filter(has).length;
  if (Array.isArray(params.tools)) n += params.tools.filter(has).length;
  if (Array.isArray(params.messages)) {
    for (const m of params.messages as { content?: unknown }[]) {
      if (Array.isArray(m.content)) n += m.content.filter(has).length;
    }
  }
  return n;
}

interface SdkUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
}

function usageFromSdk(u: SdkUsage | undefined | null): Usage {
  const usage: Usage = {
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
  };
  if (u?.cache_creation) {
    usage.cache_creation_5m_input_tokens = u.cache_creation.ephemeral_5m_input_tokens ?? 0;
    usage.cache_creation_1h_input_tokens = u.cache_creation.ephemeral_1h_input_tokens ?? 0;
  }
  return usage;
}

/** Response blocks in the canonical form: text and tool_use trimmed to their fields, others kept verbatim. */
function canonicalBlocks(blocks: readonly SdkContentBlock[]): ContentBlock[] {
  return blocks.map((b): ContentBlock => {
    // A hostile endpoint may leave fields out whatever the SDK's types say: each is checked.
    if (b.type === "text") return { type: "text", text: String(b.text ?? "") };
    // A missing id stays empty (not "undefined"): the loop gives it one of its own.
    if (b.type === "tool_use") return { type: "tool_use", id: typeof b.id === "string" ? b.id : "", name: String(b.name), input: b.input ?? {} };
    return { ...b, type: String(b.type) };
  });
}

export interface AnthropicClientOptions {
  model: string;
  apiKey: string;
  baseURL?: string | null;
  /** SDK retries per call (explicit; the config's `model.max_retries`). */
  maxRetries: number;
  /** Default per-attempt timeout when a request carries none, ms. */
  timeoutMs?: number;
  /** For tests: a fetch to wrap instead of the global one. */
  fetch?: typeof fetch;
}

export class AnthropicClient implements ModelClient {
  readonly model: string;
  readonly maxRetries: number;
  private readonly sdk: Anthropic;
  private readonly retries: RetryObserver;

  constructor(opts: AnthropicClientOptions) {
    this.model = opts.model;
    this.maxRetries = opts.maxRetries;
    redactor.register("ANTHROPIC_API_KEY", opts.apiKey);
    this.retries = new RetryObserver(opts.fetch ?? globalThis.fetch);
    const options: ClientOptions = {
      apiKey: opts.apiKey,
      maxRetries: opts.maxRetries,
      timeout: opts.timeoutMs ?? 60_000,
      fetch: this.retries.fetch,
    };
    if (opts.baseURL) options.baseURL = opts.baseURL;
    this.sdk = new Anthropic(options);
  }

  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    const params = buildMessageParams(req, this.model);
    const reqOpts: { timeout: number; maxRetries: number; signal?: AbortSignal } = {
      timeout: Math.max(1, Math.round(req.timeoutMs)),
      maxRetries: this.maxRetries,
    };
    if (req.signal) reqOpts.signal = req.signal;
    try {
      return await this.retries.observe(hooks, () => this.stream(params, reqOpts, hooks));
    } catch (e) {
      throw toModelCallError(e, req.signal);
    }
  }

  private async stream(
    params: AnthropicRequestParams,
    reqOpts: { timeout: number; maxRetries: number; signal?: AbortSignal },
    hooks: CallHooks | undefined,
  ): Promise<ModelResponse> {
    const stream = this.sdk.messages.stream({ ...params, messages: params.messages.map(sdkMessage) }, reqOpts);
    if (hooks?.onText) {
      const onText = hooks.onText;
      stream.on("text", (delta) => onText(delta));
    }
    const msg = await stream.finalMessage().catch((e: unknown) => {
      // An answer that is no event stream at all (an HTML page, an empty 200): say what came back.
      const seen = this.retries.answer();
      if (seen && !(e instanceof APIError) && !(e instanceof APIUserAbortError) && (seen.bytes === 0 || !seen.contentType.includes("event-stream"))) {
        throw new ModelCallError("protocol", describeAnswer(seen, `no Messages API event stream, an unusable answer (${(e as Error)?.message ?? String(e)})`));
      }
      throw e;
    });
    return {
      content: canonicalBlocks(msg.content),
      stop_reason: String(msg.stop_reason ?? "end_turn"),
      usage: usageFromSdk(msg.usage),
      model: msg.model,
    };
  }
}

function toModelCallError(e: unknown, signal?: AbortSignal): ModelCallError {
  return modelCallErrorFrom(e, { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError }, signal);
}
