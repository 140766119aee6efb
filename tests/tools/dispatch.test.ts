/**
 * Dispatch through `buildToolRuntime` with spy handlers: the order of the checks, the failure
 * envelope, the per-run limit, grounding and the pending-correction bookkeeping.
 */
import fc from "fast-check";
import { describe, expect, it, type Mock, vi } from "vitest";
import { CATALOGUE, contractOf, TOOL_NAMES } from "../../src/tools/catalogue.js";
import { isToolErrorCode, TOOL_ERROR_CODE_LIST, TOOL_ERROR_CODES, type ToolErrorCode } from "../../src/core/tool-error-codes.js";
import { buildToolRuntime, type DispatchOutcome, type ToolRuntime } from "../../src/tools/runtime.js";
import type { HandlerResult, ToolCallContext, ToolContract, ToolHandler } from "../../src/tools/types.js";
import { validateArguments } from "../../src/tools/validate.js";
import { TwError } from "../../src/core/errors.js";

type Spy = Mock<ToolHandler>;
type Spies = Record<string, Spy>;

const EVIDENCE = "price:ALFA:2008-03-14";

function spies(overrides: Partial<Record<string, ToolHandler>> = {}): Spies {
  const out: Spies = {};
  for (const name of TOOL_NAMES) {
    out[name] = vi.fn<ToolHandler>(overrides[name] ?? (() => ({ ok: true, data: { tool: name } })));
  }
  return out;
}

function runtime(overrides: Partial<Record<string, ToolHandler>> = {}, budgetChars?: number): { rt: ToolRuntime; h: Spies } {
  const h = spies(overrides);
  const rt = buildToolRuntime(h, { runId: "run-1", tradingDay: "2008-03-17", ...(budgetChars ? { budgetChars } : {}) });
  return { rt, h };
}

const example = (tool: string): Record<string, unknown> => structuredClone((contractOf(tool) as ToolContract).example);
const spy = (h: Spies, name: string): Spy => h[name] as Spy;
const correctionOf = (o: DispatchOutcome) => o.envelope.correction as Record<string, unknown>;

/** An order that cites `ids` (defaults to the example's evidence). */
function order(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { symbol: "ALFA", side: "BUY", quantity: 10, limit_price: 101.5, reason: "momentum", evidence_ids: [EVIDENCE], ...over };
}

/** Make the example's evidence id known by having get_price_history return it. */
async function ground(rt: ToolRuntime): Promise<void> {
  const o = await rt.dispatch("get_price_history", { symbol: "ALFA" });
  expect(o.success).toBe(true);
}

function groundedRuntime(overrides: Partial<Record<string, ToolHandler>> = {}) {
  return runtime({ get_price_history: () => ({ ok: true, data: { evidence_id: EVIDENCE, symbol: "ALFA" }, evidenceIds: [EVIDENCE] }), ...overrides });
}

/** The failure envelope has exactly DESIGN section 3's fields, and the text the model sees says the same. */
function expectFailureEnvelope(o: DispatchOutcome, code: ToolErrorCode, tool: string): Record<string, unknown> {
  expect(o.success).toBe(false);
  expect(Object.keys(o.envelope).sort()).toEqual(["correction", "error", "error_code", "retryable", "success"]);
  expect(o.envelope).toMatchObject({ success: false, error_code: code, retryable: TOOL_ERROR_CODES[code].retryable });
  expect(typeof o.envelope.error).toBe("string");
  expect((o.envelope.error as string).length).toBeGreaterThan(0);
  const c = correctionOf(o);
  expect(c).toMatchObject({ tool });
  for (const key of ["tool", "instruction", "valid_arguments_example", "received_arguments"]) expect(c, key).toHaveProperty(key);
  expect(typeof c.instruction).toBe("string");
  expect(o.errorCode).toBe(code);
  expect(o.retryable).toBe(TOOL_ERROR_CODES[code].retryable);
  expect(o.error).toBe(o.envelope.error);
  if (!o.truncated) expect(JSON.parse(o.text)).toEqual(o.envelope);
  return c;
}

