/**
 * Contract tests: every tool in the catalogue is enumerated and checked — descriptions on every
 * field (recursively), `additionalProperties: false` at every object level, non-empty required
 * strings, a valid example, a success summary, and identical renderings in the catalogue JSON and
 * the Anthropic / OpenAI formats. The checker is itself tested on broken contracts so these tests
 * can fail.
 */
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { CATALOGUE, contractOf, GROUNDED_TOOLS, STATE_CHANGING_TOOLS, TOOL_NAMES } from "../../src/tools/catalogue.js";
import { TOOL_ERROR_CODE_LIST, TOOL_ERROR_CODES } from "../../src/core/tool-error-codes.js";
import { ERROR_CONTRACT } from "../../src/agent/prompt.js";
import { modelDescription, modelSchema, plainSchema, renderAnthropic, renderCatalogue, renderCatalogueEntry, renderOpenAI } from "../../src/tools/render.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { ToolContract, ToolHandler } from "../../src/tools/types.js";
import { validateArguments } from "../../src/tools/validate.js";
import { checkContract, checkRenderings, type ContractProblem, formatProblems, type Renderings } from "./contract-check.js";

const TOOLS = CATALOGUE as readonly ToolContract[];

function renderingsOf(tool: ToolContract): Renderings {
  const entry = renderCatalogue().tools.find((t) => t.name === tool.name);
  if (!entry) throw new Error(`${tool.name} missing from renderCatalogue()`);
  return { catalogue: entry, anthropic: renderAnthropic(tool), openai: renderOpenAI(tool) };
}

/** A contract whose input schema is replaced by a (possibly mutated) plain JSON Schema. */
function withInput(tool: ToolContract, input: Record<string, unknown>, extra: Partial<ToolContract> = {}): ToolContract {
  return { ...tool, input: input as unknown as ToolContract["input"], ...extra };
}

const clone = <T>(v: T): T => structuredClone(v);
const problemsMatching = (ps: ContractProblem[], at: string, problem: RegExp) => ps.filter((p) => p.at === at && problem.test(p.problem));

describe("the catalogue", () => {
  it("has unique tool names, and contractOf finds each", () => {
    expect(new Set(TOOL_NAMES).size).toBe(TOOL_NAMES.length);
    for (const t of TOOLS) expect(contractOf(t.name)).toBe(t);
    expect(contractOf("no_such_tool")).toBeUndefined();
  });

  it("holds the model-facing tools of DESIGN section 3 with their kinds", () => {
    const kinds = Object.fromEntries(TOOLS.map((t) => [t.name, t.kind]));
    expect(kinds).toMatchObject({
      get_portfolio: "read",
      list_universe: "read",
      get_price_history: "read",
      recall: "read",
      check_orders: "dry_run",
      submit_orders: "final",
    });
    expect(TOOLS.filter((t) => t.kind === "final").map((t) => t.name)).toEqual(["submit_orders"]);
    // The account's own notes, watchlist and standing orders are written, never merely read (tw-tools/3).
    expect(
      TOOLS.filter((t) => t.kind === "write")
        .map((t) => t.name)
        .sort(),
    ).toEqual(["add_watchlist", "cancel_standing_order", "place_standing_order", "remember", "remove_watchlist"]);
    // `tools call` treats exactly the write and final tools as state-changing.
    expect([...STATE_CHANGING_TOOLS].sort()).toEqual([
      "add_watchlist",
      "cancel_standing_order",
      "place_standing_order",
      "remember",
      "remove_watchlist",
      "submit_orders",
    ]);
    expect([...GROUNDED_TOOLS].sort()).toEqual(["check_orders", "submit_orders"]);
  });
});

