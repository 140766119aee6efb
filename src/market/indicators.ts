/**
 * The indicators the screen, the overview and the summary use (SMA, ROC, Wilder's RSI, log returns,
 * population standard deviation), as plain loops giving exactly `trading-signals`' numbers: the same
 * arithmetic in the same order (tests/market/indicators.test.ts compares the two over random
 * series). The library's per-update bookkeeping (a state snapshot per value) was ~30 ms of a `run`
 * computing the features of the universe (issue 26), and loading it a few more.
 */

/** The mean of `values` (0 for none), summed from the first: trading-signals' getAverage. */
export function average(values: readonly number[]): number {
  let sum = 0;
  for (const x of values) sum += x;
  return values.length ? sum / values.length : 0;
}

/** The simple moving average of the last `interval` values; null with fewer (trading-signals' SMA after feeding `values`). */
export function smaLast(values: readonly number[], interval: number): number | null {
  const n = values.length;
  if (n < interval) return null;
  // average() of the last `interval` values, summed in place (no copy of them).
  let sum = 0;
  for (let i = n - interval; i < n; i++) sum += values[i] as number;
  return interval ? sum / interval : 0;
}

/** The rate of change over `interval` values, (last − first) / first of the last interval + 1; null with fewer (trading-signals' ROC). */
export function rocLast(values: readonly number[], interval: number): number | null {
  if (values.length < interval + 1) return null;
  const price = values[values.length - 1] as number;
  const compare = values[values.length - 1 - interval] as number;
  return (price - compare) / compare;
}

/**
 * Wilder's RSI after all of `values`; null until `interval` changes are seen (trading-signals'
 * RSI with its WSMA smoothing: the first average is the mean of the first `interval` gains
 * (losses), each later one moves by (x − previous) / interval). An interval under 2 never has a
 * value there (the library keeps only `interval` prices to take a change from), nor here.
 */
export function rsiLast(values: readonly number[], interval: number): number | null {
  if (interval < 2) return null;
  // The first averages are the means of the first `interval` gains (losses), summed from the first
  // as trading-signals' getAverage does; no window of them is kept (nothing reads it afterwards).
  let gainSum = 0;
  let lossSum = 0;
  let seen = 0;
  let avgGain = 0;
  let avgLoss = 0;
  const factor = 1 / interval;
  let result: number | null = null;
  for (let i = 1; i < values.length; i++) {
    const current = values[i] as number;
    const previous = values[i - 1] as number;
    const up = current > previous;
    const loss = up ? 0 : previous - current;
    const gain = up ? current - previous : 0;
    if (seen < interval) {
      lossSum += loss;
      gainSum += gain;
      if (++seen < interval) continue;
      avgLoss = lossSum / interval;
      avgGain = gainSum / interval;
    } else {
      avgLoss = (loss - avgLoss) * factor + avgLoss;
      avgGain = (gain - avgGain) * factor + avgGain;
    }
    result = avgLoss === 0 ? 100 : 100 - 100 / (avgGain / avgLoss + 1);
  }
  return result;
}

/** The log returns of consecutive values; throws on fewer than 2 values or a value ≤ 0 (trading-signals' getLogReturns). */
export function logReturns(values: readonly number[]): number[] {
  if (values.length < 2) throw new Error(`The log returns have to be taken over at least 2 values, but "${values.length}" was given.`);
  const out: number[] = [];
  for (let i = 1; i < values.length; i++) {
    const a = values[i - 1] as number;
    const b = values[i] as number;
    if (a <= 0 || b <= 0) throw new Error(`The log returns need positive values, but "${a}" and "${b}" were given.`);
    out.push(Math.log(b / a));
  }
  return out;
}

/**
 * The population standard deviation (trading-signals' getStandardDeviation without a given mean) of
 * `values`, or of those from index `from` to `to` (exclusive), read in place: the same sums in the
 * same order as over a copy of them.
 */
export function standardDeviation(values: readonly number[], from = 0, to = values.length): number {
  const n = to - from;
  let total = 0;
  for (let i = from; i < to; i++) total += values[i] as number;
  const middle = n ? total / n : 0;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const d = (values[i] as number) - middle;
    sum += d * d;
  }
  return Math.sqrt(n ? sum / n : 0);
}
