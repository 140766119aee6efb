/**
 * OpenAI's Chat Completions API through the official `openai` SDK: OpenAI itself or any
 * OpenAI-compatible endpoint (`model.base_url`: DeepSeek, a local Ollama or vLLM server), streaming
 * text and tool calls. The canonical transcript stays Anthropic content blocks; the conversion is
 * `openai-transcript.ts`.
 *
 * - `timeout` (per attempt) and `maxRetries` are set on every request; the SDK retries 408/409/429/
 *   5xx and connection errors, each retry reported through `hooks.onRetry`.
 * - Streaming with `stream_options.include_usage`; tool-call deltas are assembled by index (an index
 *   outside 0..MAX_TOOL_CALLS-1 makes the answer unusable).
 * - An answer with no chat completion chunk at all (an HTML page, an empty 200, a bare `[DONE]`) is
 *   unusable: the call fails (a `protocol` ModelCallError naming the endpoint and what came back),
 *   which ends the run as the model being unavailable rather than as the model saying nothing.
 * - Prompt caching: OpenAI caches long prompt prefixes by itself; the request keeps the prefix
 *   stable (system, then tools, then the conversation in order) and, on api.openai.com, sends a
 *   `prompt_cache_key` derived from the system prompt and tools so a run's calls share a cache.
 *   Cached prompt tokens come back as cache reads and are priced at the cached-input price.
 * - api.openai.com takes `max_completion_tokens` (its reasoning models refuse `max_tokens`);
 *   compatible servers get `max_tokens`, which they all know.
 */
import { createHash } from "node:crypto";
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, type ClientOptions } from "openai";
import { redactor } from "../core/redact.js";
import { describeAnswer, endpointOf, RetryObserver } from "./observed-fetch.js";
import {
  estimatedUsage,
  type OpenAIMessage,
  type OpenAITool,
  type OpenAIUsage,
  type StreamedToolCall,
  toCanonicalContent,
  toCanonicalStop,
  toCanonicalUsage,
  toOpenAIMessages,
  toOpenAITools,
} from "./openai-transcript.js";
import { type CallHooks, ModelCallError, type ModelClient, type ModelRequest, type ModelResponse, modelCallErrorFrom } from "./types.js";

/** Tool calls one answer may carry (stream indexes 0..MAX_TOOL_CALLS-1); the tool runtime allows far fewer calls per run. */
const MAX_TOOL_CALLS = 128;

export interface OpenAIRequestBody {
  model: string;
  messages: OpenAIMessage[];
  tools?: OpenAITool[];
  stream: true;
  stream_options: { include_usage: true };
  max_completion_tokens?: number;
  max_tokens?: number;
  prompt_cache_key?: string;
}

