/**
 * The OpenAI client's own wire details (the loop over it is provider-loop.test.ts): the transcript
 * converter, the request body (official API vs a compatible server), streamed parallel tool calls
 * split at awkward places, cached-token usage, servers that leave out ids or usage.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { buildChatParams, isOfficialOpenAI, OpenAIClient } from "../../src/agent/openai-client.js";
import { toCanonicalStop, toCanonicalUsage, toOpenAIMessages, toOpenAITools } from "../../src/agent/openai-transcript.js";
import type { Message, ModelRequest } from "../../src/agent/types.js";
import { type FakeOpenAI, startFakeOpenAI, toolMessageError } from "./fake-openai-server.js";
import { makeWorld } from "./world.js";

const TOOLS = [
  { name: "get_portfolio", description: "p", input_schema: { type: "object", properties: {} } },
  { name: "submit_orders", description: "s", input_schema: { type: "object" } },
];
const convo: Message[] = [
  { role: "user", content: [{ type: "text", text: "Trading day: 2024-05-06." }] },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Two reads." },
      { type: "tool_use", id: "t1", name: "get_portfolio", input: {} },
      { type: "tool_use", id: "t2", name: "list_universe", input: { limit: 5 } },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "t1", content: '{"success":true}' },
      { type: "tool_result", tool_use_id: "t2", content: '{"success":false}', is_error: true },
    ],
  },
];

describe("transcript converter (pure)", () => {
  test("system first; tool_use → tool_calls with JSON arguments; each tool_result → a tool message right after", () => {
    const out = toOpenAIMessages("S", convo);
    expect(out).toEqual([
      { role: "system", content: "S" },
      { role: "user", content: "Trading day: 2024-05-06." },
      {
        role: "assistant",
        content: "Two reads.",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "get_portfolio", arguments: "{}" } },
          { id: "t2", type: "function", function: { name: "list_universe", arguments: '{"limit":5}' } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: '{"success":true}' },
      { role: "tool", tool_call_id: "t2", content: '{"success":false}' },
    ]);
    expect(toolMessageError({ messages: out })).toBeNull();
    // unparseable arguments kept as text go back verbatim; a tool-only assistant turn has null content
    const raw = toOpenAIMessages("", [{ role: "assistant", content: [{ type: "tool_use", id: "x", name: "n", input: "{oops" }] }]);
    expect(raw).toEqual([{ role: "assistant", content: null, tool_calls: [{ id: "x", type: "function", function: { name: "n", arguments: "{oops" } }] }]);
  });

  test("the tools the loop sends over OpenAI are the catalogue's own OpenAI rendering (`tradewarden tools --format openai`)", () => {
    const runtime = makeWorld().runtime;
    expect(toOpenAITools(runtime.anthropicTools())).toEqual(runtime.openaiTools());
  });

  test("finish reasons and usage map to the canonical ones; cached prompt tokens are cache reads", () => {
    expect(toCanonicalStop("tool_calls", true, false)).toBe("tool_use");
    expect(toCanonicalStop("stop", true, false)).toBe("tool_use");
    expect(toCanonicalStop("stop", false, false)).toBe("end_turn");
    expect(toCanonicalStop("length", true, false)).toBe("max_tokens");
    expect(toCanonicalStop("content_filter", false, false)).toBe("refusal");
    expect(toCanonicalStop("stop", false, true)).toBe("refusal");
    expect(toCanonicalUsage({ prompt_tokens: 5000, completion_tokens: 70, prompt_tokens_details: { cached_tokens: 4096 } })).toEqual({
      input_tokens: 904,
      output_tokens: 70,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 4096,
    });
    expect(toCanonicalUsage({ prompt_tokens: 100, completion_tokens: 1, prompt_cache_hit_tokens: 60 }).cache_read_input_tokens).toBe(60); // DeepSeek
  });

  test("the official API gets max_completion_tokens and a prompt_cache_key stable across turns; compatible servers get max_tokens", () => {
    const a = buildChatParams({ system: "S", tools: TOOLS, messages: convo.slice(0, 1), maxTokens: 99 }, "gpt-5", true);
    const b = buildChatParams({ system: "S", tools: TOOLS, messages: convo, maxTokens: 99 }, "gpt-5", true);
    expect(a).toMatchObject({ model: "gpt-5", stream: true, stream_options: { include_usage: true }, max_completion_tokens: 99 });
    expect(a.max_tokens).toBeUndefined();
    expect(a.prompt_cache_key).toMatch(/^tradewarden-[0-9a-f]{32}$/);
    expect(b.prompt_cache_key).toBe(a.prompt_cache_key);
    expect(b.messages.slice(0, 2)).toEqual(a.messages); // the prefix is byte-stable
    const c = buildChatParams({ system: "S", tools: [], messages: convo, maxTokens: 99 }, "llama", false);
    expect(c).toMatchObject({ max_tokens: 99 });
    expect(c.tools).toBeUndefined();
    expect(c.prompt_cache_key).toBeUndefined();
    expect(isOfficialOpenAI(null)).toBe(true);
    expect(isOfficialOpenAI("https://api.openai.com/v1")).toBe(true);
    expect(isOfficialOpenAI("https://api.deepseek.com/v1")).toBe(false);
  });
});

describe("the real openai SDK against the loopback fake", () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  const client = () => new OpenAIClient({ model: "gpt-5-mini", apiKey: "sk-proj-canary-0001", baseURL: fake.url, maxRetries: 1 });
  const req = (over: Partial<ModelRequest> = {}): ModelRequest => ({ system: "S", tools: TOOLS, messages: convo, maxTokens: 1000, timeoutMs: 5000, ...over });

  test("streams text live and assembles parallel tool calls split at awkward places; usage with cached tokens", async () => {
    const input = { orders: [{ symbol: "ALFA", quantity: 10, limit_price: 101.5, reason: 'quote "x" \\ é ✓ \n' }], summary: "ok" };
    fake.enqueue({
      kind: "message",
      content: [
        { type: "text", text: "Checking two things — ✓." },
        { type: "tool_use", id: "call_1", name: "get_portfolio", input: {} },
        { type: "tool_use", id: "call_2", name: "submit_orders", input },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 120, output_tokens: 80, cache_read_input_tokens: 9000 },
    });
    const deltas: string[] = [];
    const r = await client().complete(req(), { onText: (d) => deltas.push(d) });
    expect(deltas.length).toBeGreaterThan(5);
    expect(r).toEqual({
      content: [
        { type: "text", text: "Checking two things — ✓." },
        { type: "tool_use", id: "call_1", name: "get_portfolio", input: {} },
        { type: "tool_use", id: "call_2", name: "submit_orders", input },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 120, output_tokens: 80, cache_creation_input_tokens: 0, cache_read_input_tokens: 9000 },
      model: "gpt-5-mini",
    });
    const wire = fake.requests[0];
    expect(wire?.headers.authorization).toBe("Bearer sk-proj-canary-0001");
    expect(wire?.body).toMatchObject({ model: "gpt-5-mini", stream: true, max_tokens: 1000 });
    expect(((wire?.body.tools ?? []) as { type: string }[]).map((t) => t.type)).toEqual(["function", "function"]);
  });

  test("a server that leaves out tool-call ids and usage: stable ids, usage estimated (never zero)", async () => {
    const bare = new OpenAIClient({ model: "local", apiKey: "x", baseURL: fake.url, maxRetries: 0 });
    fake.setResponder(() => ({
      kind: "message",
      content: [{ type: "tool_use", id: "", name: "get_portfolio", input: {} }],
      stop_reason: "tool_use",
      noUsage: true,
    }));
    const original = fake.requests.length;
    const r = await bare.complete(req());
    fake.setResponder(undefined);
    expect(fake.requests.length).toBe(original + 1);
    expect(r.content[0]).toMatchObject({ type: "tool_use", id: "call_1_0", name: "get_portfolio" });
    // one token per three characters of the request: far above the fake's default 100
    expect(r.usage.input_tokens).toBeGreaterThan(Math.floor(JSON.stringify(fake.requests.at(-1)?.body).length / 3) - 1);
    expect(r.usage.output_tokens).toBeGreaterThan(0);
  });

  test("the fake, like the real API, refuses tool_calls not answered by tool messages (400, not retried)", async () => {
    const bad: Message[] = [...convo.slice(0, 2), { role: "user", content: [{ type: "text", text: "here" }] }];
    const err = await client()
      .complete(req({ messages: bad }))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "api", status: 400 });
    expect((err as Error).message).toMatch(/tool_call_ids did not have response messages: t1, t2/);
    expect(fake.requests).toHaveLength(1);
  });
});
