/**
 * The simulated broker's matching engine and book-keeping, pure over its state: the fill price of a
 * limit order on a day's bar, and what a fill does to the order, the cash and the position.
 *
 * Money: the book is kept in the account's (base) currency. A fill of an instrument quoted in
 * another currency moves cash by quantity × price × fx_to_base and its commission (charged in the
 * instrument's currency) × fx_to_base, each rounded half-even once to minor units: exactly as the
 * journal books the same fill, so reconciliation can compare cash to the minor unit.
 */
import type { Bar, Side } from "../core/domain.js";
import { Dec, fromMinor, productToMinor, roundMajor, toMinor } from "../core/money.js";
import { type CommissionSchedule, commissionFor, estimateCommission } from "./commission.js";
import type { SimFill, SimOrder, SimState } from "./simulated-store.js";
import type { BrokerOrder } from "./types.js";

/** How the simulated broker prices instruments in its account currency. */
export interface SimPricing {
  /** The account (base) currency. */
  base: string;
  /** An instrument's currency and its rate to base; undefined: not tradable. */
  instrument(symbol: string): { currency: string; fx_to_base: number } | undefined;
}

/** Every instrument in USD, an account in USD (the default). */
export const USD_PRICING: SimPricing = { base: "USD", instrument: () => ({ currency: "USD", fx_to_base: 1 }) };

/** The fill price of a limit order on a day's bar, or undefined when the bar never reaches the limit. */
export function fillPrice(side: Side, limit: number, bar: Bar): number | undefined {
  const eps = 1e-9;
  if (side === "BUY") {
    if (bar.low > limit + eps) return undefined;
    return bar.open <= limit + eps ? bar.open : limit;
  }
  if (bar.high < limit - eps) return undefined;
  return bar.open >= limit - eps ? bar.open : limit;
}

function rateOf(pricing: SimPricing, symbol: string): { currency: string; fx_to_base: number } {
  const r = pricing.instrument(symbol);
  if (!r) throw new Error(`the simulated broker has no currency for ${symbol}`);
  return r;
}

/** The base-currency cost (minor units) of buying `quantity` at `price` with the schedule's commission. */
export function buyCostMinor(schedule: CommissionSchedule, pricing: SimPricing, symbol: string, quantity: number, price: number): number {
  const { currency, fx_to_base } = rateOf(pricing, symbol);
  return (
    productToMinor(quantity, price, fx_to_base, pricing.base) +
    productToMinor(1, estimateCommission(schedule, quantity, price, currency), fx_to_base, pricing.base)
  );
}

/**
 * Fills `qty` of `o` at `price`: the order's filled quantity and average price, the commission
 * (charged cumulatively per order, so partial fills pay the schedule once), the cash and the
 * position. Returns the fill record (the caller indexes and persists it).
 */
export function applyFill(state: SimState, o: SimOrder, qty: number, price: number, at: string, schedule: CommissionSchedule, pricing: SimPricing): SimFill {
  const { currency, fx_to_base: fx } = rateOf(pricing, o.symbol);
  const base = pricing.base;
  const prevQty = o.filled_quantity;
  // Exact decimals: the order's value so far, its average price (6 places) and the commission due.
  const prevValue = new Dec(prevQty).mul(o.avg_fill_price ?? 0);
  const newQty = new Dec(prevQty).add(qty).toNumber();
  const newValue = prevValue.add(new Dec(qty).mul(price));
  const commission = roundMajor(Dec.max(0, new Dec(commissionFor(schedule, newQty, newValue, currency)).sub(o.commission)), currency);
  o.commission = roundMajor(new Dec(o.commission).add(commission), currency);
  o.filled_quantity = newQty;
  o.avg_fill_price = newValue.div(newQty).toDecimalPlaces(6, Dec.ROUND_HALF_EVEN).toNumber();
  o.status = newQty >= o.quantity ? "filled" : "partially_filled";
  o.updated_at = at;
  const fill: SimFill = {
    fill_id: `${state.account_id}-F${state.next_fill_seq++}`,
    broker_order_id: o.broker_order_id,
    symbol: o.symbol,
    side: o.side,
    quantity: qty,
    price,
    commission,
    commission_currency: currency,
    at,
    trading_day: o.trading_day,
  };
  state.fills.push(fill);
  const grossMinor = productToMinor(qty, price, fx, base);
  const commissionMinor = productToMinor(1, commission, fx, base);
  const pos = state.positions[o.symbol] ?? { quantity: 0, cost: 0 };
  let cash = toMinor(state.cash, base);
  if (o.side === "BUY") {
    cash -= grossMinor + commissionMinor;
    pos.quantity = new Dec(pos.quantity).add(qty).toNumber();
    pos.cost = fromMinor(toMinor(pos.cost, base) + grossMinor + commissionMinor, base);
  } else {
    cash += grossMinor - commissionMinor;
    const before = pos.quantity;
    pos.quantity = new Dec(before).sub(qty).toNumber();
    pos.cost = before > 0 ? roundMajor(new Dec(pos.cost).mul(pos.quantity).div(before), base) : 0;
  }
  state.cash = fromMinor(cash, base);
  if (pos.quantity === 0) delete state.positions[o.symbol];
  else state.positions[o.symbol] = pos;
  return fill;
}

export function publicOrder(o: SimOrder): BrokerOrder {
  return {
    broker_order_id: o.broker_order_id,
    client_order_id: o.client_order_id,
    symbol: o.symbol,
    side: o.side,
    quantity: o.quantity,
    limit_price: o.limit_price,
    status: o.status,
    filled_quantity: o.filled_quantity,
    avg_fill_price: o.avg_fill_price,
    submitted_at: o.submitted_at,
    updated_at: o.updated_at,
    trading_day: o.trading_day,
    ...(o.reject_reason ? { reject_reason: o.reject_reason } : {}),
  };
}
