/**
 * The `get_price_history` summary: what about six months of daily closes say, in a few numbers.
 * Pure: give it bars (already point-in-time, or let it cut at `tradingDay`). The indicators (SMA,
 * log returns, standard deviation) are ./indicators.ts's (trading-signals' numbers), as the screen's are (./screen.ts).
 */
import { standardDeviation as getStandardDeviation, smaLast } from "./indicators.js";
import type { Bar } from "../core/domain.js";
import { countBefore } from "./bars.js";

export const DEFAULT_LOOKBACK_DAYS = 126;
const MAX_LOOKBACK_DAYS = 252;
/** The most bars a summary reads (the longest lookback, plus the bar its return starts from): callers need pass no more. */
export const SUMMARY_MAX_BARS = MAX_LOOKBACK_DAYS + 1;
const MIN_LOOKBACK_DAYS = 5;

interface PriceHistorySummary {
  symbol: string;
  /** The last bar's date: the summary knows nothing after it. */
  as_of: string;
  last_close: number;
  /** Percent returns over 5 / 21 / 63 / 126 bars; null when the window is shorter. */
  returns_pct: { "1w": number | null; "1m": number | null; "3m": number | null; "6m": number | null };
  sma20: number | null;
  sma50: number | null;
  /** Highest and lowest close over the window (up to six months). */
  high_6m: number;
  high_6m_date: string;
  low_6m: number;
  low_6m_date: string;
  /** Percent below the window's highest close (0 at a new high). */
  drawdown_from_high_pct: number;
  /** Annualised volatility of daily log returns over the window, percent; null under 3 closes. */
  volatility_annualised_pct: number | null;
  /** The last 10 closes, oldest first, as [date, close] pairs (compact: this goes to the model). */
  last_closes: [string, number][];
  /** Closes in the window (lookback + 1 at most, so a lookback-bar return is defined). */
  bars_used: number;
  evidence_id: string;
}

export type SummaryResult = { ok: true; summary: PriceHistorySummary } | { ok: false; reason: string };

const r2 = (x: number) => Math.round(x * 100) / 100;
const r4 = (x: number) => Math.round(x * 10000) / 10000;

const closes = (bars: readonly Bar[], from: number, to: number): number[] => bars.slice(from, to).map((b) => b.close);

/** The indicator's value after all of `values` (it is stable: callers pass at least its interval). */
function lastOf(interval: number, values: number[]): number {
  return smaLast(values, interval) ?? Number.NaN;
}

/**
 * Annualised volatility (percent, 2 decimals) of the daily log returns of bars[start..end): the
 * sample standard deviation (n − 1), from trading-signals' log returns and standard deviation as
 * the screen uses them. A pair with a non-positive close is skipped; null under 2 returns.
 */
function annualisedVolatilityPct(bars: readonly Bar[], start: number, end: number): number | null {
  const returns: number[] = [];
  for (let i = start + 1; i < end; i++) {
    const a = bars[i - 1]!.close;
    const b = bars[i]!.close;
    // The log return of the pair (indicators.ts logReturns([a, b]) is [Math.log(b / a)] for positive a and b), without its arrays.
    if (a > 0 && b > 0) returns.push(Math.log(b / a));
  }
  const m = returns.length;
  if (m < 2) return null;
  // The library's deviation is the population one (÷ m); the summary has always shown the sample one (÷ m − 1).
  const sample = getStandardDeviation(returns) * Math.sqrt(m / (m - 1));
  return r2(sample * Math.sqrt(252) * 100);
}

/**
 * Summarises the closes strictly before `tradingDay` (all of `bars` when it is omitted).
 * Fewer than 2 closes → `{ ok: false }` ("not enough history").
 */
export function summarizeHistory(symbol: string, bars: readonly Bar[], tradingDay?: string, lookbackDays: number = DEFAULT_LOOKBACK_DAYS): SummaryResult {
  const end = tradingDay === undefined ? bars.length : countBefore(bars, tradingDay);
  const lookback = Math.max(MIN_LOOKBACK_DAYS, Math.min(MAX_LOOKBACK_DAYS, Math.floor(lookbackDays) || DEFAULT_LOOKBACK_DAYS));
  const start = Math.max(0, end - (lookback + 1));
  const n = end - start;
  if (n < 2) {
    return { ok: false, reason: `not enough history for ${symbol}: ${n} close${n === 1 ? "" : "s"} before ${tradingDay ?? "now"} (need at least 2)` };
  }
  const last = bars[end - 1]!;
  const closeAt = (back: number) => bars[end - 1 - back]!.close;
  const ret = (k: number) => (n > k ? r2((last.close / closeAt(k) - 1) * 100) : null);
  const sma = (k: number) => (n < k ? null : r4(lastOf(k, closes(bars, end - k, end))));

  // High/low/drawdown over the last six months of the window.
  const hlStart = Math.max(start, end - DEFAULT_LOOKBACK_DAYS);
  let hi = bars[hlStart]!;
  let lo = bars[hlStart]!;
  for (let i = hlStart + 1; i < end; i++) {
    const b = bars[i]!;
    if (b.close >= hi.close) hi = b;
    if (b.close <= lo.close) lo = b;
  }

  const vol = n >= 3 ? annualisedVolatilityPct(bars, start, end) : null;

  const lastCloses: [string, number][] = [];
  for (let i = Math.max(start, end - 10); i < end; i++) lastCloses.push([bars[i]!.date, bars[i]!.close]);

  const sym = symbol.toUpperCase();
  return {
    ok: true,
    summary: {
      symbol: sym,
      as_of: last.date,
      last_close: last.close,
      returns_pct: { "1w": ret(5), "1m": ret(21), "3m": ret(63), "6m": ret(126) },
      sma20: sma(20),
      sma50: sma(50),
      high_6m: hi.close,
      high_6m_date: hi.date,
      low_6m: lo.close,
      low_6m_date: lo.date,
      drawdown_from_high_pct: hi.close > 0 ? r2((1 - last.close / hi.close) * 100) : 0,
      volatility_annualised_pct: vol,
      last_closes: lastCloses,
      bars_used: n,
      evidence_id: `price:${sym}:${last.date}`,
    },
  };
}
