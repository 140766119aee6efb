/**
 * get_price_history reads only the last SUMMARY_MAX_BARS bars before the trading day: its summary of
 * them is the summary of the whole history, for every lookback the tool accepts (and beyond).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MarketData } from "../../src/market/data.js";
import { SUMMARY_MAX_BARS, summarizeHistory } from "../../src/market/summary.js";

const market = MarketData.load();
const symbols = market.symbols();
const days = market.calendar.days;

describe("get_price_history's window", () => {
  it("the summary of the last SUMMARY_MAX_BARS bars is the summary of the whole history", () => {
    fc.assert(
      fc.property(fc.constantFrom(...symbols), fc.integer({ min: 0, max: days.length - 1 }), fc.integer({ min: -3, max: 400 }), (symbol, dayAt, lookback) => {
        const view = market.asOf(days[dayAt]!);
        const all = view.history(symbol);
        const cut = view.history(symbol, SUMMARY_MAX_BARS);
        expect(cut.length).toBe(Math.min(all.length, SUMMARY_MAX_BARS));
        expect(summarizeHistory(symbol, cut, days[dayAt], lookback)).toEqual(summarizeHistory(symbol, all, days[dayAt], lookback));
      }),
      { numRuns: 300 },
    );
  });

  it("one bar fewer than SUMMARY_MAX_BARS changes the longest summary", () => {
    const view = market.asOf(days[days.length - 1]!);
    const all = view.history(symbols[0]!);
    const short = all.slice(-(SUMMARY_MAX_BARS - 1));
    expect(summarizeHistory(symbols[0]!, short, undefined, 252)).not.toEqual(summarizeHistory(symbols[0]!, all, undefined, 252));
  });
});