describe.each(TOOLS.map((t) => [t.name, t] as const))("contract of %s", (_name, tool) => {
  it("is structurally sound (descriptions, additionalProperties: false, non-empty strings, example, summary, output)", () => {
    const problems = checkContract(tool);
    expect(problems, formatProblems(problems)).toEqual([]);
  });

  it("renders identically in the catalogue, Anthropic and OpenAI formats", () => {
    const problems = checkRenderings(tool, renderingsOf(tool));
    expect(problems, formatProblems(problems)).toEqual([]);
  });

  it("has an example the runtime validator accepts, and rejects an unknown field next to it", () => {
    expect(validateArguments(tool.name, clone(tool.example))).toEqual({ valid: true, issues: [], missing: [] });
    const report = validateArguments(tool.name, { ...clone(tool.example), not_a_field: 1 });
    expect(report.valid).toBe(false);
    expect(report.issues).toContainEqual({ path: "$.not_a_field", message: "is not an allowed field" });
  });

  it("says only what this tool needs: its own text, an example only when its arguments nest objects, no error or success boilerplate", () => {
    const d = modelDescription(tool);
    expect(d.startsWith(tool.description)).toBe(true);
    const schema = modelSchema(tool);
    const nests = Object.values(schema.properties as Record<string, Record<string, unknown>>).some(
      (p) => p.type === "object" || (p.items as Record<string, unknown> | undefined)?.type === "object",
    );
    expect(d).toBe(nests ? `${tool.description}\nExample: ${JSON.stringify(tool.example)}` : tool.description);
    expect(d).not.toMatch(/success=false|retryable|On success/);
  });

  it("shows unions of constants as a plain enum, and nothing the model need not read (guards, a root description)", () => {
    const text = JSON.stringify(modelSchema(tool));
    expect(text).not.toMatch(/"const"/);
    expect(text).not.toMatch(/"(maxLength|maxItems|pattern|uniqueItems)"/);
    expect(modelSchema(tool).description).toBeUndefined();
  });
});

describe("the error contract, stated once in the system prompt", () => {
  it("names every envelope field, the pending rule, the repair budget, and forbids repeating non-retryable calls", () => {
    for (const field of ["success=false", "error", "error_code", "retryable", "correction", "abandon_error_codes", "abandon_explanation"]) {
      expect(ERROR_CONTRACT).toContain(field);
    }
    expect(ERROR_CONTRACT).toMatch(/never repeat one whose retryable is false/);
    expect(ERROR_CONTRACT).toMatch(/second identical refusal ends the run/);
  });

  it("is in no tool's description", () => {
    for (const t of TOOLS) expect(modelDescription(t)).not.toContain(ERROR_CONTRACT.slice(0, 40));
  });

  it("enums validate as the contract's unions did: the validator still refuses a value outside them", () => {
    const order = { symbol: "ALFA", side: "HOLD", quantity: 1, limit_price: 1, reason: "r", evidence_ids: ["e"] };
    expect(validateArguments("check_orders", { orders: [order] }).valid).toBe(false);
    expect(modelSchema(contractOf("check_orders") as ToolContract)).toMatchObject({
      properties: { orders: { items: { properties: { side: { type: "string", enum: ["BUY", "SELL"] } } } } },
    });
  });
});

