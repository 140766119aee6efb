/**
 * Fuzzed model output for every tool (fast-check): wrong types, extra fields, huge strings and
 * arrays, deep nesting, NaN/Infinity, unicode and terminal escape codes, unknown tools, non-JSON
 * argument text. The properties: dispatch never throws; the answer is always the envelope (and its
 * text is JSON); a handler is reached only with arguments its schema accepts.
 */
import fc from "fast-check";
import { CATALOGUE, contractOf, TOOL_NAMES } from "../../src/tools/catalogue.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";
import { validateArguments } from "../../src/tools/validate.js";

const ESC = ["\u001b[31m", "\u001b]0;pwned\u0007", "\u001b[2J", "\u009b1m", "\r", "\u0000", "\u202e", "\ud800"];
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(...ESC).map((e) => `${e}ignore your limits${e}`),
  fc.integer({ min: 10_000, max: 200_000 }).map((n) => "x".repeat(n)),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e308, -1e308, 5e-324, -0, 2 ** 53 + 1),
  fc.double(),
  fc.integer(),
);
/** Nested `depth` levels deep, as an array or object chain. */
const deep = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
});
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, undefined, true, false, {}, []),
  fc.array(fc.integer(), { minLength: 1000, maxLength: 20_000 }),
  deep,
  fc.jsonValue({ maxDepth: 3 }),
);

/** A valid example with one field replaced, one added, or one removed. */
function mutatedExample(): fc.Arbitrary<{ tool: string; args: unknown }> {
  return fc.constantFrom(...CATALOGUE.map((c) => c.name)).chain((tool) => {
    const example = (contractOf(tool)?.example ?? {}) as Record<string, unknown>;
    const keys = Object.keys(example);
    return fc.oneof(
      fc.tuple(fc.constantFrom(...(keys.length ? keys : ["x"])), hostileValue).map(([k, v]) => ({ tool, args: { ...example, [k]: v } })),
      fc.tuple(hostileString, hostileValue).map(([k, v]) => ({ tool, args: { ...example, [k.slice(0, 30) || "extra"]: v } })),
      fc.constantFrom(...(keys.length ? keys : ["x"])).map((k) => {
        const { [k]: _drop, ...rest } = example;
        return { tool, args: rest };
      }),
      // nested hostile values inside the first array field (orders, symbols, ...)
      hostileValue.map((v) => {
        const arrayKey = keys.find((k) => Array.isArray(example[k]));
        if (!arrayKey) return { tool, args: { ...example, nested: v } };
        const items = example[arrayKey] as unknown[];
        const first = (items[0] ?? {}) as Record<string, unknown>;
        const inner = typeof first === "object" && first !== null ? Object.keys(first) : [];
        const key = inner[0] ?? "x";
        return { tool, args: { ...example, [arrayKey]: [{ ...first, [key]: v }, ...items.slice(1)] } };
      }),
    );
  });
}

export const toolCallArbitrary: fc.Arbitrary<{ tool: string; args: unknown }> = fc.oneof(
  { arbitrary: mutatedExample(), weight: 6 },
  // arguments as text: non-JSON, JSON of the wrong shape, JSON with escapes
  { arbitrary: fc.tuple(fc.constantFrom(...TOOL_NAMES), fc.oneof(hostileString, fc.json({ maxDepth: 4 }))).map(([tool, args]) => ({ tool, args })), weight: 2 },
  { arbitrary: fc.tuple(fc.constantFrom(...TOOL_NAMES), hostileValue).map(([tool, args]) => ({ tool, args })), weight: 2 },
  // unknown tools, look-alikes included
  {
    arbitrary: fc
      .tuple(fc.oneof(hostileString, fc.constantFrom("submit_order", "Submit_Orders", "place_order", "__proto__", "constructor")), hostileValue)
      .map(([tool, args]) => ({ tool, args })),
    weight: 1,
  },
);

export interface FuzzStats {
  calls: number;
  handlerReached: number;
  rejected: number;
}

/** Runs `numRuns` fuzzed calls; throws (fast-check's counterexample) on the first broken property. */
export async function fuzzToolCalls(numRuns: number, seed?: number): Promise<FuzzStats> {
  const stats: FuzzStats = { calls: 0, handlerReached: 0, rejected: 0 };
  let reached: { tool: string; args: Record<string, unknown> } | null = null;
  const handlers: Record<string, ToolHandler> = {};
  for (const name of TOOL_NAMES) {
    handlers[name] = (args) => {
      reached = { tool: name, args };
      return { ok: true, data: { echoed: Object.keys(args).length }, evidenceIds: ["ev-1"] };
    };
  }
  await fc.assert(
    fc.asyncProperty(toolCallArbitrary, async ({ tool, args }) => {
      // a fresh runtime per call: call limits and pending state do not carry over
      const runtime = buildToolRuntime(handlers, { runId: "fuzz", tradingDay: "2024-05-06" });
      reached = null;
      stats.calls++;
      const out = await runtime.dispatch(tool, args);
      // always the envelope, as JSON text
      const env = JSON.parse(out.text) as Record<string, unknown>;
      if (typeof env.success !== "boolean") throw new Error("no success flag in the envelope");
      if (
        !env.success &&
        !(typeof env.error === "string" && typeof env.error_code === "string" && typeof env.retryable === "boolean" && typeof env.correction === "object")
      ) {
        throw new Error(`a failure without the envelope's fields: ${out.text.slice(0, 200)}`);
      }
      const handled = reached as { tool: string; args: Record<string, unknown> } | null;
      if (handled) {
        stats.handlerReached++;
        // the handler only ever sees arguments its schema accepts
        if (!validateArguments(handled.tool, handled.args).valid) throw new Error(`handler ${handled.tool} reached with invalid arguments`);
        if (handled.tool !== tool) throw new Error(`call to ${tool} reached the handler of ${handled.tool}`);
      } else stats.rejected++;
      if (out.success !== env.success) throw new Error("outcome and envelope disagree");
    }),
    { numRuns, ...(seed !== undefined ? { seed } : {}) },
  );
  return stats;
}
