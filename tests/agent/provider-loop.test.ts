/**
 * The agent loop over each real model client (the real SDK) against its own loopback fake of its
 * provider's wire format, SSE included: one suite, run once per provider. The loop must not care
 * which provider answers — the same scenarios give the same outcomes, events and protocol.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { RecordingClient, ReplayClient } from "../../src/agent/cassette.js";
import { costOf } from "../../src/agent/pricing.js";
import type { Behaviour, FakeBlock, FakeUsage } from "./fake-anthropic-server.js";
import { LIMITS, ofType, run } from "./helpers.js";
import { type Fake, KEYS, PROVIDERS } from "./providers.js";
import { makeWorld } from "./world.js";

const msg = (content: FakeBlock[], stop_reason = "tool_use", usage?: FakeUsage): Behaviour => ({
  kind: "message",
  content,
  stop_reason,
  ...(usage ? { usage } : {}),
});
const call = (id: string, name: string, input: unknown): FakeBlock => ({ type: "tool_use", id, name, input });
const HOLD = (id: string) => call(id, "submit_orders", { orders: [], summary: "Nothing compelling; holding." });
const order = (limit: number) => ({
  symbol: "ALFA",
  side: "BUY",
  quantity: 10,
  limit_price: limit,
  reason: "uptrend",
  evidence_ids: ["price:ALFA:2024-05-03"],
});

describe.each(PROVIDERS)("the agent loop over $name (real SDK, loopback fake)", (p) => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await p.start();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setResponder(undefined);
  });
  const go = (over: Partial<Parameters<typeof run>[0]> = {}) => {
    const w = makeWorld();
    return { w, done: run({ client: p.client(fake), runtime: w.runtime, submitState: w.submit.state, price: p.price, ...over }) };
  };

  test("parallel tools, then a hold: every result goes back in the provider's format, usage and cost tracked, text streamed", async () => {
    fake.enqueue(
      msg([{ type: "text", text: "Reading the account — ✓." }, call("c_a", "get_portfolio", {}), call("c_b", "list_universe", { limit: 5 })], "tool_use", {
        input_tokens: 2000,
        output_tokens: 100,
      }),
      msg([HOLD("c_s")], "tool_use", { input_tokens: 300, output_tokens: 50, cache_read_input_tokens: 4000 }),
    );
    const { result, events } = await go().done;
    expect(result.outcome).toBe("hold");
    expect(fake.requests.map((r) => r.answered)).toEqual(["message", "message"]);
    for (const r of fake.requests) {
      expect(p.wireError(r.body)).toBeNull();
      expect(r.body.stream).toBe(true);
      expect(p.cacheHint(r.body)).toBeTruthy();
      expect(p.keyHeader(r)).toContain(KEYS[p.name]);
      expect(JSON.stringify(r.body)).not.toContain(KEYS[p.name]);
    }
    const results = p.lastToolResults(fake.requests[1]?.body ?? {});
    expect(results.map((r) => r.id)).toEqual(["c_a", "c_b"]);
    expect(results.map((r) => r.result.success)).toEqual([true, true]);
    // cost = each call's usage at this provider's prices (cached tokens at the cache-read price)
    const expected = [
      costOf({ input_tokens: 2000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, p.price),
      costOf({ input_tokens: 300, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 4000 }, p.price),
    ];
    expect(expected[1]).toBeLessThan(costOf({ input_tokens: 4300, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, p.price));
    expect(result.usage.map((u) => u.usage.cache_read_input_tokens)).toEqual([0, 4000]);
    expect(result.usage.map((u) => u.usage.input_tokens)).toEqual([2000, 300]);
    expect(result.cost_usd).toBeCloseTo((expected[0] ?? 0) + (expected[1] ?? 0), 6);
    expect(result.cost_usd).toBeGreaterThan(0);
    expect(
      ofType(events, "model.text")
        .map((e) => e.delta)
        .join(""),
    ).toBe("Reading the account — ✓.");
  });

  test("the single bounce: a blocked submit comes back with the verdicts; the revision is the proposal", async () => {
    fake.enqueue(
      msg([call("h", "get_price_history", { symbol: "ALFA" })]),
      msg([call("s1", "submit_orders", { orders: [order(500)], summary: "Buy ALFA." })]),
      msg([call("s2", "submit_orders", { orders: [order(167)], summary: "Buy ALFA at the close." })]),
    );
    const { done, w } = go();
    const { result, events } = await done;
    const bounce = p.lastToolResults(fake.requests[2]?.body ?? {});
    expect(bounce[0]?.result).toMatchObject({ success: false, error_code: "orders_blocked" });
    expect(ofType(events, "submit.bounced")).toHaveLength(1);
    expect(result.outcome).toBe("submitted");
    expect(result.proposal?.orders[0]).toMatchObject({ symbol: "ALFA", quantity: 10, limit_price: 167 });
    expect(w.submit.state.revisionUsed).toBe(true);
  });

  test("the pending protocol: invalid arguments come back with a correction and block submit until repaired", async () => {
    fake.enqueue(
      msg([call("bad", "get_price_history", { symbol: 42, extra: true })]),
      msg([HOLD("s1")]),
      msg([call("good", "get_price_history", { symbol: "ALFA" })]),
      msg([HOLD("s2")]),
    );
    const { done, w } = go();
    const { result, events } = await done;
    const rejected = ofType(events, "tool.rejected");
    expect(rejected.map((e) => [e.tool, e.error_code])).toEqual([
      ["get_price_history", "invalid_tool_arguments"],
      ["submit_orders", "pending_corrections"],
    ]);
    expect(p.lastToolResults(fake.requests[1]?.body ?? {})[0]?.result).toMatchObject({ success: false, correction: expect.any(Object) });
    expect(ofType(events, "tool.pending").at(-1)?.pending).toEqual([]);
    expect(w.handlerCalls.get_price_history).toBe(1);
    expect(result.outcome).toBe("hold");
  });

  test("arguments that are not JSON reach the tool runtime's parse stage, not a crash", async () => {
    // the fake streams JSON.stringify(input): a string input arrives as a quoted string, which is not an object
    fake.enqueue(msg([call("x", "get_price_history", "ALFA")]), msg([call("y", "get_price_history", { symbol: "ALFA" })]), msg([HOLD("s")]));
    const { result, events } = await go().done;
    expect(ofType(events, "tool.rejected")).toEqual([expect.objectContaining({ tool: "get_price_history", retryable: true })]);
    expect(result.outcome).toBe("hold");
  });

  test("loop limits: the turn limit stops a runaway model; the run budget stops after the call that crosses it", async () => {
    fake.setResponder((_b, i) => msg([call(`r${i}`, "list_universe", {})]));
    const turns = await go({ limits: { ...LIMITS, maxTurns: 3 } }).done;
    expect(turns.result.outcome).toBe("turn_limit");
    expect(fake.requests).toHaveLength(3);

    fake.requests.length = 0;
    fake.setResponder(() => msg([call("r", "list_universe", {})], "tool_use", { input_tokens: 400_000, output_tokens: 10_000 }));
    const perCall = costOf({ input_tokens: 400_000, output_tokens: 10_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, p.price);
    const budget = await go({ limits: { ...LIMITS, runBudgetUsd: perCall * 1.5 } }).done;
    expect(budget.result.outcome).toBe("cost_budget");
    expect(fake.requests).toHaveLength(2);
  });

  test.each([
    ["max_tokens", "max_tokens"],
    ["refusal", "refusal"],
    ["end_turn", "no_submission"],
  ])("stop reason %s ends the loop as %s without running tools", async (stop, outcome) => {
    fake.enqueue(msg([{ type: "text", text: "partial" }], stop));
    const { result, events } = await go().done;
    expect(result.outcome).toBe(outcome);
    expect(ofType(events, "tool.called")).toHaveLength(0);
  });

  test("errors: retries surface as events, then model_error with the status; a hang hits the call timeout; a mid-stream error fails the call", async () => {
    fake.enqueue({ kind: "status", status: 429, headers: { "retry-after": "0.01" } }, { kind: "status", status: 500 }, { kind: "status", status: 503 });
    const failed = await go().done;
    expect(failed.result.outcome).toBe("model_error");
    expect(failed.result.reason).toContain("503");
    expect(ofType(failed.events, "model.retry").map((e) => e.attempt)).toEqual([1, 2]);
    expect(ofType(failed.events, "model.retry")[0]?.message).toContain("HTTP 429");

    fake.enqueue({ kind: "hang" });
    const hung = await run({
      client: p.client(fake, 0),
      runtime: makeWorld().runtime,
      price: p.price,
      limits: { ...LIMITS, requestTimeoutS: 0.3, minCallTimeoutMs: 100 },
    });
    expect(hung.result.outcome).toBe("model_error");
    expect(hung.result.reason).toMatch(/timed out/);

    fake.enqueue({ kind: "stream_error", afterText: "Half a thought" });
    const broken = await run({ client: p.client(fake, 0), runtime: makeWorld().runtime, price: p.price });
    expect(broken.result.outcome).toBe("model_error");
    expect(broken.result.reason).toMatch(/Overloaded/);
  });

  test("an interruption mid-stream stops the call: interrupted", async () => {
    fake.enqueue({ kind: "stall_mid_stream", text: "Let me" });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const { result } = await go({ signal: ac.signal }).done;
    expect(result.outcome).toBe("interrupted");
  });

  test("a cassette recorded over this provider replays the run identically, offline", async () => {
    fake.enqueue(msg([call("h", "get_price_history", { symbol: "ALFA" })]), msg([call("s", "submit_orders", { orders: [order(167)], summary: "Buy." })]));
    const recorder = new RecordingClient(p.client(fake), { contractVersion: "test" });
    const w1 = makeWorld();
    const first = await run({ client: recorder, runtime: w1.runtime, submitState: w1.submit.state, price: p.price });
    expect(first.result.outcome).toBe("submitted");
    const replay = new ReplayClient(recorder.toJsonl(), { contractVersion: "test" });
    const w2 = makeWorld();
    const again = await run({ client: replay, runtime: w2.runtime, submitState: w2.submit.state, price: p.price });
    replay.assertConsumed();
    expect(again.result.outcome).toBe("submitted");
    expect(again.result.transcript).toEqual(first.result.transcript);
    expect(again.result.cost_usd).toBe(first.result.cost_usd);
    expect(fake.requests).toHaveLength(2);
    expect(recorder.toJsonl()).not.toContain(KEYS[p.name]);
  });
});
