/**
 * Compaction: for arbitrary JSON values and budgets the output parses, fits the budget, keeps the
 * envelope fields and says what was cut; results within the budget are passed through untouched.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactResult, DEFAULT_BUDGET_CHARS, jsonLength, MIN_BUDGET_CHARS } from "../../src/tools/compaction.js";
import { failureEnvelope } from "../../src/tools/envelope.js";

const ENVELOPE_KEYS = ["success", "error", "error_code", "retryable", "correction"] as const;

/** Strings heavy in characters JSON escapes (or expands): the budget must hold for them too. */
const nastyString = fc.string({
  unit: fc.constantFrom("a", "Z", " ", '"', "\\", "\n", "\u0000", "\u001f", "é", "€", "\u2028", "\ud83d\ude00", "\ud800", "\udfff"),
  maxLength: 400,
});
const anyString = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 }), nastyString);

const jsonLeaf = fc.oneof(
  anyString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.1, 101.25, 1e21, 1e-7, -5e-324, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
);

const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    jsonLeaf,
    fc.array(tie("json"), { maxLength: 12 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), anyString), tie("json"), { maxKeys: 8 }),
  ),
}));

/** A payload big enough to need compaction most of the time. */
const bigPayload = fc.oneof(
  fc.array(fc.record({ date: fc.string({ maxLength: 10 }), close: fc.double({ noNaN: true, noDefaultInfinity: true }), note: anyString }), {
    minLength: 20,
    maxLength: 400,
  }),
  fc.string({ minLength: 1000, maxLength: 30_000 }),
  nastyString.map((s) => s.repeat(40)),
  fc.array(json, { minLength: 10, maxLength: 60 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 400 }), json, { minKeys: 10, maxKeys: 120 }),
);

const correction = fc.oneof(
  fc.record(
    {
      tool: anyString,
      instruction: anyString,
      valid_arguments_example: json,
      received_arguments: fc.oneof(json, bigPayload),
      issues: fc.array(fc.record({ path: anyString, message: anyString }), { maxLength: 200 }),
      missing_fields: fc.array(anyString, { maxLength: 50 }),
    },
    { requiredKeys: ["tool", "instruction"] },
  ),
  json,
);

/** Envelope-like objects with a random subset of the envelope fields, plus a big payload. */
const envelope = fc
  .record(
    {
      success: fc.oneof(fc.boolean(), json),
      error: fc.oneof(anyString, fc.string({ minLength: 2000, maxLength: 20_000 }), json),
      error_code: fc.oneof(fc.stringMatching(/^[a-z][a-z_]{0,39}$/), anyString),
      retryable: fc.oneof(fc.boolean(), json),
      correction,
    },
    { requiredKeys: [] },
  )
  .chain((env) =>
    fc.record({ payload: bigPayload, key: fc.constantFrom("data", "history", "instruments", "__proto__", "_truncation") }).map(({ payload, key }) => {
      const out: Record<string, unknown> = { ...env };
      Object.defineProperty(out, key, { value: payload, enumerable: true, writable: true, configurable: true });
      return out;
    }),
  );

const value = fc.oneof({ weight: 1, arbitrary: json }, { weight: 1, arbitrary: fc.jsonValue() }, { weight: 6, arbitrary: envelope });
/** Budgets in [512, 20000], biased towards the tight end where the last resorts are reached. */
const budget = fc.oneof(fc.integer({ min: 512, max: 20_000 }), fc.integer({ min: 512, max: 1500 }));

function checkCompaction(v: unknown, b: number): void {
  const full = JSON.stringify(v);
  const out = compactResult(v, b);
  const parsed: unknown = JSON.parse(out.text); // always valid JSON
  expect(out.text.length).toBeLessThanOrEqual(b);
  if (full.length <= b) {
    expect(out.truncated).toBe(false);
    expect(out.text).toBe(full); // byte-identical
    return;
  }
  expect(out.truncated).toBe(true);
  expect(out.originalChars).toBe(full.length);
  const obj = parsed as Record<string, unknown>;
  const t = obj._truncation as Record<string, unknown>;
  expect(t).toMatchObject({ truncated: true, original_characters: full.length });
  if (v !== null && typeof v === "object" && !Array.isArray(v)) {
    const src = v as Record<string, unknown>;
    for (const key of ENVELOPE_KEYS) {
      if (!Object.hasOwn(src, key)) continue;
      expect(Object.hasOwn(obj, key), `kept ${key}`).toBe(true);
      const original = src[key];
      // Booleans (success, retryable) and short error codes survive unchanged.
      if (typeof original === "boolean") expect(obj[key]).toBe(original);
      if (key === "error_code" && typeof original === "string" && /^[a-z][a-z_]{0,39}$/.test(original)) expect(obj[key]).toBe(original);
    }
  }
}

