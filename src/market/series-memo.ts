/**
 * A value that is a pure function of a series' bars up to a point (a symbol's features as of a
 * day, a past day's 20-day volatility), kept for every view of one MarketData: a simulation keeps
 * one MarketData for all its days and asks for the same values day after day (each day's
 * 1-year median of the 20-day volatility reads 251 values the day before computed).
 *
 * The memo holds what the computation gives: the same code on the same bars, so the same numbers.
 * Point in time: a MarketView (data.ts `memoised`, `memoisedBack`) hands `compute` only bars before
 * its point and keys each value by the series and that point, so no value carries a later bar into a view.
 */
import type { Bar } from "../core/domain.js";

export class SeriesMemo<T> {
  // Keyed by the series object: the values go with the MarketData that holds it.
  private readonly values = new WeakMap<object, Map<number, T>>();

  /**
   * `compute` reads the last `lookback` bars before the point (fewer when the series has fewer);
   * what it gives is memoised, the last `keep` points of each series (the first computed go
   * first). A simulation's days move forward: values it no longer asks for would only grow the
   * heap every garbage collection walks (all of a 5-year run's days, kept, cost more in collection
   * than they saved).
   */
  constructor(
    readonly lookback: number,
    private readonly keep: number,
    readonly compute: (bars: readonly Bar[]) => T,
  ) {}

  /**
   * The values of the series' first `count − points + 1`, …, `count` bars (oldest first; `points` ≤
   * `count` + 1); `bars(from, to)` is the series' bars from..to. One look-up of the series for all
   * of them: a year of 20-day volatilities is 252 values a day.
   */
  valuesTo(series: object, count: number, points: number, bars: (from: number, to: number) => readonly Bar[]): T[] {
    let byCount = this.values.get(series);
    if (!byCount) {
      byCount = new Map();
      this.values.set(series, byCount);
    }
    const out: T[] = [];
    for (let at = count - points + 1; at <= count; at++) {
      let value = byCount.get(at);
      if (value === undefined && !byCount.has(at)) {
        value = this.compute(bars(Math.max(0, at - this.lookback), at));
        byCount.set(at, value);
        if (byCount.size > this.keep) byCount.delete(byCount.keys().next().value as number);
      }
      out.push(value as T);
    }
    return out;
  }
}
