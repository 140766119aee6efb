/**
 * The lean catalogue (issue #26): the system prompt and the tool list every request carries stay
 * within the budget (the estimate bench/tokens.bench.ts prints), and a run offers only the tools it
 * can use — observe and watch place nothing, a halted account trades nothing — with the offered set
 * served, refused and recorded exactly.
 */
import { describe, expect, it } from "vitest";
import { buildSystemPrompt, ERROR_CONTRACT } from "../../src/agent/prompt.js";
import { defaultConfig, limitsOf } from "../../src/config/load.js";
import { CONTRACT_VERSION, TOOL_NAMES } from "../../src/tools/catalogue.js";
import { contractSet } from "../../src/tools/versions.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import { offeredTools } from "../../src/tools/subsets.js";
import type { ToolHandler } from "../../src/tools/types.js";
import { priceFor } from "../../src/agent/pricing.js";
import type { CanonicalRequest } from "../../src/agent/cassette-format.js";
import { currentCatalogue, dayCost, estimateTokens, MIN_CACHEABLE_TOKENS } from "./token-budget.js";

/** The whole catalogue's budget (issue #26: ≤ 4,500 tokens for system prompt + tools, ≤ 250 a tool). */
const BUDGET = 4500;
const PER_TOOL = 250;

describe("tokens of the system prompt + tool list (every request carries them)", () => {
  const now = currentCatalogue();

  it(`stay within ${BUDGET} for the whole ${CONTRACT_VERSION} catalogue, ${PER_TOOL} a tool on average`, () => {
    expect(now.total, JSON.stringify(now.tools)).toBeLessThanOrEqual(BUDGET);
    const toolTokens = now.total - now.system;
    expect(toolTokens / now.tools.length).toBeLessThanOrEqual(PER_TOOL);
    expect(now.tools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });

  it("the estimate is the one the bench prints: a token per four characters", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
  });

  it("the system prompt states the call limits in few words: the common limit once, every other tool with its own", () => {
    const config = defaultConfig();
    const limits = Object.fromEntries(contractSet().contracts.map((t) => [t.name, t.callLimit]));
    const sys = buildSystemPrompt({ limits: limitsOf(config), maxTurns: config.model.max_turns, toolCallLimits: limits });
    expect(sys).toMatch(/Calls per run: 5 each, except [^\n]*get_price_history 15[^\n]*submit_orders 3[,.]/);
    expect(sys).not.toMatch(/get_portfolio 5/);
    expect(sys).toContain(ERROR_CONTRACT);
  });

  it("a run offering fewer tools carries fewer tokens", () => {
    const watch = currentCatalogue(offeredTools(TOOL_NAMES, { mode: "watch", tradingState: "ACTIVE" }));
    expect(watch.total).toBeLessThan(now.total);
  });
});

describe("a day's cost with prompt caching", () => {
  const price = priceFor("claude-sonnet-4-5");
  /** Two requests of a conversation: the task, then the task, an answer and a tool result. */
  const day = (systemChars: number): { request: CanonicalRequest }[] => {
    const task = { role: "user", content: [{ type: "text", text: "Trading day: 2007-01-03." }] };
    const answer = { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "get_portfolio", input: {} }] };
    const result = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: '{"success":true}' }] };
    const system = "s".repeat(systemChars);
    return [{ request: { max_tokens: 100, system, messages: [task] } }, { request: { max_tokens: 100, system, messages: [task, answer, result] } }];
  };

  it(`a prefix under ${MIN_CACHEABLE_TOKENS} tokens caches nothing: every token is plain input`, () => {
    const short = dayCost(day(400), price);
    expect(short.prompt).toBeLessThan(MIN_CACHEABLE_TOKENS);
    expect(short).toMatchObject({ cacheWrite: 0, cacheRead: 0, input: short.prompt });
  });

  it("a longer prefix is written by the first request and read by the next; only the new part is written again", () => {
    const long = dayCost(day(4 * 2000), price);
    const first = dayCost(day(4 * 2000).slice(0, 1), price);
    expect(first.cacheWrite).toBe(first.prompt);
    expect(long.cacheRead).toBe(first.prompt);
    expect(long.cacheWrite).toBe(long.prompt - long.cacheRead);
    expect(long.input).toBe(0);
  });
});

describe("the tools a run offers", () => {
  const offered = (mode: "paper" | "observe" | "watch", tradingState: "ACTIVE" | "REDUCING" | "HALTED" = "ACTIVE") =>
    offeredTools(TOOL_NAMES, { mode, tradingState });

  it("paper offers every tool; REDUCING keeps the order tools (sells are allowed, the gate blocks buys)", () => {
    expect(offered("paper")).toEqual(TOOL_NAMES);
    expect(offered("paper", "REDUCING")).toEqual(TOOL_NAMES);
  });

  it("observe and watch offer no order-placing tool: no standing order (it would place one later); watch no dry run either", () => {
    for (const mode of ["observe", "watch"] as const) {
      expect(offered(mode)).not.toContain("place_standing_order");
      // submit_orders ends every run: observe records its proposal and places nothing; watch accepts only an empty list.
      expect(offered(mode)).toContain("submit_orders");
    }
    expect(offered("observe")).toContain("check_orders");
    expect(offered("watch")).not.toContain("check_orders");
    expect(offered("watch")).toContain("add_watchlist");
  });

  it("a HALTED account offers no buying tool: no dry run, no standing order", () => {
    for (const mode of ["paper", "observe", "watch"] as const) {
      expect(offered(mode, "HALTED")).not.toContain("check_orders");
      expect(offered(mode, "HALTED")).not.toContain("place_standing_order");
    }
  });

  it("the runtime serves exactly the offered tools in catalogue order, and refuses a call of any other as an unknown tool", async () => {
    const noop: ToolHandler = () => ({ ok: true, data: {} });
    const handlers = Object.fromEntries(TOOL_NAMES.map((n) => [n, noop]));
    const names = offered("watch");
    const rt = buildToolRuntime(handlers, { runId: "r", tradingDay: "2008-03-17", offered: [...names].reverse() });
    expect(rt.anthropicTools().map((t) => t.name)).toEqual(names);
    expect(rt.openaiTools().map((t) => t.function.name)).toEqual(names);
    // The next run offering the same tools gets the same rendered list (rendered once, not per run).
    expect(buildToolRuntime(handlers, { runId: "r2", tradingDay: "2008-03-18", offered: names }).anthropicTools()).toBe(rt.anthropicTools());
    const out = await rt.dispatch("place_standing_order", {});
    expect(out).toMatchObject({ success: false, errorCode: "unknown_tool", stage: "unknown_tool" });
    expect(out.envelope.error).toMatch(/available tools: get_portfolio/);
    expect(() => buildToolRuntime(handlers, { runId: "r", tradingDay: "2008-03-17", offered: ["no_such_tool"] })).toThrow(/no tool no_such_tool/);
  });
});
