/**
 * Point-in-time screening features (pure). Every value is computed from the bars it is given, which
 * the caller has already cut strictly before the trading day. The indicators (SMA, RSI, ROC,
 * standard deviation of log returns) are ./indicators.ts's: trading-signals' numbers, exactly.
 */
import type { Bar } from "../core/domain.js";
import { logReturns, rocLast, rsiLast, smaLast, standardDeviation } from "./indicators.js";
import type { ScreenFeature } from "./screen-features.js";

export type { ScreenFeature };

export type FeatureRow = { [K in ScreenFeature]: number | null };

/** The bars the longest feature needs (252-day high), plus one. */
export const SCREEN_LOOKBACK_BARS = 253;

const r2 = (x: number) => Math.round(x * 100) / 100;

function pctFrom(value: number | null, base: number | null): number | null {
  return value === null || base === null || !(base > 0) ? null : r2((value / base - 1) * 100);
}

/** Features of one instrument from its bars (oldest first, all strictly before the trading day). */
export function computeFeatures(bars: readonly Bar[]): FeatureRow {
  const from = Math.max(0, bars.length - SCREEN_LOOKBACK_BARS);
  const closes: number[] = [];
  for (let i = from; i < bars.length; i++) closes.push((bars[i] as Bar).close);
  const n = closes.length;
  const close = n > 0 ? (closes[n - 1] as number) : null;
  const roc = (k: number) => (n > k ? r2((rocLast(closes, k) ?? Number.NaN) * 100) : null);
  const sma = (k: number) => (n >= k ? smaLast(closes, k) : null);
  const vol = n >= 64 ? r2(standardDeviation(logReturns(closes.slice(-64))) * Math.sqrt(252) * 100) : null;
  const rsi = n >= 15 ? rsiLast(closes, 14) : null;
  const high = n >= 252 ? maxOfLast(closes, 252) : null;
  const volumes = bars.length >= 25 ? bars.slice(-25).map((b) => b.volume) : null;
  const volNow = volumes ? smaLast(volumes, 5) : null;
  const volBefore = volumes ? smaLast(volumes.slice(0, 20), 20) : null;
  return {
    return_5d_pct: roc(5),
    return_21d_pct: roc(21),
    return_63d_pct: roc(63),
    return_126d_pct: roc(126),
    volatility_63d_pct: vol,
    rsi_14: rsi === null ? null : r2(rsi),
    dist_sma20_pct: pctFrom(close, sma(20)),
    dist_sma50_pct: pctFrom(close, sma(50)),
    dist_sma200_pct: pctFrom(close, sma(200)),
    dist_high_252d_pct: pctFrom(close, high),
    volume_change_pct: pctFrom(volNow, volBefore),
  };
}

/** Math.max of the last `k` values (k ≥ 1 of them), read in place (no spread of k arguments). */
function maxOfLast(values: readonly number[], k: number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let i = values.length - k; i < values.length; i++) {
    const v = values[i] as number;
    if (v > max || Number.isNaN(v)) max = v;
    if (Number.isNaN(max)) return max;
  }
  return max;
}

export interface ScreenFilter {
  feature: ScreenFeature;
  min?: number;
  max?: number;
}

export interface ScreenCandidate {
  symbol: string;
  as_of: string;
  last_close: number;
  features: FeatureRow;
}

export interface ScreenQuery {
  filters: readonly ScreenFilter[];
  sortBy: ScreenFeature;
  order: "asc" | "desc";
  limit: number;
}

export interface ScreenOutcome {
  matched: ScreenCandidate[];
  /** Instruments dropped because a feature the screen needs is not defined yet (short history). */
  insufficient: { symbol: string; missing: ScreenFeature[] }[];
}

/** Filter, then sort (ties by symbol) and cut to the limit. */
export function runScreen(candidates: readonly ScreenCandidate[], q: ScreenQuery): ScreenOutcome {
  const needed = [...new Set<ScreenFeature>([q.sortBy, ...q.filters.map((f) => f.feature)])];
  const insufficient: ScreenOutcome["insufficient"] = [];
  const passing: ScreenCandidate[] = [];
  for (const c of candidates) {
    const missing = needed.filter((f) => c.features[f] === null);
    if (missing.length > 0) {
      insufficient.push({ symbol: c.symbol, missing });
      continue;
    }
    const ok = q.filters.every((f) => {
      const v = c.features[f.feature] as number;
      return (f.min === undefined || v >= f.min) && (f.max === undefined || v <= f.max);
    });
    if (ok) passing.push(c);
  }
  const sign = q.order === "asc" ? 1 : -1;
  passing.sort((a, b) => sign * ((a.features[q.sortBy] as number) - (b.features[q.sortBy] as number)) || a.symbol.localeCompare(b.symbol));
  return { matched: passing, insufficient };
}
