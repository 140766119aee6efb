import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { AnthropicClient, buildMessageParams, countBreakpoints } from "../../src/agent/anthropic-client.js";
import { priceFor } from "../../src/agent/pricing.js";
import { ModelCallError, type Message, type ModelRequest } from "../../src/agent/types.js";
import { type FakeAnthropic, startFakeAnthropic, toolResultError } from "./fake-anthropic-server.js";
import { run } from "./helpers.js";
import { makeWorld } from "./world.js";

const TOOLS = [
  { name: "get_portfolio", description: "p", input_schema: { type: "object" } },
  { name: "submit_orders", description: "s", input_schema: { type: "object" } },
];

const convo: Message[] = [
  { role: "user", content: [{ type: "text", text: "Trading day: 2024-05-06." }] },
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "get_portfolio", input: {} }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: '{"success":true}' }] },
];

describe("request params (pure)", () => {
  test("four breakpoints: last tool, system, the newest user message's last block and the previous request's (the user message before it)", () => {
    const p = buildMessageParams({ system: "S", tools: TOOLS, messages: convo, maxTokens: 1000 }, "claude-sonnet-4-5");
    expect(countBreakpoints(p)).toBe(4);
    expect(p.system[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(p.tools[0]?.cache_control).toBeUndefined();
    expect(p.tools[1]?.cache_control).toEqual({ type: "ephemeral" });
    expect(p.messages[0]?.content[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(p.messages[1]?.content[0]?.cache_control).toBeUndefined();
    expect(p.messages[2]?.content[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(p).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 1000 });
  });

  test("the message breakpoints move each turn and never accumulate; the transcript is not mutated", () => {
    const longer: Message[] = [
      ...convo,
      { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "submit_orders", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: '{"success":true}' }] },
    ];
    const before = JSON.stringify(longer);
    const first = buildMessageParams({ system: "S", tools: TOOLS, messages: longer.slice(0, 1), maxTokens: 10 }, "m");
    expect(first.messages[0]?.content[0]?.cache_control).toBeDefined();
    expect(countBreakpoints(first)).toBe(3);
    const later = buildMessageParams({ system: "S", tools: TOOLS, messages: longer, maxTokens: 10 }, "m");
    expect(later.messages.map((m) => m.content[0]?.cache_control !== undefined)).toEqual([false, false, true, false, true]);
    expect(countBreakpoints(later)).toBe(4);
    expect(JSON.stringify(longer)).toBe(before);
  });

  test("stale breakpoints in the input are stripped (never more than four)", () => {
    const dirty: Message[] = convo.map((m) => ({ ...m, content: m.content.map((b) => ({ ...b, cache_control: { type: "ephemeral" } })) }));
    const p = buildMessageParams(
      { system: "S", tools: TOOLS.map((t) => ({ ...t, cache_control: { type: "ephemeral" } })), messages: dirty, maxTokens: 10 },
      "m",
    );
    expect(countBreakpoints(p)).toBe(4);
  });

  test("after pause_turn the newest user message keeps the breakpoint; the last block of a multi-block message gets it", () => {
    const msgs: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "thinking…" }] },
    ];
    const p = buildMessageParams({ system: "S", tools: TOOLS, messages: msgs, maxTokens: 10 }, "m");
    expect(p.messages[0]?.content.map((b) => b.cache_control !== undefined)).toEqual([false, true]);
    expect(p.messages[1]?.content[0]?.cache_control).toBeUndefined();
    expect(countBreakpoints(p)).toBe(3);
  });

  test("no tools: three breakpoints", () => {
    expect(countBreakpoints(buildMessageParams({ system: "S", tools: [], messages: convo, maxTokens: 10 }, "m"))).toBe(3);
  });
});