describe("building the runtime", () => {
  it("refuses to build while a catalogue tool has no handler (missing_handler)", () => {
    const h: Partial<Record<string, ToolHandler>> = { ...spies() };
    delete h.check_orders;
    delete h.recall;
    let caught: unknown;
    try {
      buildToolRuntime(h, { runId: "r", tradingDay: "2008-03-17" });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(TwError);
    expect((caught as TwError).code).toBe("missing_handler");
    expect((caught as TwError).message).toContain("check_orders");
    expect((caught as TwError).message).toContain("recall");
  });

  it("treats a non-function as a missing handler", () => {
    const h: Record<string, unknown> = { ...spies(), remember: "not a function" };
    expect(() => buildToolRuntime(h as Record<string, ToolHandler>, { runId: "r", tradingDay: "d" })).toThrow(/remember/);
  });
});

describe("unknown tools and malformed arguments", () => {
  it("answers an unknown tool with unknown_tool and the available tools", async () => {
    const { rt, h } = runtime();
    const o = await rt.dispatch("place_order", { symbol: "ALFA" });
    const c = expectFailureEnvelope(o, "unknown_tool", "place_order");
    expect(o.stage).toBe("unknown_tool");
    expect(c.available_tools).toEqual(TOOL_NAMES);
    expect(o.error).toContain("submit_orders");
    for (const s of Object.values(h)) expect(s).not.toHaveBeenCalled();
  });

  it("answers malformed JSON with invalid_tool_arguments_json and a preview of at most 500 characters", async () => {
    const { rt, h } = runtime();
    const raw = `{"symbol": "ALFA", "lookback_days": ${"9".repeat(5000)}`;
    const o = await rt.dispatch("get_price_history", raw);
    const c = expectFailureEnvelope(o, "invalid_tool_arguments_json", "get_price_history");
    expect(o.stage).toBe("parse");
    expect(typeof c.received_arguments).toBe("string");
    expect((c.received_arguments as string).length).toBeLessThanOrEqual(500);
    expect(raw.startsWith(c.received_arguments as string)).toBe(true);
    expect(c.valid_arguments_example).toEqual(example("get_price_history"));
    expect(spy(h, "get_price_history")).not.toHaveBeenCalled();
  });

  it.each([
    ["a JSON array", "[1, 2]"],
    ["a JSON number", "5"],
    ["a JSON string", '"ALFA"'],
    ["a raw array", [1, 2]],
    ["a raw number", 7],
  ])("answers %s with invalid_tool_arguments_json", async (_label, raw) => {
    const { rt, h } = runtime();
    const o = await rt.dispatch("get_price_history", raw);
    expectFailureEnvelope(o, "invalid_tool_arguments_json", "get_price_history");
    expect(spy(h, "get_price_history")).not.toHaveBeenCalled();
  });

  it("accepts arguments sent as a JSON string", async () => {
    const { rt, h } = runtime();
    const o = await rt.dispatch("get_price_history", '{"symbol":"ALFA","lookback_days":60}');
    expect(o.success).toBe(true);
    expect(o.stage).toBe("ok");
    expect(o.arguments).toEqual({ symbol: "ALFA", lookback_days: 60 });
    expect(spy(h, "get_price_history")).toHaveBeenCalledTimes(1);
    expect(spy(h, "get_price_history").mock.calls[0]?.[0]).toEqual({ symbol: "ALFA", lookback_days: 60 });
  });

  it("treats missing or empty arguments as {}", async () => {
    const { rt, h } = runtime();
    for (const raw of [undefined, null, "", "  "]) expect((await rt.dispatch("get_portfolio", raw)).success).toBe(true);
    expect(spy(h, "get_portfolio")).toHaveBeenCalledTimes(4);
  });
});

describe("schema validation", () => {
  it.each(CATALOGUE.map((t) => t.name))("never calls the %s handler on invalid input", async (name) => {
    const { rt, h } = runtime();
    for (const bad of [{ ...example(name), bogus_field: 1 }, { ...example(name), symbol: "" }, { ...example(name), orders: "all" }, { limit: -1 }]) {
      if (validateArguments(name, bad).valid) continue;
      const o = await rt.dispatch(name, bad);
      expectFailureEnvelope(o, "invalid_tool_arguments", name);
      expect(o.stage).toBe("validation");
    }
    expect(spy(h, name)).not.toHaveBeenCalled();
  });

  it("reports every issue at once, with JSON paths and the missing fields", async () => {
    const { rt, h } = runtime();
    const args = {
      orders: [
        { symbol: "ALFA", side: "buy", quantity: "5", limit_price: 0, evidence_ids: [] },
        { symbol: "BETA", side: "SELL", quantity: 1, limit_price: 10, reason: "r", evidence_ids: ["x"], venue: "dark" },
      ],
      extra: true,
    };
    const o = await rt.dispatch("submit_orders", args);
    const c = expectFailureEnvelope(o, "invalid_tool_arguments", "submit_orders");
    const issues = c.issues as { path: string; message: string }[];
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "$.summary",
        "$.extra",
        "$.orders[0].side",
        "$.orders[0].quantity",
        "$.orders[0].limit_price",
        "$.orders[0].reason",
        "$.orders[0].evidence_ids",
        "$.orders[1].venue",
      ]),
    );
    expect(new Set(paths.map((p, i) => `${p} ${issues[i]?.message}`)).size).toBe(issues.length); // no duplicates
    expect(issues.find((i) => i.path === "$.orders[0].side")?.message).toBe('must be one of ["BUY","SELL"]');
    expect(issues.find((i) => i.path === "$.extra")?.message).toBe("is not an allowed field");
    expect(c.missing_fields).toEqual(["$.summary", "$.orders[0].reason"]);
    expect(c.received_arguments).toEqual(args);
    expect(c.valid_arguments_example).toEqual(example("submit_orders"));
    expect(o.error).toMatch(/^\d+ problems in the arguments of submit_orders: /);
    expect(spy(h, "submit_orders")).not.toHaveBeenCalled();
  });

  it('is strict about types: true is not a number, "5" is not an integer', async () => {
    const { rt, h } = runtime();
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ["check_orders", { orders: [order({ quantity: true })] }, "$.orders[0].quantity", /must be number/],
      ["check_orders", { orders: [order({ limit_price: "101.5" })] }, "$.orders[0].limit_price", /must be number/],
      ["get_price_history", { symbol: "ALFA", lookback_days: "60" }, "$.lookback_days", /must be integer/],
      ["get_price_history", { symbol: "ALFA", lookback_days: 60.5 }, "$.lookback_days", /must be integer/],
      ["get_price_history", { symbol: "ALFA", lookback_days: true }, "$.lookback_days", /must be integer/],
      ["list_universe", { limit: null }, "$.limit", /must be integer/],
      ["recall", { kind: "LESSON" }, "$.kind", /must be one of/],
    ];
    for (const [tool, args, path, message] of cases) {
      const o = await rt.dispatch(tool, args);
      const c = expectFailureEnvelope(o, "invalid_tool_arguments", tool);
      expect(c.issues, `${tool} ${JSON.stringify(args)}`).toEqual(expect.arrayContaining([{ path, message: expect.stringMatching(message) }]));
    }
    for (const s of Object.values(h)) expect(s).not.toHaveBeenCalled();
  });

  it("enforces ranges, enums and non-empty strings", async () => {
    const { rt } = runtime();
    const bad: [string, Record<string, unknown>, string][] = [
      ["get_price_history", { symbol: "ALFA", lookback_days: 5 }, "$.lookback_days"],
      ["get_price_history", { symbol: "" }, "$.symbol"],
      ["get_price_history", { symbol: "AL FA" }, "$.symbol"],
      ["remember", { kind: "lesson", text: "" }, "$.text"],
      ["remember", { kind: "lesson", text: "t", supersedes: "4" }, "$.supersedes"],
      ["list_universe", { limit: 51 }, "$.limit"],
      ["check_orders", { orders: [] }, "$.orders"],
      ["check_orders", { orders: [order({ quantity: 0 })] }, "$.orders[0].quantity"],
      ["check_orders", { orders: [order({ evidence_ids: [EVIDENCE, EVIDENCE] })] }, "$.orders[0].evidence_ids"],
    ];
    for (const [tool, args, path] of bad) {
      const o = await rt.dispatch(tool, args);
      expect(o.errorCode, `${tool} ${JSON.stringify(args)}`).toBe("invalid_tool_arguments");
      expect((correctionOf(o).issues as { path: string }[]).map((i) => i.path)).toContain(path);
    }
  });

  it("counts string limits in UTF-16 code units (an emoji counts 2; minLength 1 still means non-empty)", () => {
    expect(validateArguments("remember", { kind: "lesson", text: "\u{1F600}".repeat(250) }).valid).toBe(true);
    const over = validateArguments("remember", { kind: "lesson", text: "\u{1F600}".repeat(251) });
    expect(over.issues).toEqual([{ path: "$.text", message: "must NOT have more than 500 characters" }]);
    expect(validateArguments("remember", { kind: "lesson", text: "\u{1F600}" }).valid).toBe(true);
  });

  it("requires abandon_explanation whenever abandon_error_codes is given (conditional requirement)", async () => {
    const { rt, h } = runtime();
    const o = await rt.dispatch("submit_orders", { orders: [], summary: "hold", abandon_error_codes: ["unknown_symbol"] });
    const c = expectFailureEnvelope(o, "invalid_tool_arguments", "submit_orders");
    expect(c.issues).toEqual([{ path: "$.abandon_explanation", message: "is required when abandon_error_codes is present" }]);
    expect(c.missing_fields).toEqual(["$.abandon_explanation"]);
    expect(spy(h, "submit_orders")).not.toHaveBeenCalled();
  });

  it("keeps a __proto__ key from becoming a way around additionalProperties", async () => {
    const { rt, h } = runtime();
    const o = await rt.dispatch("get_portfolio", '{"__proto__": {"admin": true}}');
    expect(o.errorCode).toBe("invalid_tool_arguments");
    expect(spy(h, "get_portfolio")).not.toHaveBeenCalled();
  });

  it("property: a handler sees only arguments the schema accepts", async () => {
    const { rt, h } = runtime();
    const argsArb = fc.oneof(
      fc.dictionary(fc.constantFrom("symbol", "lookback_days", "limit", "kind", "text", "orders", "summary", "x"), fc.jsonValue({ maxDepth: 2 })),
      fc.record(
        { symbol: fc.constantFrom("ALFA", "", "a b", 5), lookback_days: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.double(), fc.boolean()) },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOL_NAMES.filter((n) => n !== "submit_orders")), argsArb, async (tool, args) => {
        const before = spy(h, tool).mock.calls.length;
        const valid = validateArguments(tool, args).valid;
        const o = await rt.dispatch(tool, args);
        const called = spy(h, tool).mock.calls.length > before;
        if (!valid) {
          expect(called).toBe(false);
          expect(o.errorCode).toBe("invalid_tool_arguments");
        } else if (called) {
          expect(validateArguments(tool, spy(h, tool).mock.lastCall?.[0]).valid).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("handler results", () => {
  it("turns a handler exception into tool_execution_failed with the message and no stack trace", async () => {
    const { rt } = runtime({
      list_universe: () => {
        throw new Error("universe file unreadable");
      },
    });
    const o = await rt.dispatch("list_universe", {});
    const c = expectFailureEnvelope(o, "tool_execution_failed", "list_universe");
    expect(o.stage).toBe("handler");
    expect(o.error).toContain("universe file unreadable");
    expect(o.text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules|stack/);
    expect(JSON.stringify(o.envelope)).not.toMatch(/\n\s+at |\.ts:\d+/);
    expect(c.received_arguments).toEqual({});
  });

  it("turns an async rejection (and a thrown non-Error) into tool_execution_failed", async () => {
    const { rt } = runtime({
      recall: async () => {
        throw new Error("disk gone");
      },
      remember: () => {
        throw "plain string";
      },
    });
    expect((await rt.dispatch("recall", {})).error).toContain("disk gone");
    const o = await rt.dispatch("remember", example("remember"));
    expectFailureEnvelope(o, "tool_execution_failed", "remember");
    expect(o.error).toContain("plain string");
  });

  it.each(TOOL_ERROR_CODE_LIST.filter((c) => c !== "pending_corrections" && c !== "unknown_tool"))(
    "propagates a handler failure %s with the table's retryable flag",
    async (code) => {
      const { rt } = runtime({
        list_universe: () => ({ ok: false, code, message: `failed with ${code}`, details: { hint: 1 }, issues: [{ path: "$.sector", message: "m" }] }),
      });
      const o = await rt.dispatch("list_universe", {});
      const c = expectFailureEnvelope(o, code, "list_universe");
      expect(o.error).toBe(`failed with ${code}`);
      expect(c.instruction).toBe(TOOL_ERROR_CODES[code].instruction);
      expect(c.hint).toBe(1);
      expect(c.issues).toEqual([{ path: "$.sector", message: "m" }]);
    },
  );

  it("uses a handler's own instruction, and never lets details replace the core correction fields", async () => {
    const { rt } = runtime({
      get_price_history: () => ({
        ok: false,
        code: "unknown_symbol",
        message: "no ZZZ",
        instruction: "Use ALFA.",
        details: { tool: "other", received_arguments: "forged", valid_arguments_example: null, candidates: ["ALFA"] },
      }),
    });
    const o = await rt.dispatch("get_price_history", { symbol: "ZZZ" });
    const c = expectFailureEnvelope(o, "unknown_symbol", "get_price_history");
    expect(c).toMatchObject({ tool: "get_price_history", instruction: "Use ALFA.", received_arguments: { symbol: "ZZZ" }, candidates: ["ALFA"] });
    expect(c.valid_arguments_example).toEqual(example("get_price_history"));
  });

  it("maps a code outside the closed set to tool_execution_failed", async () => {
    const { rt } = runtime({ recall: () => ({ ok: false, code: "disk_full" as ToolErrorCode, message: "disk full" }) });
    const o = await rt.dispatch("recall", {});
    expectFailureEnvelope(o, "tool_execution_failed", "recall");
    expect(o.error).toBe("disk full");
  });

  it("answers a malformed handler result with tool_execution_failed instead of throwing", async () => {
    const { rt } = runtime({
      recall: () => undefined as unknown as HandlerResult,
      remember: () => ({ ok: true, data: [1, 2] }) as unknown as HandlerResult,
    });
    expectFailureEnvelope(await rt.dispatch("recall", {}), "tool_execution_failed", "recall");
    expectFailureEnvelope(await rt.dispatch("remember", example("remember")), "tool_execution_failed", "remember");
    expect(rt.callCount("recall")).toBe(0);
  });

  it("answers a result JSON cannot carry with tool_execution_failed instead of throwing", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { rt } = runtime({ recall: () => ({ ok: true, data: { n: 10n } }), list_universe: () => ({ ok: true, data: cyclic }) });
    const o = await rt.dispatch("recall", {});
    expectFailureEnvelope(o, "tool_execution_failed", "recall");
    expect(o.error).toMatch(/not JSON-serialisable/);
    expect(rt.callCount("recall")).toBe(0);
    expectFailureEnvelope(await rt.dispatch("list_universe", {}), "tool_execution_failed", "list_universe");
  });

  it("wraps a success as {success: true, ...data}, even when the payload carries its own success field", async () => {
    const { rt } = runtime({ recall: () => ({ ok: true, data: { success: false, notes: [], total: 0 } }) });
    const o = await rt.dispatch("recall", {});
    expect(o.success).toBe(true);
    expect(o.envelope).toEqual({ success: true, notes: [], total: 0 });
    expect(JSON.parse(o.text)).toEqual(o.envelope);
    expect(o.data).toEqual({ success: false, notes: [], total: 0 });
    expect(o.truncated).toBe(false);
    expect(o.errorCode).toBeUndefined();
  });

  it("passes the run context to the handler", async () => {
    const { rt, h } = groundedRuntime();
    await ground(rt);
    await rt.dispatch("get_portfolio", {});
    const ctx = spy(h, "get_portfolio").mock.calls[0]?.[1] as ToolCallContext;
    expect(ctx).toMatchObject({ runId: "run-1", tradingDay: "2008-03-17" });
    expect([...ctx.seenEvidence]).toEqual([EVIDENCE]);
  });

  it("compacts a big result within the budget and says so", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ date: `d${i}`, close: 100 + i / 100 }));
    const { rt } = runtime({ list_universe: () => ({ ok: true, data: { instruments: rows } }) }, 4000);
    const o = await rt.dispatch("list_universe", {});
    expect(o.success).toBe(true);
    expect(o.truncated).toBe(true);
    expect(o.text.length).toBeLessThanOrEqual(4000);
    const parsed = JSON.parse(o.text);
    expect(parsed.success).toBe(true);
    expect(parsed._truncation.original_characters).toBe(JSON.stringify(o.envelope).length);
    expect((o.envelope.instruments as unknown[]).length).toBe(3000); // the envelope stays whole
  });
});

