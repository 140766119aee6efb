/**
 * The repair budget in the tool runtime: an identical refused call (same tool, same canonical
 * arguments, same error) repeated is refused again — without validating it again when the refusal
 * was decided by the arguments alone — and counted; at two identical refusals the runtime reports
 * the budget spent. Anything else (other arguments, another error, an admitted call, a handler's
 * own failure) is not a repeat. tw-tools/1 and /2 have no budget.
 */
import { describe, expect, it, vi } from "vitest";
import { TOOL_NAMES } from "../../src/tools/catalogue.js";
import { IDENTICAL_REFUSALS_END_RUN } from "../../src/tools/repair-budget.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { HandlerResult, ToolHandler } from "../../src/tools/types.js";
import { contractSet } from "../../src/tools/versions.js";

const EVIDENCE = "price:ALFA:2008-03-14";
const ORDER = { symbol: "ALFA", side: "BUY", quantity: 10, limit_price: 101.5, reason: "momentum", evidence_ids: [EVIDENCE] };

function runtime(over: Partial<Record<string, ToolHandler>> = {}, contractVersion?: string) {
  const handlers: Record<string, ReturnType<typeof vi.fn<ToolHandler>>> = {};
  for (const name of TOOL_NAMES) handlers[name] = vi.fn<ToolHandler>(over[name] ?? (() => ({ ok: true, data: { tool: name } })));
  const rt = buildToolRuntime(handlers, { runId: "run-1", tradingDay: "2008-03-17", ...(contractVersion ? { contractVersion } : {}) });
  return { rt, handlers };
}

