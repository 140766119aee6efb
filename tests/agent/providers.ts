/**
 * The two real model clients, each with its loopback fake of its own wire format, behind one shape:
 * the agent-loop suite (provider-loop.test.ts) runs once per entry.
 */
import { AnthropicClient, countBreakpoints } from "../../src/agent/anthropic-client.js";
import { OpenAIClient } from "../../src/agent/openai-client.js";
import { type ModelPrice, priceFor } from "../../src/agent/pricing.js";
import type { ModelClient } from "../../src/agent/types.js";
import { type Behaviour, type RecordedRequest, type Responder, startFakeAnthropic, toolResultError } from "./fake-anthropic-server.js";
import { startFakeOpenAI, toolMessageError } from "./fake-openai-server.js";

export interface Fake {
  url: string;
  requests: RecordedRequest[];
  enqueue(...b: Behaviour[]): void;
  setResponder(r: Responder | undefined): void;
  close(): Promise<void>;
}

export interface ProviderCase {
  name: "anthropic" | "openai";
  model: string;
  price: ModelPrice;
  start(): Promise<Fake>;
  client(fake: Fake, maxRetries?: number): ModelClient;
  /** The tool results the request carries after its last assistant turn, parsed. */
  lastToolResults(body: Record<string, unknown>): { id: string; result: Record<string, unknown> }[];
  /** The real API's own validation of the conversation (null when it would accept it). */
  wireError(body: Record<string, unknown>): string | null;
  /** Prompt-cache hints the request carries (breakpoints for Claude, the cache key for OpenAI). */
  cacheHint(body: Record<string, unknown>): unknown;
  /** Where the key travels. */
  keyHeader(req: RecordedRequest): string;
}

export const KEYS = { anthropic: "sk-ant-test-key-000000", openai: "sk-proj-test-key-000000" } as const;

export const PROVIDERS: ProviderCase[] = [
  {
    name: "anthropic",
    model: "claude-sonnet-5",
    price: priceFor("claude-sonnet-5"),
    start: startFakeAnthropic,
    client: (fake, maxRetries = 2) => new AnthropicClient({ model: "claude-sonnet-5", apiKey: KEYS.anthropic, baseURL: fake.url, maxRetries }),
    lastToolResults: (body) => {
      const last = (body.messages as { role: string; content: { type: string; tool_use_id?: string; content?: string }[] }[]).at(-1);
      return (last?.content ?? []).filter((b) => b.type === "tool_result").map((b) => ({ id: String(b.tool_use_id), result: JSON.parse(String(b.content)) }));
    },
    wireError: toolResultError,
    cacheHint: (body) => countBreakpoints(body),
    keyHeader: (r) => String(r.headers["x-api-key"] ?? r.headers.authorization ?? ""),
  },
  {
    name: "openai",
    model: "gpt-5-mini",
    price: priceFor("gpt-5-mini", undefined, "openai"),
    start: startFakeOpenAI,
    // A compatible endpoint's base URL (not api.openai.com): max_tokens, no prompt_cache_key.
    client: (fake, maxRetries = 2) => new OpenAIClient({ model: "gpt-5-mini", apiKey: KEYS.openai, baseURL: fake.url, maxRetries }),
    lastToolResults: (body) => {
      const msgs = body.messages as { role: string; tool_call_id?: string; content?: string }[];
      const out: { id: string; result: Record<string, unknown> }[] = [];
      for (let i = msgs.length - 1; i >= 0 && msgs[i]?.role === "tool"; i--)
        out.unshift({ id: String(msgs[i]?.tool_call_id), result: JSON.parse(String(msgs[i]?.content)) });
      return out;
    },
    wireError: toolMessageError,
    cacheHint: (body) => body.stream_options,
    keyHeader: (r) => String(r.headers.authorization ?? ""),
  },
];