describe("provider renderings from the runtime", () => {
  const noop: ToolHandler = () => ({ ok: true, data: {} });
  const rt = buildToolRuntime(Object.fromEntries(TOOL_NAMES.map((n) => [n, noop])), { runId: "r", tradingDay: "2008-03-17" });

  it("offers every tool to both providers, in catalogue order, with the contract's schema", () => {
    expect(rt.anthropicTools().map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(rt.openaiTools().map((t) => t.function.name)).toEqual(TOOL_NAMES);
    for (const [i, tool] of TOOLS.entries()) {
      expect(rt.anthropicTools()[i]).toEqual({ name: tool.name, description: modelDescription(tool), input_schema: modelSchema(tool) });
      expect(rt.openaiTools()[i]).toEqual({
        type: "function",
        function: { name: tool.name, description: modelDescription(tool), parameters: modelSchema(tool) },
      });
    }
  });

  it("sets strict only when asked", () => {
    expect(rt.anthropicTools().every((t) => !("strict" in t))).toBe(true);
    expect(rt.anthropicTools({ strict: true }).every((t) => t.strict === true)).toBe(true);
  });

  it("renders schemas as plain JSON (no TypeBox symbols, nothing JSON would drop)", () => {
    for (const t of rt.anthropicTools()) {
      expect(Object.getOwnPropertySymbols(t.input_schema)).toEqual([]);
      expect(JSON.parse(JSON.stringify(t.input_schema))).toEqual(t.input_schema);
    }
  });

  it("catalogue JSON carries the contract fields", () => {
    for (const tool of TOOLS) {
      const e = renderCatalogueEntry(tool);
      expect(e).toMatchObject({ name: tool.name, group: tool.group, kind: tool.kind, call_limit: tool.callLimit, example: tool.example });
      expect(e.success_summary).toBe(tool.successSummary);
      expect(e.output_schema).toEqual(plainSchema(tool.output));
    }
  });
});

describe("error codes", () => {
  it("are a closed set of snake_case codes, each with a retryable flag, meaning and instruction", () => {
    expect(TOOL_ERROR_CODE_LIST.length).toBeGreaterThan(5);
    for (const code of TOOL_ERROR_CODE_LIST) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      const spec = TOOL_ERROR_CODES[code];
      expect(typeof spec.retryable).toBe("boolean");
      expect(spec.meaning.trim().length).toBeGreaterThan(0);
      expect(spec.instruction.trim().length).toBeGreaterThan(0);
    }
    expect(renderCatalogue().error_codes).toEqual(TOOL_ERROR_CODES);
  });

  it("marks the budget, data and execution failures as not retryable", () => {
    for (const code of ["unknown_tool", "tool_call_limit_reached", "tool_execution_failed", "data_unavailable", "already_submitted"] as const) {
      expect(TOOL_ERROR_CODES[code].retryable, code).toBe(false);
    }
    for (const code of ["invalid_tool_arguments", "invalid_tool_arguments_json", "unknown_evidence_id", "pending_corrections"] as const) {
      expect(TOOL_ERROR_CODES[code].retryable, code).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The checker must be able to fail: broken contracts go through the same functions.
// ---------------------------------------------------------------------------------------------

describe("the contract checker catches broken contracts", () => {
  const submit = contractOf("submit_orders") as ToolContract;
  const submitSchema = plainSchema(submit.input);
  const order = "input.properties.orders.items";

  it("catches every defect of a deliberately broken contract at once", () => {
    const Broken = Type.Object(
      {
        ticker: Type.String(), // no description, required without minLength
        nested: Type.Object({ deep: Type.Integer({ description: "deep" }) }, { description: "open object" }), // additionalProperties missing
        tags: Type.Array(Type.String({ minLength: 1 }), { description: "tags" }), // items undescribed
      },
      { additionalProperties: false, description: "broken" },
    );
    const broken: ToolContract = {
      name: "broken_tool",
      group: "market",
      kind: "read",
      description: "A broken tool.",
      example: { ticker: 42 },
      successSummary: "   ",
      input: Broken,
      output: Type.Object({ ok: Type.Boolean() }),
      callLimit: 0,
    };
    const ps = checkContract(broken);
    const text = formatProblems(ps);
    expect(problemsMatching(ps, "input.properties.ticker", /has no description/), text).toHaveLength(1);
    expect(problemsMatching(ps, "input.properties.ticker", /required string without minLength/), text).toHaveLength(1);
    expect(problemsMatching(ps, "input.properties.nested", /additionalProperties: false/), text).toHaveLength(1);
    expect(problemsMatching(ps, "input.properties.nested", /required string/), text).toHaveLength(0);
    expect(problemsMatching(ps, "input.properties.tags.items", /has no description/), text).toHaveLength(1);
    expect(problemsMatching(ps, "example", /does not validate/), text).toHaveLength(1);
    expect(problemsMatching(ps, "successSummary", /empty/), text).toHaveLength(1);
    expect(problemsMatching(ps, "callLimit", /positive integer/), text).toHaveLength(1);
    expect(problemsMatching(ps, "output", /success: true/), text).toHaveLength(1);
  });

  // Single defects planted deep inside a real schema: the walk must reach array items and nested objects.
  const mutations: [string, (s: Record<string, unknown>) => void, string, RegExp][] = [
    [
      "an order field without description",
      (s) => delete at(s, "properties.orders.items.properties.reason").description,
      `${order}.properties.reason`,
      /has no description/,
    ],
    [
      "an evidence id (array item of an array item) without description",
      (s) => delete at(s, "properties.orders.items.properties.evidence_ids.items").description,
      `${order}.properties.evidence_ids.items`,
      /has no description/,
    ],
    [
      "an order object open to extra fields",
      (s) => {
        at(s, "properties.orders.items").additionalProperties = true;
      },
      order,
      /additionalProperties: false/,
    ],
    ["the root open to extra fields", (s) => delete s.additionalProperties, "input", /additionalProperties: false/],
    ["a required top-level string that may be empty", (s) => delete at(s, "properties.summary").minLength, "input.properties.summary", /minLength/],
    [
      "a required nested string with minLength 0",
      (s) => {
        at(s, "properties.orders.items.properties.symbol").minLength = 0;
      },
      `${order}.properties.symbol`,
      /minLength/,
    ],
    [
      "an empty-able string array element",
      (s) => delete at(s, "properties.orders.items.properties.evidence_ids.items").minLength,
      `${order}.properties.evidence_ids.items`,
      /minLength/,
    ],
    [
      "a union field without description",
      (s) => delete at(s, "properties.orders.items.properties.side").description,
      `${order}.properties.side`,
      /description/,
    ],
    [
      "a conditional requirement naming an undefined field",
      (s) => {
        s.dependentRequired = { abandon_error_codes: ["abandon_reason"] };
      },
      "input.dependentRequired.abandon_error_codes",
      /abandon_reason/,
    ],
    [
      "an if/then requirement naming an undefined field",
      (s) => {
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then, not a thenable
        s.allOf = [{ if: { required: ["abandon_error_codes"] }, then: { required: ["explanation"] } }];
      },
      "input.allOf[0].then",
      /explanation/,
    ],
    [
      "a nested object without additionalProperties inside an array item",
      (s) => {
        at(s, "properties.orders.items.properties").meta = { type: "object", description: "extra", properties: {} };
      },
      `${order}.properties.meta`,
      /additionalProperties: false/,
    ],
  ];

  it.each(mutations)("catches %s", (_label, mutate, where, problem) => {
    expect(checkContract(withInput(submit, submitSchema)), "the unmutated schema must be clean").toEqual([]);
    const schema = clone(submitSchema);
    mutate(schema);
    const ps = checkContract(withInput(submit, schema));
    expect(problemsMatching(ps, where, problem), formatProblems(ps) || "no problem reported").not.toHaveLength(0);
  });

  it("catches an example that breaks the schema (wrong type deep inside an order)", () => {
    const order = ((contractOf("check_orders") as ToolContract).example as { orders: Record<string, unknown>[] }).orders[0];
    const example = { ...clone(submit.example), orders: [{ ...order, quantity: "10" }] };
    const ps = checkContract({ ...submit, example });
    expect(problemsMatching(ps, "example", /quantity|must be number/), formatProblems(ps)).toHaveLength(1);
  });

  it("catches a schema that strict ajv refuses to compile", () => {
    const schema = clone(submitSchema);
    (at(schema, "properties.summary") as Record<string, unknown>).minLenght = 1; // typo'd keyword
    const ps = checkContract(withInput(submit, schema));
    expect(problemsMatching(ps, "input", /strict mode/), formatProblems(ps)).toHaveLength(1);
  });

  describe("rendering parity", () => {
    const good = () => clone(renderingsOf(submit));

    it("passes for the real renderings", () => {
      expect(checkRenderings(submit, good())).toEqual([]);
    });

    it("catches a renamed tool in one format", () => {
      const r = good();
      r.openai.function.name = "submit";
      expect(problemsMatching(checkRenderings(submit, r), "openai.name", /submit/)).toHaveLength(1);
    });

    it("catches a description that lost its example in one format", () => {
      const r = good();
      r.anthropic.description = submit.description;
      const ps = checkRenderings(submit, r);
      expect(problemsMatching(ps, "anthropic.description", /is not the tool's description/)).toHaveLength(1);
      expect(problemsMatching(ps, "anthropic.description", /differs from the catalogue/)).toHaveLength(1);
    });

    it("catches a schema that differs in one format", () => {
      const r = good();
      delete at(r.openai.function.parameters as Record<string, unknown>, "properties.orders.items").additionalProperties;
      const ps = checkRenderings(submit, r);
      expect(problemsMatching(ps, "openai.schema", /differs/).length).toBeGreaterThanOrEqual(1);
    });

    it("catches a non-function OpenAI tool", () => {
      const r = good();
      r.openai.type = "tool";
      expect(problemsMatching(checkRenderings(submit, r), "openai.type", /function/)).toHaveLength(1);
    });
  });
});

/** The schema object at a dotted path (test helper; throws on a wrong path). */
function at(schema: Record<string, unknown>, path: string): Record<string, unknown> {
  let cur: unknown = schema;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object") throw new Error(`no ${path}`);
    cur = (cur as Record<string, unknown>)[key];
  }
  if (cur === null || typeof cur !== "object") throw new Error(`no ${path}`);
  return cur as Record<string, unknown>;
}