describe("the real SDK against a loopback fake Messages API", () => {
  let fake: FakeAnthropic;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setResponder(undefined);
  });

  const client = (maxRetries = 2) => new AnthropicClient({ model: "claude-sonnet-5", apiKey: "sk-ant-test-key-000000", baseURL: fake.url, maxRetries });
  const req = (over: Partial<ModelRequest> = {}): ModelRequest => ({ system: "S", tools: TOOLS, messages: convo, maxTokens: 1000, timeoutMs: 5000, ...over });

  test("streams text live, assembles parallel tool_use input split at awkward places, ignores ping and unknown events", async () => {
    const input = { orders: [{ symbol: "ALFA", quantity: 10, limit_price: 101.5, reason: 'quote "x" \\ é ✓ \n' }], summary: "ok" };
    fake.enqueue({
      kind: "message",
      content: [
        { type: "text", text: "Checking two things at once — ✓." },
        { type: "tool_use", id: "toolu_1", name: "get_portfolio", input: {} },
        { type: "tool_use", id: "toolu_2", name: "submit_orders", input },
      ],
      stop_reason: "tool_use",
      usage: {
        input_tokens: 120,
        output_tokens: 80,
        cache_creation_input_tokens: 3000,
        cache_read_input_tokens: 9000,
        cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
      },
    });
    const deltas: string[] = [];
    const r = await client().complete(req(), { onText: (d) => deltas.push(d) });
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toBe("Checking two things at once — ✓.");
    expect(r.stop_reason).toBe("tool_use");
    expect(r.content).toEqual([
      { type: "text", text: "Checking two things at once — ✓." },
      { type: "tool_use", id: "toolu_1", name: "get_portfolio", input: {} },
      { type: "tool_use", id: "toolu_2", name: "submit_orders", input },
    ]);
    expect(r.usage).toEqual({
      input_tokens: 120,
      output_tokens: 80,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 9000,
      cache_creation_5m_input_tokens: 1000,
      cache_creation_1h_input_tokens: 2000,
    });
    expect(r.model).toBe("claude-sonnet-5");
    // the wire request: streaming, four breakpoints (two user messages), the key only as a header
    const wire = fake.requests[0];
    expect(wire?.body.stream).toBe(true);
    expect(countBreakpoints(wire?.body ?? {})).toBe(4);
    expect(String(wire?.headers["x-api-key"] ?? wire?.headers.authorization)).toContain("sk-ant-test-key-000000");
    expect(JSON.stringify(wire?.body)).not.toContain("sk-ant");
  });

  test.each(["pause_turn", "refusal", "max_tokens", "model_context_window_exceeded", "end_turn"])("stop_reason %s comes through", async (stop) => {
    fake.enqueue({ kind: "message", content: [{ type: "text", text: "x" }], stop_reason: stop });
    expect((await client().complete(req())).stop_reason).toBe(stop);
  });

  test("429 with retry-after and 500s are retried by the SDK; each retry is reported", async () => {
    fake.enqueue(
      { kind: "status", status: 429, headers: { "retry-after": "0.05" } },
      { kind: "status", status: 500 },
      { kind: "message", content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" },
    );
    const retries: [number, string][] = [];
    const r = await client(2).complete(req(), { onRetry: (a, m) => retries.push([a, m]) });
    expect(r.content).toEqual([{ type: "text", text: "ok" }]);
    expect(fake.requests).toHaveLength(3);
    expect(retries).toEqual([
      [1, expect.stringContaining("HTTP 429")],
      [2, expect.stringContaining("HTTP 500")],
    ]);
  });

  test("an error after the retries is a ModelCallError with the status", async () => {
    fake.enqueue({ kind: "status", status: 500 }, { kind: "status", status: 500 });
    const err = await client(1)
      .complete(req())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err).toMatchObject({ kind: "api", status: 500 });
    expect(fake.requests).toHaveLength(2);
  });

  test("a mid-stream error event fails the call", async () => {
    fake.enqueue({ kind: "stream_error", afterText: "Half a thought" });
    const deltas: string[] = [];
    const err = await client()
      .complete(req(), { onText: (d) => deltas.push(d) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect((err as Error).message).toMatch(/Overloaded/);
    expect(deltas.join("")).toBe("Half a thought");
  });

  test("a hang times out (per-attempt timeout set explicitly)", async () => {
    fake.enqueue({ kind: "hang" });
    const started = Date.now();
    const err = await client(0)
      .complete(req({ timeoutMs: 300 }))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "timeout" });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("an abort signal cancels a call in flight", async () => {
    fake.enqueue({ kind: "stall_mid_stream", text: "Stuck" });
    const ac = new AbortController();
    // Aborted once the stream has begun (the fake holds the request by then), not after a fixed delay:
    // a request still on its way when the test ended would land in the next test's count.
    const err = await client()
      .complete(req({ signal: ac.signal }), { onText: () => ac.abort() })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "aborted" });
  });

  test("the fake rejects, like the real API, a user message that does not begin with the tool results", async () => {
    const bad: Message[] = [
      ...convo.slice(0, 2),
      {
        role: "user",
        content: [
          { type: "text", text: "here you go" },
          { type: "tool_result", tool_use_id: "t1", content: "{}" },
        ],
      },
    ];
    expect(toolResultError({ messages: bad })).toMatch(/tool_result/);
    const err = await client()
      .complete(req({ messages: bad }))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "api", status: 400 });
    expect(fake.requests).toHaveLength(1); // 400 is not retried
  });

  test("a run's request bodies carry at most four breakpoints, and each request after the first carries the previous one's newest breakpoint again, on the same prefix", async () => {
    // Turn 1 reads seven histories at once (15 blocks of tool_use and tool_result: near the API's 20-block lookback), then submits.
    const symbols = ["ALFA", "BETA", "ALFA", "BETA", "ALFA", "BETA", "ALFA"];
    fake.enqueue(
      {
        kind: "message",
        content: symbols.map((symbol, i) => ({ type: "tool_use", id: `toolu_h${i}`, name: "get_price_history", input: { symbol, lookback_days: 20 + i } })),
        stop_reason: "tool_use",
      },
      { kind: "message", content: [{ type: "tool_use", id: "toolu_p", name: "get_portfolio", input: {} }], stop_reason: "tool_use" },
      {
        kind: "message",
        content: [{ type: "tool_use", id: "toolu_s", name: "submit_orders", input: { orders: [], summary: "Hold." } }],
        stop_reason: "tool_use",
      },
    );
    const { result } = await run({ client: client(), runtime: makeWorld().runtime, price: priceFor("claude-sonnet-5") });
    expect(result.outcome).toBe("hold");
    const bodies = fake.requests.map((r) => r.body as { system: unknown[]; tools: unknown[]; messages: { content: Record<string, unknown>[] }[] });
    expect(bodies).toHaveLength(3);
    const marks = (b: (typeof bodies)[number]) =>
      b.messages.flatMap((m, i) => m.content.map((c, j) => (c.cache_control ? `${i}.${j}` : ""))).filter((s) => s.length > 0);
    const bare = (v: unknown) => JSON.stringify(v, (k, x: unknown) => (k === "cache_control" ? undefined : x));
    for (const [n, body] of bodies.entries()) {
      expect(countBreakpoints(body)).toBeLessThanOrEqual(4);
      expect((body.tools.at(-1) as Record<string, unknown>).cache_control).toEqual({ type: "ephemeral" });
      expect((body.system[0] as Record<string, unknown>).cache_control).toEqual({ type: "ephemeral" });
      if (n === 0) continue;
      const prev = bodies[n - 1] as (typeof bodies)[number];
      const newestBefore = marks(prev).at(-1) as string;
      // The previous request's newest breakpoint is marked again here, and everything up to it is byte-identical.
      expect(marks(body)).toContain(newestBefore);
      const upTo = Number(newestBefore.split(".")[0]) + 1;
      expect(bare(body.tools) + bare(body.system) + bare(body.messages.slice(0, upTo))).toBe(
        bare(prev.tools) + bare(prev.system) + bare(prev.messages.slice(0, upTo)),
      );
    }
  });

  // The loop over Claude (and over OpenAI) is provider-loop.test.ts; pause_turn is Claude's own.
  test("the loop sends a pause_turn back as is and continues", async () => {
    fake.enqueue(
      { kind: "message", content: [{ type: "text", text: "pausing" }], stop_reason: "pause_turn" },
      { kind: "message", content: [{ type: "text", text: "I can't help with that." }], stop_reason: "refusal" },
    );
    const { result } = await run({ client: client(), runtime: makeWorld().runtime, price: priceFor("claude-sonnet-5") });
    expect(result.turns).toBe(2);
    expect(result.outcome).toBe("refusal");
    expect(((fake.requests[1]?.body.messages ?? []) as { role: string }[]).at(-1)?.role).toBe("assistant");
  });
});
