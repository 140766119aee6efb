/**
 * The agent loop and the repair budget: the run ends (outcome `repair_budget`) after the turn whose
 * tool calls spent it, without asking the model again; a model repairing its call is not stopped; a
 * successful submit in the same turn wins; tw-tools/2 (replays of its runs) loops as it always did.
 */
import { describe, expect, test, vi } from "vitest";
import { TOOL_NAMES } from "../../src/tools/catalogue.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";
import { LIMITS, ofType, QueueClient, run, use } from "./helpers.js";
import { makeWorld } from "./world.js";

const invalidSubmit = (id: string) => use(id, "submit_orders", { orders: [], summary: "" });
const turn = (...content: ReturnType<typeof use>[]) => ({ content, stop_reason: "tool_use" });

describe("the loop ends the run when the repair budget is spent", () => {
  test("two identical refused calls in one turn: the run ends after that turn, one request in all", async () => {
    const client = new QueueClient([turn(invalidSubmit("a"), invalidSubmit("b"))]);
    const { result, events } = await run({ client, runtime: makeWorld().runtime });
    expect(result.outcome).toBe("repair_budget");
    expect(client.requests).toHaveLength(1);
    // Every tool_use still has its result in the transcript, which ends with them.
    const last = result.transcript.at(-1);
    expect(last?.role).toBe("user");
    expect(Array.isArray(last?.content) && last.content.map((b) => b.type)).toEqual(["tool_result", "tool_result"]);
    expect(events.at(-1)).toMatchObject({ type: "agent.finished", outcome: "repair_budget", turns: 1 });
  });

  test("a model that changes its call each time is repairing, not repeating: it may go on", async () => {
    const client = new QueueClient([
      turn(use("a", "submit_orders", { orders: [], summary: "" })),
      turn(use("b", "submit_orders", { orders: [], summary: "", note: "x" })),
      turn(use("c", "submit_orders", { orders: [], summary: "Hold." })),
    ]);
    const { result } = await run({ client, runtime: makeWorld().runtime });
    expect(result.outcome).toBe("hold");
    expect(client.requests).toHaveLength(3);
  });

  test("a submit that succeeds in the turn that spends the budget is the run's proposal", async () => {
    const abandoning = {
      orders: [],
      summary: "Hold.",
      abandon_error_codes: ["invalid_tool_arguments"],
      abandon_explanation: "The universe list is not needed.",
    };
    const client = new QueueClient([
      turn(use("p", "list_universe", { bad: 1 })),
      turn(use("q", "list_universe", { bad: 1 }), use("s", "submit_orders", abandoning)),
    ]);
    const { result, events } = await run({ client, runtime: makeWorld().runtime });
    expect(ofType(events, "tool.rejected").map((e) => e.error)).toEqual([expect.any(String), expect.stringContaining("the run ends")]);
    expect(result.outcome).toBe("hold");
    expect(client.requests).toHaveLength(2);
  });

  test("tw-tools/2 has no repair budget: a replay of its runs asks the model as often as the recorded run did", async () => {
    const handlers: Record<string, ToolHandler> = {};
    for (const name of TOOL_NAMES) handlers[name] = vi.fn<ToolHandler>(() => ({ ok: true, data: {} }));
    const runtime = buildToolRuntime(handlers, { runId: "r", tradingDay: "2024-05-06", contractVersion: "tw-tools/2" });
    const client = new QueueClient(Array.from({ length: 4 }, (_, i) => turn(invalidSubmit(`s${i}`))));
    const { result, events } = await run({ client, runtime, limits: { ...LIMITS, maxTurns: 4 } });
    expect(result.outcome).toBe("turn_limit");
    expect(ofType(events, "tool.rejected")).toHaveLength(4);
  });
});