describe("the per-run call limit", () => {
  it("counts successes only; the call after the limit is tool_call_limit_reached (not retryable)", async () => {
    let fail = true;
    const { rt, h } = runtime({ remember: () => (fail ? { ok: false, code: "note_not_found", message: "no n-9" } : { ok: true, data: {} }) });
    const limit = (contractOf("remember") as ToolContract).callLimit as number;
    expect(limit).toBe(5);
    for (let i = 0; i < 3; i++) expect((await rt.dispatch("remember", example("remember"))).success).toBe(false);
    expect((await rt.dispatch("remember", { kind: "nope" })).errorCode).toBe("invalid_tool_arguments");
    fail = false;
    for (let i = 0; i < limit; i++) expect((await rt.dispatch("remember", example("remember"))).success).toBe(true);
    expect(rt.callCount("remember")).toBe(limit);
    const o = await rt.dispatch("remember", example("remember"));
    const c = expectFailureEnvelope(o, "tool_call_limit_reached", "remember");
    expect(o.stage).toBe("limit");
    expect(o.retryable).toBe(false);
    expect(c.received_arguments).toEqual(example("remember"));
    expect(spy(h, "remember")).toHaveBeenCalledTimes(3 + limit);
    // Other tools keep their own budget.
    expect((await rt.dispatch("recall", {})).success).toBe(true);
  });

  it("holds under concurrent calls: never more successful handler runs than the limit", async () => {
    const { rt, h } = runtime({
      check_orders: async () => {
        await new Promise((r) => setTimeout(r, 5));
        return { ok: true, data: {} };
      },
      get_price_history: () => ({ ok: true, data: { evidence_id: EVIDENCE, symbol: "ALFA" }, evidenceIds: [EVIDENCE] }),
    });
    await ground(rt);
    const limit = (contractOf("check_orders") as ToolContract).callLimit as number;
    const outs = await Promise.all(Array.from({ length: limit + 3 }, () => rt.dispatch("check_orders", { orders: [order()] })));
    expect(outs.filter((o) => o.success)).toHaveLength(limit);
    expect(outs.filter((o) => o.errorCode === "tool_call_limit_reached")).toHaveLength(3);
    expect(spy(h, "check_orders")).toHaveBeenCalledTimes(limit);
  });

  it("frees the slot of a concurrent call that failed", async () => {
    let n = 0;
    const { rt } = runtime({
      recall: async () => {
        const mine = ++n;
        await new Promise((r) => setTimeout(r, 2));
        return mine === 1 ? { ok: false, code: "note_not_found", message: "x" } : { ok: true, data: {} };
      },
    });
    const limit = (contractOf("recall") as ToolContract).callLimit as number;
    await Promise.all(Array.from({ length: limit }, () => rt.dispatch("recall", {})));
    expect(rt.callCount("recall")).toBe(limit - 1);
    expect((await rt.dispatch("recall", {})).success).toBe(true);
    expect((await rt.dispatch("recall", {})).errorCode).toBe("tool_call_limit_reached");
  });
});

