/**
 * LLM spend in whole micro-dollars everywhere (issue #24): the loop's running total and its budget
 * checks add the same per-call micro-dollars the journal records, so the run's total is always the
 * sum of its usage records and a budget is enforced on what the journal will show as spent.
 */
import { describe, expect, test } from "vitest";
import type { ModelPrice } from "../../src/agent/pricing.js";
import { usdToMicros } from "../../src/core/money.js";
import { makeWorld } from "./world.js";
import { LIMITS, QueueClient, run, usage, use } from "./helpers.js";

// 0.6 µ$ per input token: one token costs 0.6 µ$, booked as 1 µ$ (half-even, as the journal books it).
const PRICE: ModelPrice = { model: "claude-haiku-4-5", source: "config", input: 0.6, output: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0 };
const look = (i: number) => ({ content: [use(`p${i}`, "get_portfolio", {})], stop_reason: "tool_use", usage: usage(1, 0) });
const hold = { content: [use("s", "submit_orders", { orders: [], summary: "Nothing to do." })], stop_reason: "tool_use", usage: usage(1, 0) };

describe("LLM spend in micro-dollars", () => {
  test("the run's total is exactly the sum of the per-call costs the journal records", async () => {
    const turns = [look(1), look(2), look(3), look(4), hold];
    const { result } = await run({ client: new QueueClient(turns, "claude-haiku-4-5"), runtime: makeWorld().runtime, price: PRICE });
    const recorded = result.usage.map((u) => usdToMicros(u.cost_usd));
    expect(recorded).toEqual([1, 1, 1, 1, 1]);
    expect(usdToMicros(result.cost_usd)).toBe(5);
  });

  test("the run budget is enforced on the micro-dollars the journal will show as spent", async () => {
    const turns = [look(1), look(2), look(3), look(4), look(5), hold];
    const { result } = await run({
      client: new QueueClient(turns, "claude-haiku-4-5"),
      runtime: makeWorld().runtime,
      price: PRICE,
      limits: { ...LIMITS, runBudgetUsd: 0.000004 },
    });
    // Five calls are 5 µ$ booked: above the 4 µ$ budget after turn 5 (a float sum would say 3 µ$).
    expect(result.outcome).toBe("cost_budget");
    expect(result.turns).toBe(5);
    expect(result.cost_usd).toBe(0.000005);
  });
});
