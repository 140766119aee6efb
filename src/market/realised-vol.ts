/**
 * The realised volatility the overview's regime reads: the annualised volatility of 20 daily log
 * returns (population deviation × √252, percent), from a list of closes or, for an instrument's
 * series, memoised per day (each day's 1-year median reads the 252 last days' values: 251 of
 * them the day before computed, by this same code on the same closes).
 */
import type { Bar } from "../core/domain.js";
import { logReturns, standardDeviation } from "./indicators.js";
import { SeriesMemo } from "./series-memo.js";

/** The realised-volatility window (trading days). */
export const VOL_WINDOW = 20;

/** Annualised volatility (percent) of log returns `from` to `to` (population deviation × √252). */
function annualisedVol(returns: readonly number[], from: number, to: number): number {
  return standardDeviation(returns, from, to) * Math.sqrt(252) * 100;
}

/** The 20-day volatilities of the last `windows` windows of 21 closes, oldest first (each window one close later). */
export type VolsOf = (windows: number) => readonly number[];

/**
 * The VolsOf of a list of closes: their log returns taken once, from the earliest close a window
 * reads (each window's 20 of them are the values and sums taking its own would give).
 */
export function volsOfCloses(closes: readonly number[]): VolsOf {
  return (windows) => {
    const n = closes.length;
    const from = Math.max(0, n - VOL_WINDOW - windows);
    const returns = logReturns(closes.slice(from));
    return Array.from({ length: windows }, (_, k) => annualisedVol(returns, returns.length - windows - VOL_WINDOW + 1 + k, returns.length - windows + 1 + k));
  };
}

/**
 * The 20-day volatility of a series' last 21 bars (NaN with fewer), memoised per series and day:
 * two years of them (a day's 1-year median reads the last 252).
 */
export const VOL_20D = new SeriesMemo(VOL_WINDOW + 1, 2 * 252, (bars: readonly Bar[]) =>
  bars.length > VOL_WINDOW ? annualisedVol(logReturns(bars.map((b) => b.close)), 0, VOL_WINDOW) : Number.NaN,
);
