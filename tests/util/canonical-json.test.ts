/**
 * canonicalJson's text is a recorded contract (cassette keys, check ids): for any JSON value it is
 * JSON.stringify of the value with every object's keys sorted, strings escaped as JSON escapes them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/util/canonical-json.js";

/** The value with every object's keys in sorted order (JSON.stringify writes them in insertion order). */
function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  // defineProperty, not assignment: a "__proto__" key stays an own member, as JSON.parse makes it.
  for (const k of Object.keys(v).sort())
    Object.defineProperty(out, k, { value: sortedKeys((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** An array-index-like key, which a JavaScript object always lists first, whatever order it was put in. */
const INDEX_KEY = /^(0|[1-9]\d*)$/;
function hasIndexKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasIndexKey);
  if (v === null || typeof v !== "object") return false;
  return Object.entries(v).some(([k, x]) => INDEX_KEY.test(k) || hasIndexKey(x));
}

describe("canonicalJson", () => {
  // (The oracle, a copy with sorted keys, cannot put "" before "0": values with index-like keys are left to the cassette replays.)
  it("is JSON.stringify with sorted keys, for any JSON value and any string", () => {
    const text = fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom('"', "\\", "\u0000", "\u001f", "\u2028", "\ud800", "é\n", "__proto__"));
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => !hasIndexKey(v)),
        text.filter((s) => !INDEX_KEY.test(s)),
        (v, s) => {
          expect(canonicalJson(v)).toBe(JSON.stringify(sortedKeys(v)));
          expect(canonicalJson({ [s]: [s, { b: s, a: 1 }] })).toBe(JSON.stringify({ [s]: [s, { a: 1, b: s }] }));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("drops undefined members, writes an undefined element as null, and keeps key order out of the text", () => {
    expect(canonicalJson({ b: 1, a: undefined, c: [undefined, 2] })).toBe('{"b":1,"c":[null,2]}');
    expect(canonicalJson({ z: { y: 1, x: 2 }, a: "q" })).toBe(canonicalJson({ a: "q", z: { x: 2, y: 1 } }));
    expect(canonicalJson(Number.NaN)).toBe("null");
    expect(canonicalJson({ a: 1, "10": 2, "": 3, "9": 4 })).toBe('{"":3,"10":2,"9":4,"a":1}');
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"z":0,"y":"\\""}}'))).toBe('{"__proto__":{"y":"\\"","z":0},"b":1}');
  });
});