describe("grounding of evidence ids", () => {
  it("refuses an order citing an id no tool returned (unknown_evidence_id, retryable), without calling the handler", async () => {
    const { rt, h } = runtime();
    const o = await rt.dispatch("check_orders", { orders: [order(), order({ evidence_ids: ["news:1", EVIDENCE] })] });
    const c = expectFailureEnvelope(o, "unknown_evidence_id", "check_orders");
    expect(o.stage).toBe("grounding");
    expect(o.retryable).toBe(true);
    expect(c.issues).toEqual([
      { path: "$.orders[0].evidence_ids[0]", message: `"${EVIDENCE}" was not returned in this run` },
      { path: "$.orders[1].evidence_ids[0]", message: '"news:1" was not returned in this run' },
      { path: "$.orders[1].evidence_ids[1]", message: `"${EVIDENCE}" was not returned in this run` },
    ]);
    expect(spy(h, "check_orders")).not.toHaveBeenCalled();
  });

  it("passes once a handler returned the id in evidenceIds", async () => {
    const { rt, h } = groundedRuntime();
    expect((await rt.dispatch("check_orders", { orders: [order()] })).errorCode).toBe("unknown_evidence_id");
    await ground(rt);
    expect(rt.seenEvidence().has(EVIDENCE)).toBe(true);
    const o = await rt.dispatch("check_orders", { orders: [order()] });
    expect(o.success).toBe(true);
    expect(spy(h, "check_orders")).toHaveBeenCalledTimes(1);
  });

  it("does not learn evidence ids from a failed call", async () => {
    const { rt } = runtime({ get_price_history: () => ({ ok: false, code: "data_unavailable", message: "none" }) });
    await rt.dispatch("get_price_history", { symbol: "ALFA" });
    expect(rt.seenEvidence().size).toBe(0);
  });

  it("grounds submit_orders too", async () => {
    const { rt, h } = runtime();
    const o = await rt.dispatch("submit_orders", { orders: [order()], summary: "buy" });
    expect(o.errorCode).toBe("unknown_evidence_id");
    expect(spy(h, "submit_orders")).not.toHaveBeenCalled();
  });
});

