import { describe, expect, test } from "vitest";
import { priceFor } from "../../src/agent/pricing.js";
import { ScriptedClient } from "../../src/agent/scripted-client.js";
import { ModelCallError, type ToolResultBlock } from "../../src/agent/types.js";
import { toolResultError } from "./fake-anthropic-server.js";
import { LIMITS, ofType, QueueClient, run, text, types, usage, use } from "./helpers.js";
import { makeWorld } from "./world.js";

const hold = (id = "s1") => use(id, "submit_orders", { orders: [], summary: "Nothing to do." });

describe("stop conditions", () => {
  test("a successful submit with orders ends the run as submitted, with the proposal", async () => {
    const w = makeWorld();
    const { events, result } = await run({ client: new ScriptedClient({ script: "blocked-then-revise" }), runtime: w.runtime, submitState: w.submit.state });
    expect(result.outcome).toBe("submitted");
    expect(result.proposal?.orders).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "agent.finished", outcome: "submitted", turns: result.turns });
    expect(ofType(events, "proposal")).toHaveLength(1);
  });

  test("an empty submit is a hold", async () => {
    const w = makeWorld();
    const { result } = await run({ client: new ScriptedClient({ script: "hold" }), runtime: w.runtime });
    expect(result.outcome).toBe("hold");
    expect(result.proposal).toMatchObject({ orders: [], summary: expect.stringContaining("Holding") });
  });

  test("ending the turn without submitting: no_submission, no proposal", async () => {
    const { result, events } = await run({ client: new ScriptedClient({ script: "no-submit" }), runtime: makeWorld().runtime });
    expect(result.outcome).toBe("no_submission");
    expect(result.proposal).toBeUndefined();
    expect(ofType(events, "proposal")).toHaveLength(0);
  });

  test("runaway model: the per-run limit refuses get_portfolio after 5, and the repeated refusal ends the run (repair_budget) on turn 7, not at the turn limit", async () => {
    const w = makeWorld();
    const client = new ScriptedClient({ script: "runaway" });
    const { result, events } = await run({ client, runtime: w.runtime });
    expect(result.outcome).toBe("repair_budget");
    expect(result.reason).toContain(
      "get_portfolio was refused 2 times (the last on turn 7) with the same arguments and the same error (tool_call_limit_reached: get_portfolio may succeed at most 5 times per run",
    );
    expect(result.turns).toBe(7);
    expect(result.usage).toHaveLength(7);
    // get_portfolio's per-run limit (5) was enforced along the way; the handler ran 5 times only
    expect(w.handlerCalls.get_portfolio).toBe(5);
    expect(ofType(events, "tool.rejected").map((e) => e.error_code)).toEqual(["tool_call_limit_reached", "tool_call_limit_reached"]);
    expect(events.at(-1)).toMatchObject({ type: "agent.finished", outcome: "repair_budget", turns: 7 });
  });

  test("runaway model: the turn limit stops it after exactly max_turns calls", async () => {
    const client = new ScriptedClient({ script: "runaway" });
    const { result, events } = await run({ client, runtime: makeWorld().runtime, limits: { ...LIMITS, maxTurns: 4 } });
    expect(result.outcome).toBe("turn_limit");
    expect(result.turns).toBe(4);
    expect(ofType(events, "model.turn_started")).toHaveLength(4);
    expect(result.usage).toHaveLength(4);
  });

  test("wall clock: a limit of 0 makes no call", async () => {
    const client = new QueueClient([]);
    const { result } = await run({ client, runtime: makeWorld().runtime, limits: { ...LIMITS, maxSeconds: 0 } });
    expect(result.outcome).toBe("time_limit");
    expect(client.requests).toHaveLength(0);
  });

  test("wall clock is checked before each call and caps each call's timeout", async () => {
    let t = 0;
    const client = new QueueClient([
      (req) => {
        t += 250_000; // the first call takes 250 s of the 300 s
        expect(req.timeoutMs).toBe(60_000);
        return { content: [use("a", "get_portfolio", {})], stop_reason: "tool_use" };
      },
      (req) => {
        expect(req.timeoutMs).toBe(50_000); // min(60 s, 50 s left)
        t += 48_000;
        return { content: [use("b", "get_portfolio", {})], stop_reason: "tool_use" };
      },
      (req) => {
        expect(req.timeoutMs).toBe(5_000); // 2 s left, floor 5 s
        t += 3_000;
        return { content: [use("c", "get_portfolio", {})], stop_reason: "tool_use" };
      },
    ]);
    const { result } = await run({ client, runtime: makeWorld().runtime, now: () => t });
    expect(result.outcome).toBe("time_limit");
    expect(client.requests).toHaveLength(3);
    expect(result.reason).toContain("before model turn 4");
  });

  test("a slow model is cut off at the call timeout: model_error when the request timeout fired", async () => {
    const { result } = await run({
      client: new ScriptedClient({ script: "slow" }),
      runtime: makeWorld().runtime,
      limits: { ...LIMITS, requestTimeoutS: 0.05, minCallTimeoutMs: 10 },
    });
    expect(result.outcome).toBe("model_error");
    expect(result.reason).toMatch(/timed out/);
  });

  test("a slow model is cut off when the wall clock runs out: time_limit", async () => {
    const started = Date.now();
    const { result } = await run({
      client: new ScriptedClient({ script: "slow" }),
      runtime: makeWorld().runtime,
      limits: { ...LIMITS, maxSeconds: 0.1, minCallTimeoutMs: 10 },
    });
    expect(result.outcome).toBe("time_limit");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test("a client that ignores its signal still cannot hold the loop past the deadline", async () => {
    const client = { model: "claude-sonnet-4-5", complete: () => new Promise<never>(() => {}) };
    const { result } = await run({ client, runtime: makeWorld().runtime, limits: { ...LIMITS, requestTimeoutS: 0.05, minCallTimeoutMs: 10 } });
    expect(result.outcome).toBe("model_error");
  });

  test("interruption through the AbortSignal: interrupted", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const { result, events } = await run({ client: new ScriptedClient({ script: "slow" }), runtime: makeWorld().runtime, signal: ac.signal });
    expect(result.outcome).toBe("interrupted");
    expect(events.at(-1)).toMatchObject({ type: "agent.finished", outcome: "interrupted" });
  });

  test("an already-aborted signal makes no call", async () => {
    const ac = new AbortController();
    ac.abort();
    const client = new QueueClient([]);
    const { result } = await run({ client, runtime: makeWorld().runtime, signal: ac.signal });
    expect(result.outcome).toBe("interrupted");
    expect(client.requests).toHaveLength(0);
  });

  test("per-run cost budget is checked after each call; strictly greater stops", async () => {
    const price = priceFor("claude-sonnet-4-5"); // $3 in / $15 out per million
    // each call: 100k in ($0.30) + 0 out = $0.30; budget $0.60 → 2 calls are at the budget (not over), the 3rd goes over
    const turn = (id: string) => ({ content: [use(id, "get_portfolio", {})], stop_reason: "tool_use", usage: usage(100_000, 0) });
    const client = new QueueClient([turn("a"), turn("b"), turn("c"), turn("d")]);
    const { result } = await run({ client, runtime: makeWorld().runtime, price, limits: { ...LIMITS, runBudgetUsd: 0.6 } });
    expect(result.outcome).toBe("cost_budget");
    expect(client.requests).toHaveLength(3);
    expect(result.cost_usd).toBeCloseTo(0.9, 10);
    // the third call's tool_use was not run
    expect(result.transcript.at(-1)?.role).toBe("assistant");
  });

  test("the month's spend cap is checked before the first call", async () => {
    const client = new QueueClient([]);
    const { result, events } = await run({ client, runtime: makeWorld().runtime, limits: { ...LIMITS, monthlyBudgetLeftUsd: 0 } });
    expect(result.outcome).toBe("monthly_budget");
    expect(client.requests).toHaveLength(0);
    expect(types(events)).toEqual(["agent.finished"]);
  });

  test("a run whose cost exceeds what is left of the month stops as monthly_budget", async () => {
    const client = new QueueClient([{ content: [use("a", "get_portfolio", {})], stop_reason: "tool_use", usage: usage(100_000, 0) }]);
    const { result } = await run({
      client,
      runtime: makeWorld().runtime,
      price: priceFor("claude-sonnet-4-5"),
      limits: { ...LIMITS, monthlyBudgetLeftUsd: 0.1 },
    });
    expect(result.outcome).toBe("monthly_budget");
  });

  test.each([
    ["refusal", "refusal"],
    ["max_tokens", "max_tokens"],
    ["model_context_window_exceeded", "context_window"],
  ])("stop_reason %s stops as %s without running its tools", async (stop, outcome) => {
    const w = makeWorld();
    const client = new QueueClient([{ content: [text("partial"), use("a", "get_portfolio", {})], stop_reason: stop }]);
    const { result, events } = await run({ client, runtime: w.runtime });
    expect(result.outcome).toBe(outcome);
    expect(w.handlerCalls.get_portfolio).toBeUndefined();
    expect(ofType(events, "tool.called")).toHaveLength(0);
  });

  test("pause_turn continues: the assistant turn is sent back as is", async () => {
    const client = new QueueClient([
      { content: [text("Let me think")], stop_reason: "pause_turn" },
      (req) => {
        expect(req.messages.at(-1)).toEqual({ role: "assistant", content: [text("Let me think")] });
        return { content: [hold()], stop_reason: "tool_use" };
      },
    ]);
    const { result } = await run({ client, runtime: makeWorld().runtime });
    expect(result.outcome).toBe("hold");
    expect(result.turns).toBe(2);
  });

  test("an error after the client's retries: model_error with its message", async () => {
    const client = {
      model: "claude-sonnet-4-5",
      complete: async () => {
        throw new ModelCallError("api", "model API error 529: Overloaded", 529);
      },
    };
    const { result } = await run({ client, runtime: makeWorld().runtime });
    expect(result.outcome).toBe("model_error");
    expect(result.reason).toContain("529");
  });
});

