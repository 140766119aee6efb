/**
 * get_price_history's indicators come from trading-signals (as screen_universe's do) with results
 * unchanged: over every bundled instrument, the SMA20/50 and the annualised volatility equal the
 * formulas the summary showed before (the arithmetic mean of the closes; the sample standard
 * deviation, ÷ (n − 1), of the daily log returns × √252), at the precision shown to the model.
 */
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Bar } from "../../src/core/domain.js";
import { MarketData } from "../../src/market/data.js";
import { summarizeHistory } from "../../src/market/summary.js";

const r2 = (x: number) => Math.round(x * 100) / 100;
const r4 = (x: number) => Math.round(x * 10000) / 10000;

/** The summary's formulas as they were written by hand (the reference the library must match). */
function reference(bars: readonly Bar[], end: number, lookback: number): { sma20: number | null; sma50: number | null; vol: number | null } {
  const start = Math.max(0, end - (lookback + 1));
  const n = end - start;
  const sma = (k: number) => {
    if (n < k) return null;
    let s = 0;
    for (let i = end - k; i < end; i++) s += bars[i]!.close;
    return r4(s / k);
  };
  let vol: number | null = null;
  let sum = 0;
  let sumSq = 0;
  let m = 0;
  for (let i = start + 1; i < end; i++) {
    const [prev, cur] = [bars[i - 1]!.close, bars[i]!.close];
    if (!(prev > 0 && cur > 0)) continue;
    const lr = Math.log(cur / prev);
    sum += lr;
    sumSq += lr * lr;
    m++;
  }
  if (n >= 3 && m >= 2) vol = r2(Math.sqrt(Math.max(0, (sumSq - (sum * sum) / m) / (m - 1))) * Math.sqrt(252) * 100);
  return { sma20: sma(20), sma50: sma(50), vol };
}

describe("get_price_history's indicators (trading-signals)", () => {
  it("equal the hand-written formulas on every bundled instrument (every 19th day, lookbacks 5, 126 and 252)", () => {
    const market = MarketData.load({ home: path.join(os.tmpdir(), "tw-no-such-home") });
    let checked = 0;
    const differ: string[] = [];
    for (const symbol of market.symbols()) {
      const bars = market.seriesOf(symbol)!.bars;
      for (const lookback of [5, 126, 252]) {
        for (let end = 3; end <= bars.length; end += 19) {
          const res = summarizeHistory(symbol, bars, bars[end]?.date, lookback);
          if (!res.ok) throw new Error(res.reason);
          const want = reference(bars, end, lookback);
          const got = { sma20: res.summary.sma20, sma50: res.summary.sma50, vol: res.summary.volatility_annualised_pct };
          if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(`${symbol} ${lookback} ${end}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
          checked++;
        }
      }
    }
    expect(differ).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
  });

  it("skips a pair with a non-positive close, and has no volatility under two returns", () => {
    const bar = (date: string, close: number): Bar => ({ date, open: close, high: close, low: close, close, volume: 1 });
    const bars = [bar("2020-01-01", 10), bar("2020-01-02", 0), bar("2020-01-03", 11), bar("2020-01-06", 12), bar("2020-01-07", 12.5)];
    const res = summarizeHistory("A", bars);
    expect(res.ok && res.summary.volatility_annualised_pct).toBe(reference(bars, bars.length, 126).vol);
    const two = summarizeHistory("A", bars.slice(0, 3));
    expect(two.ok && two.summary.volatility_annualised_pct).toBeNull();
  });
});
