/**
 * The per-order input checks, in order: side (alone) → REDUCING → allowlist / exchange → duplicate
 * → non-finite numbers (replace every other reason) → numbers out of range (likewise) → quantity > 0
 * → whole shares → limit price (present, > 0, on the tick) → reference price (present, > 0, FX
 * usable, fresh). Reasons accumulate; the economic checks run only when none was found. Pure: no I/O.
 */
import type { Instrument } from "../core/domain.js";
import type { BlockReason, GateOrder, GateState, Limits, MarketQuote } from "../core/gate-types.js";
import type { Prepared } from "./batch.js";
import { fmtNum, fmtQty, fmtValue } from "./format.js";
import { onTick, orderRangeIssues } from "./input-checks.js";
import { Dec } from "../core/money.js";
import { block, isNum, normSide, normSymbol } from "./normalize.js";
import { fxOf } from "./valuation.js";

/** An order whose inputs passed: everything the economic checks and the fill need. */
export interface CheckedOrder {
  side: "BUY" | "SELL";
  sym: string;
  inst: Instrument;
  quote: MarketQuote;
  qty: number;
  limitPrice: number;
  /** Reference price, instrument currency. */
  ref: number;
  fx: number;
  /** quantity × limit price × fx, base currency (the nearest number to the exact product). */
  notional: number;
  /** The same product, exact. */
  notionalExact: Dec;
}

/** Either the order passed its input checks, or it is blocked (reasons pushed) with this notional. */
export type InputVerdict = { ok: true; order: CheckedOrder } | { ok: false; notional: number };

/** REDUCING, allowlist and exchange, one order per symbol and side: the instrument when allowlisted. */
function identityChecks(
  order: GateOrder,
  o: { side: "BUY" | "SELL"; sym: string; label: string },
  state: GateState,
  prep: Prepared,
  seen: Set<string>,
  reasons: BlockReason[],
): Instrument | undefined {
  const { side, sym, label } = o;
  if (side === "BUY" && state.trading_state === "REDUCING") {
    reasons.push(block("reducing_only", `trading state is REDUCING: only sells are allowed, not a BUY of ${label}`));
  }
  const inst = sym === "" ? undefined : prep.universe.get(sym);
  if (inst === undefined) {
    reasons.push(block("not_allowlisted", `${label} is not in the allowlisted universe`));
  } else if (order.exchange !== undefined && order.exchange !== null && order.exchange !== "") {
    const want = typeof order.exchange === "string" ? order.exchange.trim().toUpperCase() : fmtValue(order.exchange);
    const have = inst.exchange?.trim().toUpperCase();
    if (have !== undefined && have !== "" && want !== have) {
      reasons.push(block("wrong_exchange", `${sym} trades on ${have}, not ${want}`));
    }
  }
  const key = `${sym}|${side}`;
  if (seen.has(key)) {
    reasons.push(block("duplicate_order", `a ${side} order for ${label} is already in this batch (one per symbol and side)`));
  }
  seen.add(key);
  return inst;
}

/**
 * The order's quantity and limit price (null when missing) as usable numbers, or the one reason
 * that replaces every other: a non-finite number, or a finite one beyond the gate's range.
 */
function numbersOf(order: GateOrder, label: string): { ok: true; qty: number; limit: number | null } | { ok: false; reason: BlockReason } {
  // Loose on purpose: the gate receives whatever the caller sent, so both are checked as unknown.
  const qty: unknown = order.quantity;
  const lim: unknown = order.limit_price;
  const limitMissing = lim === undefined || lim === null;
  if (!isNum(qty) || !(limitMissing || isNum(lim))) {
    const badNums: string[] = [];
    if (!isNum(qty)) badNums.push(`quantity ${fmtValue(qty)}`);
    if (!limitMissing && !isNum(lim)) badNums.push(`limit price ${fmtValue(lim)}`);
    return { ok: false, reason: block("non_finite_number", `${label}: ${badNums.join(" and ")} is not a finite number`) };
  }
  const limit = isNum(lim) ? lim : null;
  const tooBig = orderRangeIssues(qty, limit);
  if (tooBig.length > 0) return { ok: false, reason: block("number_out_of_range", `${label}: ${tooBig.join(" and ")}`) };
  return { ok: true, qty, limit };
}