describe("tool turns", () => {
  test("all tool_use blocks run, reads before the final tool; one user message carries every result first, in order", async () => {
    const w = makeWorld();
    const order: string[] = [];
    const spy = {
      ...w.runtime,
      dispatch: (n: string, a: unknown, o?: { signal?: AbortSignal }) => {
        order.push(n);
        return w.runtime.dispatch(n, a, o);
      },
    };
    const client = new QueueClient([
      { content: [use("p", "get_portfolio", {})], stop_reason: "tool_use" },
      {
        content: [
          text("All at once."),
          use("s", "submit_orders", { orders: [], summary: "Hold." }),
          use("h", "get_price_history", { symbol: "ALFA" }),
          use("x", "no_such_tool", {}),
        ],
        stop_reason: "tool_use",
      },
    ]);
    const { result } = await run({ client, runtime: spy });
    expect(order).toEqual(["get_portfolio", "get_price_history", "no_such_tool", "submit_orders"]);
    expect(result.outcome).toBe("hold");
    const last = result.transcript.at(-1);
    expect(last?.role).toBe("user");
    const blocks = last?.content as ToolResultBlock[];
    expect(blocks.map((b) => b.tool_use_id)).toEqual(["s", "h", "x"]);
    expect(blocks.map((b) => b.is_error === true)).toEqual([false, false, true]);
    expect(JSON.parse(blocks[2]?.content ?? "{}")).toMatchObject({ success: false, error_code: "unknown_tool" });
    // the transcript is valid for the real API
    expect(toolResultError({ messages: result.transcript })).toBeNull();
  });

  test("events: called → result/rejected per call, text streamed before the response, finished last", async () => {
    const w = makeWorld();
    const { events } = await run({ client: new ScriptedClient({ script: "invalid-then-repair" }), runtime: w.runtime });
    const t = events.map((e) => e.type);
    expect(t[0]).toBe("model.turn_started");
    expect(t.indexOf("model.text")).toBeLessThan(t.indexOf("model.response"));
    const rejected = ofType(events, "tool.rejected");
    expect(rejected[0]).toMatchObject({ tool: "get_price_history", error_code: "invalid_tool_arguments", retryable: true });
    expect(rejected[0]?.correction?.issues?.length).toBeGreaterThan(1); // all issues at once
    expect(ofType(events, "tool.pending")[0]?.pending).toEqual([expect.objectContaining({ tool: "get_price_history", error_code: "invalid_tool_arguments" })]);
    expect(ofType(events, "tool.pending").at(-1)?.pending).toEqual([]); // cleared by the repaired call
    expect(w.handlerCalls.get_price_history).toBe(1); // the invalid call never reached the handler
    expect(t.at(-1)).toBe("agent.finished");
    expect(ofType(events, "tool.called").length).toBe(ofType(events, "tool.result").length + rejected.length);
  });

  test("check_orders successes emit gate.dry_run with the decisions; its limit (5) holds", async () => {
    const w = makeWorld();
    const order = (q: number) => ({ symbol: "ALFA", side: "BUY", quantity: q, limit_price: 167, reason: "r", evidence_ids: ["price:ALFA:2024-05-03"] });
    const turns = [
      { content: [use("h", "get_price_history", { symbol: "ALFA" })], stop_reason: "tool_use" },
      ...Array.from({ length: 6 }, (_, i) => ({ content: [use(`c${i}`, "check_orders", { orders: [order(1 + i * 100)] })], stop_reason: "tool_use" })),
      { content: [hold()], stop_reason: "tool_use" },
    ];
    const { events, result } = await run({ client: new QueueClient(turns), runtime: w.runtime });
    const dry = ofType(events, "gate.dry_run");
    expect(dry).toHaveLength(5);
    expect(dry[0]?.decisions[0]).toMatchObject({ order: { symbol: "ALFA", quantity: 1 }, approved: true });
    expect(dry[1]?.decisions[0]).toMatchObject({ approved: false, reasons: [expect.objectContaining({ code: "position_limit" })] });
    expect(ofType(events, "tool.rejected")).toEqual([
      expect.objectContaining({ tool: "check_orders", error_code: "tool_call_limit_reached", retryable: false }),
    ]);
    expect(w.handlerCalls.check_orders).toBe(5);
    expect(result.outcome).toBe("hold");
  });

  test("get_price_history is limited to 15 successful calls per run", async () => {
    const w = makeWorld();
    const turns = [
      { content: Array.from({ length: 16 }, (_, i) => use(`h${i}`, "get_price_history", { symbol: "ALFA" })), stop_reason: "tool_use" },
      { content: [hold()], stop_reason: "tool_use" },
    ];
    const { events } = await run({ client: new QueueClient(turns), runtime: w.runtime });
    expect(w.handlerCalls.get_price_history).toBe(15);
    expect(ofType(events, "tool.rejected").map((e) => e.error_code)).toEqual(["tool_call_limit_reached"]);
  });

  test("the single bounce: blocked orders refuse the first submit with the verdicts; the revision is accepted", async () => {
    const w = makeWorld();
    const { events, result } = await run({ client: new ScriptedClient({ script: "blocked-then-revise" }), runtime: w.runtime, submitState: w.submit.state });
    const bounced = ofType(events, "submit.bounced");
    expect(bounced).toHaveLength(1);
    expect(bounced[0]?.decisions[0]).toMatchObject({ approved: false, reasons: [expect.objectContaining({ code: "price_band" })] });
    const refusal = result.transcript
      .flatMap((m) => m.content)
      .find(
        (b) => b.type === "tool_result" && (b as ToolResultBlock).is_error && String((b as ToolResultBlock).content).includes("orders_blocked"),
      ) as ToolResultBlock;
    expect(JSON.parse(refusal.content).correction.decisions[0]).toMatchObject({ symbol: "ALFA", approved: false });
    expect(result.outcome).toBe("submitted");
    expect(w.submit.state.revisionUsed).toBe(true);
  });

  test("after the revision a still-blocked order is accepted (the final gate drops it)", async () => {
    const w = makeWorld();
    const bad = { symbol: "ALFA", side: "BUY", quantity: 1, limit_price: 500, reason: "r", evidence_ids: ["portfolio:2024-05-06", "price:ALFA:2024-05-03"] };
    const turns = [
      { content: [use("p", "get_portfolio", {}), use("h", "get_price_history", { symbol: "ALFA" })], stop_reason: "tool_use" },
      { content: [use("s1", "submit_orders", { orders: [bad], summary: "x" })], stop_reason: "tool_use" },
      { content: [use("s2", "submit_orders", { orders: [bad], summary: "x" })], stop_reason: "tool_use" },
    ];
    const { result, events } = await run({ client: new QueueClient(turns), runtime: w.runtime, submitState: w.submit.state });
    expect(ofType(events, "submit.bounced")).toHaveLength(1);
    expect(result.outcome).toBe("submitted");
    expect(result.proposal?.decisions[0]?.approved).toBe(false);
  });

  test("pending errors refuse submit_orders until abandoned with an explanation", async () => {
    const w = makeWorld();
    const { events, result } = await run({ client: new ScriptedClient({ script: "pending-abandoned" }), runtime: w.runtime, submitState: w.submit.state });
    const rej = ofType(events, "tool.rejected").find((e) => e.tool === "submit_orders");
    expect(rej).toMatchObject({ error_code: "pending_corrections", retryable: true });
    expect(rej?.correction?.pending).toEqual([expect.objectContaining({ tool: "get_price_history", error_code: "invalid_tool_arguments" })]);
    expect(result.outcome).toBe("hold");
    expect(result.proposal?.abandoned).toEqual(["invalid_tool_arguments"]);
    expect(result.proposal?.abandon_explanation).toBeTruthy();
  });

  test("grounding: an evidence id the run never returned is refused (retryable) and becomes pending", async () => {
    const w = makeWorld();
    const order = { symbol: "ALFA", side: "BUY", quantity: 1, limit_price: 167, reason: "r", evidence_ids: ["price:ALFA:1999-01-01"] };
    const turns = [
      { content: [use("c", "check_orders", { orders: [order] })], stop_reason: "tool_use" },
      { content: [use("s", "submit_orders", { orders: [order], summary: "x" })], stop_reason: "tool_use" },
      { content: [text("I give up.")], stop_reason: "end_turn" },
    ];
    const { events, result } = await run({ client: new QueueClient(turns), runtime: w.runtime, submitState: w.submit.state });
    const rejected = ofType(events, "tool.rejected");
    expect(rejected.map((e) => [e.tool, e.error_code])).toEqual([
      ["check_orders", "unknown_evidence_id"],
      ["submit_orders", "unknown_evidence_id"],
    ]);
    expect(w.handlerCalls.check_orders).toBeUndefined();
    expect(result.outcome).toBe("no_submission");
    expect(w.submit.state.accepted).toBeNull();
  });

  test("the loop takes the proposal from the validated arguments, not the model's text", async () => {
    const w = makeWorld();
    const turns = [{ content: [text("I bought 1000 shares of ALFA already!"), hold()], stop_reason: "tool_use" }];
    const { result } = await run({ client: new QueueClient(turns), runtime: w.runtime });
    expect(result.proposal?.orders).toEqual([]);
    expect(result.outcome).toBe("hold");
  });

  test("usage is recorded per call with its cost; the total is their sum", async () => {
    const price = priceFor("claude-haiku-4-5"); // $1 / $5
    const turns = [
      { content: [use("p", "get_portfolio", {})], stop_reason: "tool_use", usage: usage(1000, 200) },
      { content: [hold()], stop_reason: "tool_use", usage: usage(500, 100, { cache_read_input_tokens: 10_000 }) },
    ];
    const { result, events } = await run({ client: new QueueClient(turns, "claude-haiku-4-5"), runtime: makeWorld().runtime, price });
    // 1000·1 + 200·5 = 2000 µ$ ; 500·1 + 10000·0.1 + 100·5 = 2000 µ$
    expect(result.usage.map((u) => u.cost_usd)).toEqual([0.002, 0.002]);
    expect(result.cost_usd).toBe(0.004);
    expect(ofType(events, "model.response").map((e) => e.total_cost_usd)).toEqual([0.002, 0.004]);
    expect(events.at(-1)).toMatchObject({ type: "agent.finished", cost_usd: 0.004 });
  });
});