describe("pending corrections", () => {
  it("a retryable failure makes the tool pending; success clears it", async () => {
    let ok = false;
    const { rt } = runtime({ get_price_history: () => (ok ? { ok: true, data: {} } : { ok: false, code: "unknown_symbol", message: "no ZZZ" }) });
    await rt.dispatch("get_price_history", { symbol: "ZZZ" });
    expect(rt.pending()).toEqual([{ tool: "get_price_history", error_code: "unknown_symbol", error: "no ZZZ" }]);
    ok = true;
    await rt.dispatch("get_price_history", { symbol: "ALFA" });
    expect(rt.pending()).toEqual([]);
  });

  it("a non-retryable failure clears it", async () => {
    let code: ToolErrorCode = "unknown_symbol";
    const { rt } = runtime({ get_price_history: () => ({ ok: false, code, message: code }) });
    await rt.dispatch("get_price_history", { symbol: "ZZZ" });
    expect(rt.pending().map((p) => p.error_code)).toEqual(["unknown_symbol"]);
    code = "data_unavailable";
    await rt.dispatch("get_price_history", { symbol: "ZZZ" });
    expect(rt.pending()).toEqual([]);
  });

  it("validation failures are pending too, and the latest retryable failure replaces the earlier one", async () => {
    const { rt } = runtime({ recall: () => ({ ok: false, code: "note_not_found", message: "gone" }) });
    await rt.dispatch("recall", { limit: 0 });
    expect(rt.pending()).toEqual([{ tool: "recall", error_code: "invalid_tool_arguments", error: expect.any(String) }]);
    await rt.dispatch("recall", {});
    expect(rt.pending()).toEqual([{ tool: "recall", error_code: "note_not_found", error: "gone" }]);
  });

  it("refuses submit_orders with pending_corrections listing what is pending", async () => {
    const { rt, h } = groundedRuntime({ list_universe: () => ({ ok: false, code: "unknown_symbol", message: "no ZZZ" }) });
    await ground(rt);
    await rt.dispatch("list_universe", { symbols: ["ZZZ"] });
    await rt.dispatch("check_orders", { orders: [order({ evidence_ids: ["made-up"] })] });
    expect(rt.pending().map((p) => `${p.tool}:${p.error_code}`)).toEqual(["list_universe:unknown_symbol", "check_orders:unknown_evidence_id"]);

    const o = await rt.dispatch("submit_orders", { orders: [], summary: "hold" });
    const c = expectFailureEnvelope(o, "pending_corrections", "submit_orders");
    expect(o.stage).toBe("pending");
    expect(c.pending).toEqual(rt.pending());
    expect(o.error).toContain("list_universe (unknown_symbol)");
    expect(o.error).toContain("check_orders (unknown_evidence_id)");
    expect(spy(h, "submit_orders")).not.toHaveBeenCalled();

    // Abandoning only one code still refuses, listing the other.
    const partial = await rt.dispatch("submit_orders", {
      orders: [],
      summary: "hold",
      abandon_error_codes: ["unknown_symbol"],
      abandon_explanation: "ZZZ is not tradable",
    });
    expect(partial.errorCode).toBe("pending_corrections");
    expect(correctionOf(partial).pending).toEqual([expect.objectContaining({ tool: "check_orders", error_code: "unknown_evidence_id" })]);
    expect(spy(h, "submit_orders")).not.toHaveBeenCalled();
  });

  it("lets submit_orders through when abandon_error_codes covers every pending code, with an explanation", async () => {
    const { rt, h } = runtime({ list_universe: () => ({ ok: false, code: "unknown_symbol", message: "no ZZZ" }) });
    await rt.dispatch("list_universe", { symbols: ["ZZZ"] });
    await rt.dispatch("recall", { limit: 99 });
    const args = {
      orders: [],
      summary: "hold",
      abandon_error_codes: ["unknown_symbol", "invalid_tool_arguments"],
      abandon_explanation: "ZZZ is not in the universe; notes are not needed today.",
    };
    const o = await rt.dispatch("submit_orders", args);
    expect(o.success).toBe(true);
    expect(spy(h, "submit_orders")).toHaveBeenCalledTimes(1);
    const ctx = spy(h, "submit_orders").mock.calls[0]?.[1] as ToolCallContext;
    expect(ctx.pending.map((p) => p.error_code).sort()).toEqual(["invalid_tool_arguments", "unknown_symbol"]);
  });

  it("the abandon codes without an explanation fail validation before the pending check", async () => {
    const { rt, h } = runtime({ list_universe: () => ({ ok: false, code: "unknown_symbol", message: "no ZZZ" }) });
    await rt.dispatch("list_universe", {});
    const o = await rt.dispatch("submit_orders", { orders: [], summary: "hold", abandon_error_codes: ["unknown_symbol"] });
    expect(o.errorCode).toBe("invalid_tool_arguments");
    expect(correctionOf(o).missing_fields).toEqual(["$.abandon_explanation"]);
    expect(spy(h, "submit_orders")).not.toHaveBeenCalled();
  });

  it("a failed submit_orders does not make the final tool itself pending", async () => {
    const { rt } = runtime({ submit_orders: () => ({ ok: false, code: "orders_blocked", message: "blocked" }) });
    const o = await rt.dispatch("submit_orders", { orders: [], summary: "hold" });
    expect(o.errorCode).toBe("orders_blocked");
    expect(rt.pending()).toEqual([]);
  });

  it("unknown tools are never pending", async () => {
    const { rt } = runtime();
    await rt.dispatch("nope", {});
    expect(rt.pending()).toEqual([]);
  });
});

describe("outcomes", () => {
  it("every failure code a dispatch produces is in the closed set", async () => {
    const { rt } = runtime({ recall: () => ({ ok: false, code: "whatever" as ToolErrorCode, message: "m" }) });
    const outs = await Promise.all([
      rt.dispatch("nope", {}),
      rt.dispatch("recall", "{"),
      rt.dispatch("recall", { limit: "1" }),
      rt.dispatch("recall", {}),
      rt.dispatch("check_orders", { orders: [order()] }),
    ]);
    for (const o of outs) {
      expect(o.success).toBe(false);
      expect(isToolErrorCode(String(o.errorCode))).toBe(true);
    }
  });

  it("reports a duration from the injected clock", async () => {
    let t = 1000;
    const h = spies();
    const rt = buildToolRuntime(h, { runId: "r", tradingDay: "d", now: () => (t += 2) });
    const o = await rt.dispatch("get_portfolio", {});
    expect(o.durationMs).toBe(2);
  });
});
