/**
 * The gate's input checks, run before any arithmetic (issue #13): every number the gate computes
 * with must be finite and inside the range where its products stay exact enough to compare — a
 * 1e308 holding or quantity is refused, never multiplied into Infinity or NaN. Also the broker's own
 * rules, checked exactly as brokers check them: whole shares with no slack, and a limit price on the
 * instrument's tick grid (decimal arithmetic, so 100.1 on a 0.01 grid passes and 100.105 does not).
 * Pure: no I/O.
 */
import { Decimal } from "decimal.js";
import type { GateMarket, GateState, Limits } from "../core/gate-types.js";
import { fmtValue } from "./format.js";

/** Largest quantity, price or amount the gate accepts (its products stay far below 2^1023). */
const MAX_GATE_NUMBER = 1e15;
/** The tick when the instrument names none: the cent both brokers require. */
const DEFAULT_TICK = 0.01;

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const inRange = (v: number, lo: number, hi: number) => v >= lo && v <= hi;

/**
 * Portfolio and market numbers that are finite but unusable: out of range, a negative (short)
 * holding, a non-positive valuation price or FX rate. Non-finite numbers are reported by the gate's
 * own non_finite_number check. Empty when everything is usable.
 */
export function portfolioRangeIssues(state: GateState, market: GateMarket): string[] {
  const out: string[] = [];
  const check = (what: string, v: unknown, lo: number, hi: number, rule: string) => {
    if (finite(v) && !inRange(v, lo, hi)) out.push(`${what} ${fmtValue(v)} ${rule}`);
  };
  check("cash", state.cash, -MAX_GATE_NUMBER, MAX_GATE_NUMBER, `is beyond ±${MAX_GATE_NUMBER}`);
  check("peak", state.peak, 0, MAX_GATE_NUMBER, `must be in [0, ${MAX_GATE_NUMBER}]`);
  for (const [sym, h] of Object.entries(state.holdings ?? {})) {
    check(`holdings.${sym}.quantity`, h?.quantity, 0, MAX_GATE_NUMBER, `must be in [0, ${MAX_GATE_NUMBER}] (short positions are not held)`);
    if (h?.price !== undefined) check(`holdings.${sym}.price`, h.price, Number.MIN_VALUE, MAX_GATE_NUMBER, `must be in (0, ${MAX_GATE_NUMBER}]`);
  }
  for (const [sym, q] of Object.entries(market ?? {})) {
    check(`market.${sym}.price`, q?.price, -MAX_GATE_NUMBER, MAX_GATE_NUMBER, `is beyond ±${MAX_GATE_NUMBER}`);
    // A zero or negative rate or commission is "unusable" (blocked per order by the gate); only the range is checked here.
    if (q?.fx_to_base !== undefined) check(`market.${sym}.fx_to_base`, q.fx_to_base, Number.NEGATIVE_INFINITY, 1e6, "is beyond 1e6");
    if (q?.commission !== undefined) check(`market.${sym}.commission`, q.commission, Number.NEGATIVE_INFINITY, MAX_GATE_NUMBER, `is beyond ${MAX_GATE_NUMBER}`);
  }
  return out;
}

/** Limits outside their documented ranges (negative, zero where it must be positive, absurdly large). */
export function limitRangeIssues(limits: Limits): string[] {
  const out: string[] = [];
  const pct = (k: "max_position_pct" | "max_drawdown_pct" | "max_commission_pct") => {
    if (finite(limits[k]) && !(limits[k] > 0 && limits[k] <= 100)) out.push(`${k} ${fmtValue(limits[k])} must be in (0, 100]`);
  };
  pct("max_position_pct");
  pct("max_drawdown_pct");
  pct("max_commission_pct");
  const dev = limits.max_price_deviation_pct;
  if (finite(dev) && !(dev > 0 && dev <= 20)) out.push(`max_price_deviation_pct ${fmtValue(dev)} must be in (0, 20]`);
  const q = limits.max_orders_per_month;
  if (finite(q) && !(Number.isInteger(q) && q >= 0 && q <= 1_000_000)) out.push(`max_orders_per_month ${fmtValue(q)} must be an integer in [0, 1000000]`);
  const n = limits.max_order_notional;
  if (n !== null && n !== undefined && !(finite(n) && n > 0 && n <= MAX_GATE_NUMBER))
    out.push(`max_order_notional ${fmtValue(n)} must be in (0, ${MAX_GATE_NUMBER}]`);
  const age = limits.max_price_age_days;
  if (age !== null && age !== undefined && !(Number.isInteger(age) && age >= 1)) out.push(`max_price_age_days ${fmtValue(age)} must be an integer >= 1`);
  return out;
}

/** An order's quantity or limit price beyond the gate's range (both already known finite). */
export function orderRangeIssues(quantity: number, limitPrice: number | null): string[] {
  const out: string[] = [];
  if (Math.abs(quantity) > MAX_GATE_NUMBER) out.push(`quantity ${fmtValue(quantity)} is beyond ${MAX_GATE_NUMBER}`);
  if (limitPrice !== null && Math.abs(limitPrice) > MAX_GATE_NUMBER) out.push(`limit price ${fmtValue(limitPrice)} is beyond ${MAX_GATE_NUMBER}`);
  return out;
}

/** Is the (positive, finite) limit price a whole number of ticks? Exact decimal arithmetic. */
export function onTick(limitPrice: number, tick: number | undefined): { ok: boolean; tick: number } {
  const t = finite(tick) && tick > 0 ? tick : DEFAULT_TICK;
  return { ok: new Decimal(limitPrice).mod(new Decimal(t)).isZero(), tick: t };
}

/** The named intermediates that are not finite (e.g. "notional"), for the non_finite_result block. */
export function nonFinite(values: Record<string, number>): string[] {
  return Object.entries(values)
    .filter(([, v]) => !Number.isFinite(v))
    .map(([k, v]) => `${k} ${String(v)}`);
}