/** Quantity > 0 in whole shares (unless fractional is allowed); a limit price, > 0, on the tick. */
function sizeAndLimitChecks(qty: number, limit: number | null, inst: Instrument | undefined, label: string, limits: Limits, reasons: BlockReason[]): void {
  if (qty <= 0) reasons.push(block("non_positive_quantity", `quantity ${fmtQty(qty)} must be greater than 0`));
  else if (!limits.allow_fractional && !Number.isInteger(qty)) {
    // Exactly as the brokers check it: no slack, 10.0000000001 is not a whole number of shares.
    reasons.push(block("fractional_quantity", `quantity ${String(qty)} is not a whole number of shares`));
  }
  if (limit === null) {
    reasons.push(block("limit_price_required", `${label}: a limit price is required (limit orders only)`));
  } else if (limit <= 0) {
    reasons.push(block("non_positive_limit_price", `${label}: limit price ${fmtNum(limit)} must be greater than 0`));
  } else if (inst !== undefined) {
    const tick = onTick(limit, inst.tick);
    if (!tick.ok) reasons.push(block("tick_size", `${label}: limit price ${String(limit)} is not a multiple of the tick ${String(tick.tick)}`));
  }
}

/** A reference price that is present, > 0, convertible to the base currency and fresh enough. */
function referenceChecks(sym: string, quote: MarketQuote | undefined, fx: number, state: GateState, limits: Limits, reasons: BlockReason[]): void {
  const ref = quote?.price;
  if (quote === undefined || ref === undefined) {
    reasons.push(block("no_reference_price", `${sym} has no reference price`));
  } else if (!isNum(ref) || ref <= 0) {
    reasons.push(block("no_reference_price", `${sym} has no usable reference price (${fmtValue(ref)})`));
  } else if (!isNum(fx)) {
    reasons.push(block("no_reference_price", `${sym} has no usable FX rate to ${limits.base_currency} (${fmtValue(quote.fx_to_base)})`));
  } else if (limits.max_price_age_days !== null && limits.max_price_age_days !== undefined) {
    const stale = staleness(quote, state, limits.max_price_age_days);
    if (stale !== null) reasons.push(block("stale_reference_price", `${sym}: ${stale}`));
  }
}

/**
 * Runs the input checks on one order, pushing each failure onto `reasons` and recording the order's
 * symbol and side in `seen` (one order per symbol and side in a batch).
 */
export function checkOrderInputs(order: GateOrder, state: GateState, limits: Limits, prep: Prepared, seen: Set<string>, reasons: BlockReason[]): InputVerdict {
  const side = normSide(order?.side);
  if (side === null) {
    reasons.push(block("invalid_side", `side ${fmtValue(order?.side)} is not BUY or SELL`));
    return { ok: false, notional: 0 };
  }
  const sym = normSymbol(order.symbol);
  const label = sym === "" ? fmtValue(order.symbol) : sym;
  const inst = identityChecks(order, { side, sym, label }, state, prep, seen, reasons);
  const nums = numbersOf(order, label);
  if (!nums.ok) {
    reasons.length = 0;
    reasons.push(nums.reason);
    return { ok: false, notional: 0 };
  }
  const { qty, limit } = nums;
  sizeAndLimitChecks(qty, limit, inst, label, limits, reasons);
  const limitPrice = limit ?? Number.NaN;
  const quote = sym === "" ? undefined : prep.market.get(sym);
  const ref = quote?.price;
  const fx = fxOf(quote);
  if (inst !== undefined) referenceChecks(sym, quote, fx, state, limits, reasons);
  const exact = isNum(qty * limitPrice * fx) ? new Dec(qty).mul(limitPrice).mul(fx) : new Dec(0);
  const notional = exact.toNumber();
  if (reasons.length > 0 || inst === undefined || quote === undefined || !isNum(ref) || !isNum(fx)) {
    return { ok: false, notional };
  }
  return { ok: true, order: { side, sym, inst, quote, qty, limitPrice, ref, fx, notional, notionalExact: exact } };
}

/** Days between two YYYY-MM-DD dates (b − a); NaN when either does not parse. */
function daysBetween(a: string, b: string): number {
  const re = /^\d{4}-\d{2}-\d{2}$/;
  if (!re.test(a) || !re.test(b)) return Number.NaN;
  const ta = Date.parse(`${a}T00:00:00Z`);
  const tb = Date.parse(`${b}T00:00:00Z`);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return Number.NaN;
  return Math.round((tb - ta) / 86_400_000);
}

/** Why the quote's price is too old (or its age unknowable) on the evaluation day; null when fresh. */
function staleness(quote: MarketQuote, state: GateState, maxDays: number): string | null {
  if (quote.as_of === undefined) {
    return `the reference price has no date (prices must be at most ${maxDays} days old)`;
  }
  if (state.as_of === undefined) {
    return `the evaluation day is unknown, so the price from ${quote.as_of} cannot be checked for freshness (max ${maxDays} days)`;
  }
  const age = daysBetween(quote.as_of, state.as_of);
  if (Number.isNaN(age)) return `price date ${fmtValue(quote.as_of)} or evaluation day ${fmtValue(state.as_of)} is not a date`;
  if (age > maxDays) {
    return `reference price from ${quote.as_of} is ${age} days old on ${state.as_of} (max ${maxDays} days)`;
  }
  return null;
}