describe("the repair budget", () => {
  it("spends after two identical refusals", () => {
    expect(IDENTICAL_REFUSALS_END_RUN).toBe(2);
  });

  it("an identical invalid call repeated is refused again without validating it again, and spends the budget", async () => {
    const { rt, handlers } = runtime();
    const validate = vi.spyOn(contractSet(), "validate");
    try {
      const bad = { symbol: "ALFA", bars: "many" };
      const first = await rt.dispatch("get_price_history", bad);
      expect(first).toMatchObject({ success: false, stage: "validation", errorCode: "invalid_tool_arguments" });
      expect(rt.repeatedRefusal()).toBeUndefined();
      const calls = validate.mock.calls.length;
      expect(calls).toBeGreaterThan(0); // the first call was validated
      // The same arguments, in another key order and as a JSON string: the same call.
      const again = await rt.dispatch("get_price_history", JSON.stringify({ bars: "many", symbol: "ALFA" }));
      expect(validate.mock.calls.length).toBe(calls); // not validated again
      expect(again).toMatchObject({ success: false, stage: "validation", errorCode: "invalid_tool_arguments" });
      expect(again.error).toBe(`${first.error} (this exact call was refused 2 times with the same error; the run ends)`);
      expect(rt.repeatedRefusal()).toEqual({ tool: "get_price_history", error_code: "invalid_tool_arguments", error: first.error, refusals: 2 });
      expect(handlers.get_price_history).not.toHaveBeenCalled();
    } finally {
      validate.mockRestore();
    }
  });

  it("an unknown tool and arguments that are not JSON count the same way", async () => {
    const unknown = runtime().rt;
    await unknown.dispatch("buy_everything", {});
    await unknown.dispatch("buy_everything", {});
    expect(unknown.repeatedRefusal()).toMatchObject({ tool: "buy_everything", error_code: "unknown_tool", refusals: 2 });
    const notJson = runtime().rt;
    await notJson.dispatch("get_portfolio", "{oops");
    await notJson.dispatch("get_portfolio", "{oops");
    expect(notJson.repeatedRefusal()).toMatchObject({ tool: "get_portfolio", error_code: "invalid_tool_arguments_json", refusals: 2 });
  });

  it("other arguments are another call: a model repairing its call is not counted", async () => {
    const { rt } = runtime();
    await rt.dispatch("get_price_history", { symbol: "ALFA", bars: "many" });
    await rt.dispatch("get_price_history", { symbol: "ALFA", bars: "lots" });
    await rt.dispatch("get_price_history", { symbol: "ALFA", bars: "plenty" });
    expect(rt.repeatedRefusal()).toBeUndefined();
  });

  it("a state-dependent refusal is checked again: once its cause is repaired the same call is admitted", async () => {
    const { rt, handlers } = runtime({
      get_price_history: () => ({ ok: true, data: { evidence_id: EVIDENCE, symbol: "ALFA" }, evidenceIds: [EVIDENCE] }),
      submit_orders: () => ({ ok: true, data: { accepted_orders: 1, hold: false } }),
    });
    const submit = { orders: [ORDER], summary: "One buy." };
    const first = await rt.dispatch("submit_orders", submit);
    expect(first).toMatchObject({ success: false, stage: "grounding", errorCode: "unknown_evidence_id" });
    await rt.dispatch("get_price_history", { symbol: "ALFA" });
    const second = await rt.dispatch("submit_orders", submit);
    expect(second.success).toBe(true);
    expect(handlers.submit_orders).toHaveBeenCalledTimes(1);
    expect(rt.repeatedRefusal()).toBeUndefined();
  });

  it("a state-dependent refusal repeated unchanged, with nothing repaired in between, spends the budget", async () => {
    const { rt } = runtime({ get_price_history: () => ({ ok: false, code: "unknown_symbol", message: "no such symbol" }) });
    await rt.dispatch("get_price_history", { symbol: "ZZZ" }); // retryable: pending
    const hold = { orders: [], summary: "Hold." };
    const first = await rt.dispatch("submit_orders", hold);
    expect(first).toMatchObject({ success: false, stage: "pending", errorCode: "pending_corrections" });
    const second = await rt.dispatch("submit_orders", hold);
    expect(second).toMatchObject({ success: false, stage: "pending" });
    expect(rt.repeatedRefusal()).toMatchObject({ tool: "submit_orders", error_code: "pending_corrections", refusals: 2 });
  });

  it("the same call refused with another error starts the count over", async () => {
    const { rt } = runtime({ get_price_history: () => ({ ok: false, code: "unknown_symbol", message: "no such symbol" }) });
    await rt.dispatch("get_price_history", { symbol: "ZZZ" });
    const hold = { orders: [], summary: "Hold." };
    await rt.dispatch("submit_orders", hold); // pending: get_price_history (unknown_symbol)
    await rt.dispatch("get_portfolio", "[1]"); // another pending error: the pending list, and so the message, changes
    await rt.dispatch("submit_orders", hold);
    expect(rt.repeatedRefusal()).toBeUndefined();
  });

  it("a handler's own failure is not a refusal: the same failing call may be tried again", async () => {
    const failing = (): HandlerResult => ({ ok: false, code: "search_failed", message: "the provider timed out" });
    const { rt, handlers } = runtime({ search_news: failing });
    for (let i = 0; i < 3; i++) await rt.dispatch("search_news", { query: "ALFA earnings" });
    expect(handlers.search_news).toHaveBeenCalledTimes(3);
    expect(rt.repeatedRefusal()).toBeUndefined();
  });

  it("a call of another tool in between does not clear a refusal decided by the arguments alone", async () => {
    const { rt } = runtime();
    await rt.dispatch("get_price_history", { symbol: "ALFA", bars: "many" });
    await rt.dispatch("get_portfolio", {});
    await rt.dispatch("get_price_history", { symbol: "ALFA", bars: "many" });
    expect(rt.repeatedRefusal()).toMatchObject({ tool: "get_price_history", refusals: 2 });
  });

  it.each(["tw-tools/1", "tw-tools/2"])("%s has no repair budget: every repeat is validated and answered as before", async (version) => {
    const { rt } = runtime({}, version);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push((await rt.dispatch("get_price_history", { symbol: "ALFA", bars: "many" })).text);
    expect(new Set(texts).size).toBe(1);
    expect(rt.repeatedRefusal()).toBeUndefined();
  });
});
