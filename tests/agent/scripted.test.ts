import { describe, expect, test } from "vitest";
import { buildSystemPrompt, buildTaskMessage } from "../../src/agent/prompt.js";
import { ScriptedClient } from "../../src/agent/scripted-client.js";
import type { Limits } from "../../src/core/gate-types.js";
import { ofType, run } from "./helpers.js";
import { DOWN, makeWorld, series, UP } from "./world.js";

const limits = { max_position_pct: 10, max_price_deviation_pct: 2 };

describe("scripted momentum policy", () => {
  test("uses the tools like an agent: portfolio + universe → histories → dry run → submit", async () => {
    const w = makeWorld();
    const { events, result } = await run({ client: new ScriptedClient({ limits }), runtime: w.runtime, submitState: w.submit.state });
    const calls = ofType(events, "tool.called").map((e) => e.tool);
    expect(calls.slice(0, 2)).toEqual(["get_portfolio", "list_universe"]);
    expect(calls.filter((c) => c === "get_price_history")).toHaveLength(3);
    expect(calls.slice(-2)).toEqual(["check_orders", "submit_orders"]);
    expect(result.outcome).toBe("submitted");
  });

  test("buys uptrends (ranked by 3-month return), sized under the position limit, limit = close × 1.005 in cents, citing seen evidence", async () => {
    const w = makeWorld({ series: { ALFA: UP(), BETA: DOWN(), GAMA: series(50, 0.006) } });
    const { result } = await run({ client: new ScriptedClient({ limits }), runtime: w.runtime, submitState: w.submit.state });
    const orders = result.proposal?.orders ?? [];
    expect(orders.map((o) => [o.symbol, o.side])).toEqual([
      ["GAMA", "BUY"],
      ["ALFA", "BUY"],
    ]);
    const seen = w.runtime.seenEvidence();
    for (const o of orders) {
      const close = w.opts.series[o.symbol]?.at(-1) as number;
      expect(o.limit_price).toBe(Math.round(close * 1.005 * 100) / 100);
      expect(Number.isInteger(o.quantity)).toBe(true);
      // The policy sizes to ~80% of the 10% limit at its limit price; the gate's position limit is
      // taken at the reference price (the last close), and the real gate approves every order below.
      expect((o.quantity * o.limit_price) / 100_000).toBeLessThanOrEqual(0.08);
      expect((o.quantity * o.limit_price) / 100_000).toBeGreaterThan(0.07);
      expect((o.quantity * close) / 100_000).toBeLessThanOrEqual(0.1);
      for (const id of o.evidence_ids) expect(seen.has(id)).toBe(true);
    }
    expect(result.proposal?.decisions.every((d) => d.approved)).toBe(true);
  });

  test("sells a holding below its SMA50; holds when nothing qualifies", async () => {
    const w = makeWorld({ holdings: [{ symbol: "BETA", quantity: 40 }], series: { BETA: DOWN(), DELT: DOWN() } });
    const { result } = await run({ client: new ScriptedClient({ limits }), runtime: w.runtime, submitState: w.submit.state });
    expect(result.proposal?.orders).toEqual([expect.objectContaining({ symbol: "BETA", side: "SELL", quantity: 40 })]);

    const w2 = makeWorld({ series: { BETA: DOWN(), DELT: DOWN() } });
    const r2 = await run({ client: new ScriptedClient({ limits }), runtime: w2.runtime });
    expect(r2.result.outcome).toBe("hold");
    expect(r2.result.proposal?.summary).toMatch(/Holding/);
    expect(w2.handlerCalls.check_orders).toBeUndefined();
  });

  test("HALTED holds; REDUCING only sells; no orders left holds", async () => {
    const held = [{ symbol: "BETA", quantity: 10 }];
    const halted = await run({ client: new ScriptedClient({ limits }), runtime: makeWorld({ tradingState: "HALTED", holdings: held }).runtime });
    expect(halted.result.outcome).toBe("hold");
    const reducing = await run({ client: new ScriptedClient({ limits }), runtime: makeWorld({ tradingState: "REDUCING", holdings: held }).runtime });
    expect(reducing.result.proposal?.orders.map((o) => o.side)).toEqual(["SELL"]);
    const none = await run({ client: new ScriptedClient({ limits }), runtime: makeWorld({ ordersLeft: 0, holdings: held }).runtime });
    expect(none.result.outcome).toBe("hold");
  });

  test("drops what the gate's dry run blocks before submitting (no cash → hold)", async () => {
    const w = makeWorld({ cash: 150, series: { ALFA: UP() } });
    const { result } = await run({ client: new ScriptedClient({ limits }), runtime: w.runtime });
    expect(result.outcome).toBe("hold");
  });

  test("is deterministic: the same world gives the same transcript", async () => {
    const a = await run({ client: new ScriptedClient({ limits }), runtime: makeWorld().runtime });
    const b = await run({ client: new ScriptedClient({ limits }), runtime: makeWorld().runtime });
    expect(JSON.stringify(a.result.transcript)).toBe(JSON.stringify(b.result.transcript));
  });

  test("its token estimate counts exactly the JSON of the request, call after call of a growing conversation", async () => {
    const w = makeWorld();
    const seen: number[] = [];
    const expected: number[] = [];
    const inner = new ScriptedClient({ limits });
    const client = {
      model: inner.model,
      complete: async (req: Parameters<ScriptedClient["complete"]>[0], hooks?: Parameters<ScriptedClient["complete"]>[1]) => {
        expected.push(Math.ceil((req.system.length + JSON.stringify(req.tools).length + JSON.stringify(req.messages).length) / 4));
        const res = await inner.complete(req, hooks);
        seen.push(res.usage.input_tokens);
        return res;
      },
    };
    await run({ client, runtime: w.runtime, submitState: w.submit.state });
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toEqual(expected);
  });

  test("an unknown script is refused", () => {
    expect(() => new ScriptedClient({ script: "yolo" })).toThrow(/unknown scripted model script/);
  });
});

describe("prompt", () => {
  const L: Limits = {
    base_currency: "EUR",
    max_position_pct: 12.5,
    max_orders_per_month: 7,
    max_drawdown_pct: 18,
    max_price_deviation_pct: 2.5,
    max_commission_pct: 0.75,
    allow_fractional: false,
    max_order_notional: 9000,
    max_price_age_days: 4,
  };
  const sys = buildSystemPrompt({ limits: L, maxTurns: 20, toolCallLimits: { get_price_history: 15, check_orders: 5, submit_orders: 3 } });

  test("states every limit with its number and that doing nothing is often right", () => {
    for (const s of [
      "12.5%",
      "7 orders",
      "18%",
      "2.5%",
      "0.75%",
      "whole shares",
      "9000 EUR",
      "4 days",
      "20 model turns",
      "get_price_history 15",
      "check_orders 5",
    ]) {
      expect(sys).toContain(s);
    }
    expect(sys).toMatch(/Doing nothing is often the right decision/);
  });

  test("holds nothing run-varying: no dates or times; the task message carries the trading day", () => {
    expect(sys).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(sys).not.toMatch(/\d{1,2}:\d{2}/);
    expect(buildSystemPrompt({ limits: L, maxTurns: 20, toolCallLimits: { get_price_history: 15, check_orders: 5, submit_orders: 3 } })).toBe(sys);
    expect(buildTaskMessage({ tradingDay: "2024-05-06" })).toContain("2024-05-06");
  });
});
