/**
 * src/core/exact-number.ts's integer shortcuts give decimal.js's numbers exactly, or decline: over
 * random prices on and off the minor grid, cash amounts read back from minor units, huge and tiny
 * values, negative zero.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scaledWhole, wholeOverPow10, wholeProduct } from "../../src/core/exact-number.js";
import { Dec, fromMinor, productToMinor, toMinor } from "../../src/core/money.js";

const RUNS = { numRuns: 3000 };
const digitsArb = fc.integer({ min: 0, max: 6 });
/** Numbers on a decimal grid (cents, mills, micros), near the shortcut's limits too, and any double. */
const amountArb = fc.oneof(
  fc.tuple(fc.integer({ min: -(2 ** 53), max: 2 ** 53 }), digitsArb).map(([n, d]) => n / 10 ** d),
  fc.tuple(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.constantFrom(1, 10, 100, 1000, 1_000_000)).map(([n, p]) => n / p),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.125, 2.675, 1.005, 0.1 + 0.2, 2 ** 51 / 100, 2 ** 52 / 100, 1e-7, 123456789.125),
);

const decScaled = (x: number, d: number) => new Dec(x).mul(new Dec(10).pow(d)).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN);

describe("exact-number shortcuts", () => {
  it("scaledWhole is decimal.js's x × 10^d when that is whole, and declines when it is not", () => {
    fc.assert(
      fc.property(amountArb, digitsArb, (x, d) => {
        const fast = scaledWhole(x, d);
        if (fast === undefined) return;
        const exact = new Dec(x).mul(new Dec(10).pow(d));
        expect(exact.isInteger()).toBe(true);
        expect(Object.is(fast, exact.toNumber())).toBe(true);
        expect(Object.is(fast, decScaled(x, d).toNumber())).toBe(true);
      }),
      RUNS,
    );
  });

  it("wholeOverPow10 is decimal.js's exact quotient read back as a number", () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.constantFrom(0, -0, 1, -1, 5, 15, 2 ** 53 - 1)), digitsArb, (minor, d) => {
        const fast = wholeOverPow10(minor, d);
        expect(fast).not.toBeUndefined();
        expect(Object.is(fast, new Dec(minor).div(new Dec(10).pow(d)).toNumber())).toBe(true);
      }),
      RUNS,
    );
    expect(wholeOverPow10(0.5, 2)).toBeUndefined();
    expect(wholeOverPow10(1, 16)).toBeUndefined();
  });

  it("wholeProduct is decimal.js's quantity × price in minor units, or declines", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true })), amountArb, digitsArb, (q, price, d) => {
        const fast = wholeProduct(q, price, d);
        if (fast === undefined) return;
        expect(fast).toBe(new Dec(q).mul(price).mul(new Dec(10).pow(d)).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).toNumber());
      }),
      RUNS,
    );
  });

  it("money's toMinor, fromMinor and productToMinor give what the Decimal arithmetic gives", () => {
    const refToMinor = (x: number, d: number) => decScaled(x, d).toNumber();
    fc.assert(
      fc.property(amountArb, fc.integer({ min: -1e7, max: 1e7 }), fc.constantFrom("USD", "JPY", "KWD"), (x, q, cur) => {
        const d = cur === "USD" ? 2 : cur === "JPY" ? 0 : 3;
        const ref = refToMinor(x, d);
        if (Number.isSafeInteger(ref)) expect(Object.is(toMinor(x, cur), ref)).toBe(true);
        expect(Object.is(fromMinor(q, cur), new Dec(q).div(new Dec(10).pow(d)).toNumber())).toBe(true);
        const refProduct = new Dec(q).mul(x).mul(1).mul(new Dec(10).pow(d)).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN);
        if (refProduct.isFinite() && Number.isSafeInteger(refProduct.toNumber())) expect(productToMinor(q, x, 1, cur)).toBe(refProduct.toNumber());
      }),
      RUNS,
    );
  });
});
