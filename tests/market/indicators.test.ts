/**
 * src/market/indicators.ts gives exactly trading-signals' numbers (the features, the overview and
 * the summary were computed with the library before): the same value, bit for bit, over random
 * series — rising, falling and flat stretches, tiny and huge prices.
 */
import fc from "fast-check";
import { getLogReturns, getStandardDeviation, ROC, RSI, SMA } from "trading-signals";
import { describe, expect, it } from "vitest";
import { average, logReturns, rocLast, rsiLast, smaLast, standardDeviation } from "../../src/market/indicators.js";

/** A price series: random prices with repeats (flat days), from cents to millions. */
const series = (minLength: number) =>
  fc
    .array(fc.oneof(fc.double({ min: 0.01, max: 2_000_000, noNaN: true }), fc.constantFrom(1, 10.5, 100, 100, 0.01)), { minLength, maxLength: 300 })
    .map((xs) => xs.map((x, i) => (i > 0 && i % 7 === 3 ? (xs[i - 1] as number) : x)));

const fed = <T extends { updates(v: number[], replace?: boolean): unknown; isStable: boolean; getResult(): number | null }>(ind: T, values: number[]) => {
  ind.updates(values, false);
  return ind.isStable ? ind.getResult() : null;
};

const RUNS = { numRuns: 400 };

describe("indicators", () => {
  it("SMA, ROC and RSI after a series are trading-signals' values", () => {
    fc.assert(
      fc.property(series(0), fc.integer({ min: 1, max: 60 }), (values, interval) => {
        expect(smaLast(values, interval)).toBe(fed(new SMA(interval), values));
        expect(rocLast(values, interval)).toBe(fed(new ROC(interval), values));
        expect(rsiLast(values, interval)).toBe(fed(new RSI(interval), values));
      }),
      RUNS,
    );
  });

  it("RSI(14) of a long series, flat and monotonic stretches included", () => {
    const rising = Array.from({ length: 40 }, (_, i) => 100 + i);
    const flat = Array.from({ length: 40 }, () => 50);
    for (const values of [rising, flat, [...rising].reverse(), [...rising, ...flat]]) expect(rsiLast(values, 14)).toBe(fed(new RSI(14), values));
    expect(rsiLast(rising, 14)).toBe(100);
    expect(rsiLast(rising.slice(0, 14), 14)).toBeNull();
  });

  it("log returns, their standard deviation and the mean are trading-signals'", () => {
    fc.assert(
      fc.property(series(2), (values) => {
        const ours = logReturns(values);
        expect(ours).toEqual(getLogReturns(values));
        expect(standardDeviation(ours)).toBe(getStandardDeviation(getLogReturns(values)));
        expect(standardDeviation(values)).toBe(getStandardDeviation(values));
        expect(average(values)).toBe(values.reduce((s, x) => s + x, 0) / values.length);
      }),
      RUNS,
    );
  });

  it("the standard deviation of a range, read in place, is the library's over a copy of it", () => {
    fc.assert(
      fc.property(series(2), fc.nat(), fc.nat(), (values, a, b) => {
        const from = a % values.length;
        const to = from + (b % (values.length - from + 1));
        expect(standardDeviation(values, from, to)).toBe(getStandardDeviation(values.slice(from, to)));
      }),
      RUNS,
    );
  });

  it("log returns refuse what the library refuses, with its message", () => {
    for (const bad of [[1], [1, 0], [2, -1, 3]])
      expect(() => logReturns(bad)).toThrow(
        ((): string => {
          try {
            getLogReturns(bad);
          } catch (e) {
            return (e as Error).message;
          }
          return "no error";
        })(),
      );
  });
});
