/** withProps is `{ ...base, ...extra }`: the same keys in the same order, the same values, whatever the objects. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withProps } from "../../src/util/with-props.js";

const same = (a: object, b: object) => {
  expect(Reflect.ownKeys(a)).toEqual(Reflect.ownKeys(b));
  expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(b));
  for (const k of Reflect.ownKeys(b)) expect(Object.getOwnPropertyDescriptor(a, k)).toEqual(Object.getOwnPropertyDescriptor(b, k));
};

describe("withProps", () => {
  it("gives what the spread gives over random objects (keys overwritten in place, integer keys first)", () => {
    fc.assert(
      fc.property(fc.object(), fc.object(), (base, extra) => {
        same(withProps(base, extra), { ...base, ...extra });
      }),
      { numRuns: 500 },
    );
    same(withProps({ b: 1, seq: 0, 2: "x", a: 2 }, { seq: 5, run_id: "r", 1: "y" }), { ...{ b: 1, seq: 0, 2: "x", a: 2 }, ...{ seq: 5, run_id: "r", 1: "y" } });
  });

  it("copies symbols and getters' values, and keeps an own __proto__ key an own key", () => {
    const s = Symbol("s");
    const base = {
      [s]: 1,
      get g() {
        return 7;
      },
    };
    same(withProps(base, { x: 1 }), { ...base, x: 1 });
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
    const out = withProps(parsed, { seq: 1 });
    same(out, { ...parsed, seq: 1 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
