/**
 * Empty optional lists are accepted as absent (tw-tools/3): `[]` for an optional list that needs an
 * item reaches the handler as if it were absent, for every tool of the catalogue; a required list
 * and a list that allows `[]` are left as they are; tw-tools/1 and /2 still refuse it (replays of
 * their runs answer as the recorded run was answered).
 */
import { describe, expect, it, vi } from "vitest";
import { CATALOGUE, TOOL_NAMES } from "../../src/tools/catalogue.js";
import { withoutEmptyOptionalLists } from "../../src/tools/empty-lists.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";

const EVIDENCE = "price:ALFA:2008-03-14";

function runtime(contractVersion?: string) {
  const handlers: Record<string, ReturnType<typeof vi.fn<ToolHandler>>> = {};
  for (const name of TOOL_NAMES) {
    handlers[name] = vi.fn<ToolHandler>(() =>
      name === "get_price_history"
        ? { ok: true, data: { evidence_id: EVIDENCE, symbol: "ALFA" }, evidenceIds: [EVIDENCE] }
        : { ok: true, data: { tool: name } },
    );
  }
  const rt = buildToolRuntime(handlers, { runId: "run-1", tradingDay: "2008-03-17", ...(contractVersion ? { contractVersion } : {}) });
  return { rt, handlers };
}

/** The optional top-level lists of a tool's input schema that need at least one item. */
function optionalListsNeedingAnItem(input: { properties: Record<string, unknown>; required?: string[] }): string[] {
  return Object.entries(input.properties)
    .filter(([k, p]) => !(input.required ?? []).includes(k) && (p as { type?: string }).type === "array" && ((p as { minItems?: number }).minItems ?? 0) >= 1)
    .map(([k]) => k);
}

const SUBMIT_HOLD = { orders: [], summary: "Nothing worth buying today." };

describe("empty optional lists are accepted as absent (tw-tools/3)", () => {
  it("submit_orders with abandon_error_codes: [] is accepted: a hold, the handler sees no abandon_error_codes", async () => {
    const { rt, handlers } = runtime();
    const out = await rt.dispatch("submit_orders", { ...SUBMIT_HOLD, abandon_error_codes: [] });
    expect(out).toMatchObject({ success: true, stage: "ok" });
    expect(handlers.submit_orders).toHaveBeenCalledTimes(1);
    expect(handlers.submit_orders?.mock.calls[0]?.[0]).toEqual(SUBMIT_HOLD);
  });

  it("also as a JSON string, and beside an abandon_explanation", async () => {
    const { rt } = runtime();
    const out = await rt.dispatch("submit_orders", JSON.stringify({ ...SUBMIT_HOLD, abandon_error_codes: [], abandon_explanation: "none pending" }));
    expect(out.success).toBe(true);
  });

  it("every tool of the catalogue: each optional list that needs an item accepts [] (the handler runs without it)", async () => {
    const tools = CATALOGUE.map((t) => ({ name: t.name, example: t.example, lists: optionalListsNeedingAnItem(t.input) })).filter((t) => t.lists.length > 0);
    // The catalogue has such lists today (list_universe, screen_universe, submit_orders): the loop is not vacuous.
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["list_universe", "screen_universe", "submit_orders"]));
    for (const t of tools) {
      const { rt, handlers } = runtime();
      await rt.dispatch("get_price_history", { symbol: "ALFA" }); // grounds the example's evidence
      const args: Record<string, unknown> = structuredClone(t.example);
      for (const list of t.lists) args[list] = [];
      const out = await rt.dispatch(t.name, args);
      expect({ tool: t.name, success: out.success, error: out.error }).toEqual({ tool: t.name, success: true, error: undefined });
      const seen = handlers[t.name]?.mock.calls.at(-1)?.[0] as Record<string, unknown>;
      for (const list of t.lists) expect(Object.hasOwn(seen, list)).toBe(false);
    }
  });

  it("a required list stays required: check_orders with orders: [] is still refused", async () => {
    const { rt, handlers } = runtime();
    const out = await rt.dispatch("check_orders", { orders: [] });
    expect(out).toMatchObject({ success: false, stage: "validation", errorCode: "invalid_tool_arguments" });
    expect(handlers.check_orders).not.toHaveBeenCalled();
  });

  it("a list that allows [] keeps it (submit_orders' orders: [] is a hold, not a missing field)", () => {
    const submit = CATALOGUE.find((t) => t.name === "submit_orders");
    expect(withoutEmptyOptionalLists(submit?.input, { ...SUBMIT_HOLD })).toEqual(SUBMIT_HOLD);
  });

  it("nested objects and objects inside lists are walked; the arguments are never mutated", () => {
    const schema = {
      type: "object",
      properties: {
        inner: { type: "object", properties: { tags: { type: "array", minItems: 1 } } },
        rows: { type: "array", items: { type: "object", properties: { ids: { type: "array", minItems: 1 } }, required: [] } },
      },
    };
    const args = { inner: { tags: [] }, rows: [{ ids: [] }, { ids: ["a"] }] };
    const before = structuredClone(args);
    expect(withoutEmptyOptionalLists(schema, args)).toEqual({ inner: {}, rows: [{}, { ids: ["a"] }] });
    expect(args).toEqual(before);
  });

  it.each(["tw-tools/1", "tw-tools/2"])("%s still refuses abandon_error_codes: [] (frozen: replays stay request-identical)", async (version) => {
    const { rt, handlers } = runtime(version);
    const out = await rt.dispatch("submit_orders", { ...SUBMIT_HOLD, abandon_error_codes: [] });
    expect(out).toMatchObject({ success: false, stage: "validation", errorCode: "invalid_tool_arguments" });
    expect(out.error).toContain("$.abandon_error_codes");
    expect(handlers.submit_orders).not.toHaveBeenCalled();
  });
});
