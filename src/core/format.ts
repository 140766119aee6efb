/**
 * The one formatter of numbers a person reads: money with thousands separators and the currency's
 * own decimals, percentages. In core so every layer (the run's journal texts, the printers, the
 * screens, the simulation report) says a number the same way; src/printers/format.ts builds the
 * verdict and event sentences on it.
 */
import { minorDigits } from "./money.js";

// One formatter per shape, made once: toLocaleString builds a new one on every call (slow on screens).
const formatters = new Map<string, Intl.NumberFormat>();
function fmt(min: number, max: number): Intl.NumberFormat {
  const key = `${min}:${max}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat("en-US", { minimumFractionDigits: min, maximumFractionDigits: max })));
  return f;
}

/** The minor-unit digits of a currency (USD 2, JPY 0, KWD 3); 2 when none or unknown. */
export function currencyDigits(currency: string): number {
  if (!currency) return 2;
  try {
    return minorDigits(currency);
  } catch {
    return 2;
  }
}

/** Money with thousands separators and the currency's own decimals (JPY 0, KWD 3; 2 by default). */
export function money(n: number, currency = "", digits = currencyDigits(currency)): string {
  const s = fmt(digits, digits).format(n);
  return currency ? `${s} ${currency}` : s;
}

export function pct(n: number, digits = 2): string {
  return `${n.toFixed(digits)}%`;
}

/** Decimal places of a price tick (0.01 → 2, 0.0001 → 4, 0.05 → 2, 1 → 0). */
export function tickDecimals(tick: number | undefined): number {
  if (tick === undefined || !Number.isFinite(tick) || tick <= 0) return 2;
  for (let d = 0; d <= 8; d++) if (Math.abs(Math.round(tick * 10 ** d) - tick * 10 ** d) < 1e-9) return d;
  return 8;
}

/** A price with thousands separators and the instrument tick's decimals. */
export function price(n: number, tick?: number): string {
  const d = tickDecimals(tick);
  return fmt(d, d).format(n);
}

/** A quantity with thousands separators (fractions as given, at most 6 places). */
export function quantity(n: number): string {
  return fmt(0, 6).format(n);
}

/** Money with an explicit sign (P&L). */
export function signedMoney(n: number, currency = "", digits = currencyDigits(currency)): string {
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${money(Math.abs(n), currency, digits)}`;
}

/** A count (tokens, bars, days, rows) with thousands separators. */
export function count(n: number): string {
  return fmt(0, 0).format(n);
}

/** LLM spend in US dollars: four decimals under a dollar ($0.0123, a run's cost), two from a dollar up ($1,234.50). */
export function usd(n: number): string {
  const d = Math.abs(n) < 1 ? 4 : 2;
  return `$${fmt(d, d).format(n)}`;
}

/** A number said by `say` when there is one; "?" when a value is missing or not a number (a tool result's summary). */
export function num(v: unknown, say: (n: number) => string): string {
  return typeof v === "number" && Number.isFinite(v) ? say(v) : "?";
}

/** A plain decimal (a ratio: Sharpe, turnover) with thousands separators and `digits` places. */
export function decimal(n: number, digits = 2): string {
  return fmt(digits, digits).format(n);
}

/**
 * A wall-clock instant as a person reads it, "2026-12-02 13:02:44 UTC" (never the ISO T…Z form);
 * said beside the trading day it belongs to, never merged with it. As given when it is not a time.
 */
export function wallClock(at: string, seconds = true): string {
  const t = Date.parse(at);
  if (!Number.isFinite(t)) return at;
  const iso = new Date(t).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, seconds ? 19 : 16)} UTC`;
}

/** A moment said as its trading day and, apart, its wall-clock time: "trading day 2007-01-04 (at 2026-12-02 13:02:44 UTC)". */
export function dayAndClock(tradingDay: string, at: string): string {
  return `trading day ${tradingDay} (at ${wallClock(at)})`;
}

/**
 * A number with exactly `digits` places and no thousands separators: only for sentences whose text
 * is itself a public contract (the gate's block messages inside `gate check --scenario` JSON).
 */
export function fixed(n: number, digits = 2): string {
  return n.toFixed(digits);
}