describe("compactResult (properties)", () => {
  it("parses, fits the budget, keeps the envelope fields and marks truncation", () => {
    fc.assert(
      fc.property(value, budget, (v, b) => checkCompaction(v, b)),
      { numRuns: 500 },
    );
  });

  it("holds for fast-check's own JSON values across the whole budget range", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), budget, (v, b) => checkCompaction(v, b)),
      { numRuns: 400 },
    );
  });

  it("holds for real failure envelopes with huge received arguments and issue lists", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("invalid_tool_arguments", "unknown_evidence_id", "tool_execution_failed", "pending_corrections") as fc.Arbitrary<
          "invalid_tool_arguments" | "unknown_evidence_id" | "tool_execution_failed" | "pending_corrections"
        >,
        anyString,
        bigPayload,
        fc.array(fc.record({ path: anyString, message: anyString }), { maxLength: 300 }),
        budget,
        (code, message, received, issues, b) => {
          const env = failureEnvelope({ code, message, tool: "submit_orders", example: { orders: [] }, received, issues, missing: ["$.summary"] });
          checkCompaction(env, b);
          const parsed = JSON.parse(compactResult(env, b).text);
          expect(parsed).toMatchObject({ success: false, error_code: code, retryable: env.retryable });
          expect(parsed.correction).toBeDefined();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("jsonLength equals JSON.stringify(v).length (the size is measured, not formatted)", () => {
    fc.assert(
      fc.property(fc.oneof(json, fc.jsonValue(), envelope), (v) => {
        expect(jsonLength(v)).toBe(JSON.stringify(v).length);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.double(), (d) => {
        expect(jsonLength(d)).toBe(JSON.stringify(d).length);
        expect(jsonLength([d, { d }])).toBe(JSON.stringify([d, { d }]).length);
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 8 }), (m, k) => {
        const d = m / 10 ** k;
        expect(jsonLength(d)).toBe(JSON.stringify(d).length);
      }),
      { numRuns: 5000 },
    );
  });

  it("jsonLength follows JSON.stringify for what JSON cannot say directly", () => {
    const odd = {
      u: undefined,
      f: () => 1,
      s: Symbol("s"),
      arr: [undefined, () => 1, Number.NaN, Number.POSITIVE_INFINITY, -0],
      d: new Date(0),
      m: new Map([[1, 2]]),
      boxed: new Number(5),
      custom: { toJSON: () => ({ replaced: true }) },
      nullProto: Object.assign(Object.create(null), { a: 1 }),
    };
    expect(jsonLength(odd)).toBe(JSON.stringify(odd).length);
    expect(jsonLength(undefined)).toBeUndefined();
    // Records sharing keys, some with values JSON drops, nested records of another shape between them.
    const rows = Array.from({ length: 50 }, (_, i) => ({ a: i, b: i % 7 === 0 ? undefined : `s${i}`, c: i % 5 === 0 ? { a: 1 } : null }));
    expect(jsonLength(rows)).toBe(JSON.stringify(rows).length);
    expect(jsonLength([{}, { a: 1 }, {}, { a: undefined }, { a: 2, b: 3 }])).toBe(JSON.stringify([{}, { a: 1 }, {}, { a: undefined }, { a: 2, b: 3 }]).length);
    expect(() => jsonLength({ n: 1n })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { cyclic };
    expect(() => jsonLength(cyclic)).toThrow();
  });
});

describe("compactResult (examples)", () => {
  /** A 100 KB price history: what get_price_history's raw data would look like. */
  function priceHistory(bytes: number): Record<string, unknown> {
    const rows: Record<string, unknown>[] = [];
    const out = { success: true, symbol: "ALFA", as_of: "2008-03-14", history: rows };
    for (let i = 0; i % 100 !== 0 || JSON.stringify(out).length < bytes; i++) {
      const base = 100 + Math.round(Math.sin(i / 9) * 1000) / 100;
      const date = `2008-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`;
      rows.push({ date, open: base, high: base + 1.25, low: base - 0.75, close: base + 0.5, volume: 100_000 + i });
    }
    return out;
  }

  it("compacts a 100 KB price history array, reporting the items kept per array", () => {
    const v = priceHistory(100_000);
    const full = JSON.stringify(v);
    expect(full.length).toBeGreaterThanOrEqual(100_000);
    const out = compactResult(v, DEFAULT_BUDGET_CHARS);
    const parsed = JSON.parse(out.text);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(DEFAULT_BUDGET_CHARS);
    expect(parsed.success).toBe(true);
    expect(parsed.symbol).toBe("ALFA");
    const t = parsed._truncation;
    expect(t.original_characters).toBe(full.length);
    expect([8, 5, 3, 1]).toContain(t.list_items_kept_per_array);
    expect(t.instruction).toMatch(/Narrow the query/);
    const history = parsed.history as unknown[];
    expect(history.slice(0, t.list_items_kept_per_array)).toEqual((v.history as unknown[]).slice(0, t.list_items_kept_per_array));
    expect(history.at(-1)).toBe(`…[+${(v.history as unknown[]).length - t.list_items_kept_per_array} more items]`);
  });

  it("keeps a huge error envelope's fields (the anchor's last resort dropped them)", () => {
    const env = failureEnvelope({
      code: "invalid_tool_arguments",
      message: `${"x".repeat(50_000)} is wrong`,
      tool: "submit_orders",
      example: { orders: [], summary: "hold" },
      received: priceHistory(100_000),
      issues: Array.from({ length: 2000 }, (_, i) => ({ path: `$.orders[${i}].quantity`, message: "must be number" })),
      missing: Array.from({ length: 500 }, (_, i) => `$.orders[${i}].reason`),
    });
    for (const b of [MIN_BUDGET_CHARS, 1000, 3000, DEFAULT_BUDGET_CHARS]) {
      const out = compactResult(env, b);
      const parsed = JSON.parse(out.text);
      expect(out.text.length, `budget ${b}`).toBeLessThanOrEqual(b);
      expect(parsed).toMatchObject({ success: false, error_code: "invalid_tool_arguments", retryable: true });
      expect(typeof parsed.error).toBe("string");
      expect(parsed.correction).toMatchObject({ tool: "submit_orders" });
      expect(typeof parsed.correction.instruction).toBe("string");
      expect(parsed._truncation.original_characters).toBe(JSON.stringify(env).length);
    }
  });

  it("keeps the envelope even when escape-heavy envelope strings defeat every level", () => {
    const nasty = "\u0000".repeat(5000);
    const env = { success: false, error: nasty, error_code: "tool_execution_failed", retryable: false, correction: { tool: nasty, instruction: nasty } };
    const out = compactResult(env, MIN_BUDGET_CHARS);
    const parsed = JSON.parse(out.text);
    expect(out.text.length).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(parsed).toMatchObject({ success: false, error_code: "tool_execution_failed", retryable: false });
    for (const key of ENVELOPE_KEYS) expect(parsed).toHaveProperty(key);
  });

  it("passes small results through unchanged, including non-objects", () => {
    for (const v of [{ success: true, a: [1, 2, 3] }, [1, 2], "text", 42, null, true]) {
      expect(compactResult(v, 1000)).toEqual({ text: JSON.stringify(v), truncated: false, originalChars: JSON.stringify(v).length });
    }
  });

  it("wraps a big non-object result as {value} so _truncation has a home", () => {
    const arr = Array.from({ length: 5000 }, (_, i) => i);
    const parsed = JSON.parse(compactResult(arr, 1000).text);
    expect(parsed.value.slice(0, 8)).toEqual(arr.slice(0, 8));
    expect(parsed._truncation.original_characters).toBe(JSON.stringify(arr).length);
  });

  it("raises budgets below the minimum and ignores a budget that is not a number", () => {
    const v = { success: true, text: "y".repeat(3000) };
    expect(compactResult(v, 10).text.length).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(compactResult(v, 10).text.length).toBeGreaterThan(10);
    expect(compactResult(v, Number.NaN).truncated).toBe(false); // NaN → the default budget (6000)
  });

  it("writes dates as JSON would (ISO strings), not as empty objects", () => {
    const v = { success: true, at: new Date("2008-03-14T00:00:00Z"), rows: Array.from({ length: 2000 }, (_, i) => ({ i })) };
    const parsed = JSON.parse(compactResult(v, 1000).text);
    expect(parsed.at).toBe("2008-03-14T00:00:00.000Z");
  });

  it("keeps a key named __proto__ as a key", () => {
    const v = JSON.parse(`{"success": true, "__proto__": {"x": 1}, "rows": [${Array.from({ length: 3000 }, (_, i) => i).join(",")}]}`);
    const parsed = JSON.parse(compactResult(v, 1000).text);
    expect(Object.hasOwn(parsed, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(parsed, "__proto__")?.value).toEqual({ x: 1 });
  });

  it("is deterministic", () => {
    const v = priceHistory(30_000);
    expect(compactResult(v, 2000)).toEqual(compactResult(structuredClone(v), 2000));
  });
});