/** True for OpenAI's own API (no base URL, or its host). */
export function isOfficialOpenAI(baseURL: string | null | undefined): boolean {
  if (!baseURL) return true;
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

/** The request body for one call (pure). */
export function buildChatParams(req: Pick<ModelRequest, "system" | "tools" | "messages" | "maxTokens">, model: string, official: boolean): OpenAIRequestBody {
  const body: OpenAIRequestBody = {
    model,
    messages: toOpenAIMessages(req.system, req.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (req.tools.length > 0) body.tools = toOpenAITools(req.tools);
  if (official) {
    body.max_completion_tokens = req.maxTokens;
    const prefix = createHash("sha256")
      .update(JSON.stringify([req.system, body.tools ?? []]))
      .digest("hex")
      .slice(0, 32);
    body.prompt_cache_key = `tradewarden-${prefix}`;
  } else {
    body.max_tokens = req.maxTokens;
  }
  return body;
}

export interface OpenAIClientOptions {
  model: string;
  apiKey: string;
  baseURL?: string | null;
  maxRetries: number;
  timeoutMs?: number;
  /** For tests: a fetch to wrap instead of the global one. */
  fetch?: typeof fetch;
}

interface Chunk {
  model?: string;
  choices?: {
    index?: number;
    delta?: {
      content?: string | null;
      refusal?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: OpenAIUsage | null;
}

export class OpenAIClient implements ModelClient {
  readonly model: string;
  private readonly sdk: OpenAI;
  private readonly retries: RetryObserver;
  private readonly official: boolean;
  private readonly maxRetries: number;

  constructor(opts: OpenAIClientOptions) {
    this.model = opts.model;
    this.maxRetries = opts.maxRetries;
    this.official = isOfficialOpenAI(opts.baseURL);
    redactor.register("OPENAI_API_KEY", opts.apiKey);
    this.retries = new RetryObserver(opts.fetch ?? globalThis.fetch);
    const options: ClientOptions = { apiKey: opts.apiKey, maxRetries: opts.maxRetries, timeout: opts.timeoutMs ?? 60_000, fetch: this.retries.fetch };
    if (opts.baseURL) options.baseURL = opts.baseURL;
    this.sdk = new OpenAI(options);
  }

  /** Where requests go, as it may be shown (no credentials, no query). */
  private endpoint(): string {
    return endpointOf(`${this.sdk.baseURL.replace(/\/+$/, "")}/chat/completions`);
  }

  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    const body = buildChatParams(req, this.model, this.official);
    const reqOpts: { timeout: number; maxRetries: number; signal?: AbortSignal } = {
      timeout: Math.max(1, Math.round(req.timeoutMs)),
      maxRetries: this.maxRetries,
    };
    if (req.signal) reqOpts.signal = req.signal;
    try {
      return await this.retries.observe(hooks, () => this.stream(body, reqOpts, hooks));
    } catch (e) {
      throw toOpenAICallError(e, req.signal);
    }
  }

  private async stream(
    body: OpenAIRequestBody,
    reqOpts: { timeout: number; maxRetries: number; signal?: AbortSignal },
    hooks: CallHooks | undefined,
  ): Promise<ModelResponse> {
    const stream = await this.sdk.chat.completions.create(body, reqOpts);
    let text = "";
    let refusal = "";
    let finish: string | null = null;
    let usage: OpenAIUsage | null = null;
    let model = this.model;
    const calls = new Map<number, StreamedToolCall>();
    let chunks = 0;
    for await (const raw of stream) {
      const chunk: Chunk = raw;
      chunks += 1;
      if (chunk.model) model = chunk.model;
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (delta.content) {
        text += delta.content;
        hooks?.onText?.(delta.content);
      }
      if (delta.refusal) refusal += delta.refusal;
      for (const tc of delta.tool_calls ?? []) {
        if (!Number.isInteger(tc.index) || tc.index < 0 || tc.index >= MAX_TOOL_CALLS) {
          throw new ModelCallError(
            "protocol",
            `the model endpoint ${this.endpoint()} streamed tool call index ${String(tc.index)} (usable: 0 to ${MAX_TOOL_CALLS - 1}): an unusable answer`,
          );
        }
        const call = calls.get(tc.index) ?? { id: "", name: "", arguments: "" };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name += tc.function.name;
        if (tc.function?.arguments) call.arguments += tc.function.arguments;
        calls.set(tc.index, call);
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (chunks === 0) {
      const seen = this.retries.answer();
      const what = "no chat completion chunk in it, an unusable answer";
      throw new ModelCallError("protocol", seen ? describeAnswer(seen, what) : `the model endpoint ${this.endpoint()} answered with ${what}`);
    }
    // Servers that leave ids out get stable ones (the transcript pairs results with them; the loop
    // makes every id of the conversation unique).
    const turn = body.messages.filter((m) => m.role === "assistant").length;
    const assembled = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c], i) => ({ ...c, id: c.id || `call_${turn}_${i}` }));
    if (refusal && !text) text = refusal;
    const content = toCanonicalContent(text, assembled);
    return {
      content,
      stop_reason: toCanonicalStop(finish, assembled.length > 0, refusal !== ""),
      usage: usage ? toCanonicalUsage(usage) : estimatedUsage(JSON.stringify(body).length, JSON.stringify(content).length),
      model,
    };
  }
}

function toOpenAICallError(e: unknown, signal?: AbortSignal): ModelCallError {
  return modelCallErrorFrom(e, { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError }, signal);
}
