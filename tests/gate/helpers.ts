import type { Instrument } from "../../src/core/domain.js";
import type { GateMarket, GateOrder, GateState, Limits } from "../../src/core/gate-types.js";

export const LIMITS: Limits = {
  base_currency: "USD",
  max_position_pct: 25,
  max_orders_per_month: 10,
  max_drawdown_pct: 25,
  max_price_deviation_pct: 2,
  max_commission_pct: 10,
  allow_fractional: false,
  max_order_notional: null,
  max_price_age_days: null,
};

export const UNIVERSE: Instrument[] = [
  { symbol: "AAA", currency: "USD", exchange: "SMART" },
  { symbol: "BBB", currency: "USD", exchange: "SMART" },
  { symbol: "CCC", currency: "USD" },
  { symbol: "EUR1", currency: "EUR", exchange: "XETRA", tick: 0.05 },
];

export const MARKET: GateMarket = {
  AAA: { price: 10, commission: 0 },
  BBB: { price: 20, commission: 0 },
  CCC: { price: 50, commission: 0 },
  EUR1: { price: 100, fx_to_base: 1.1, commission: 0 },
};

/** Cash 10,000, no holdings, peak 10,000: value 10,000, so 25% = 2,500. */
export function state(over: Partial<GateState> = {}): GateState {
  return { cash: 10_000, holdings: {}, peak: 10_000, orders_this_month: 0, trading_state: "ACTIVE", ...over };
}

export function buy(symbol: string, quantity: number, limit_price: number, extra: Partial<GateOrder> = {}): GateOrder {
  return { symbol, side: "BUY", quantity, limit_price, ...extra };
}
export function sell(symbol: string, quantity: number, limit_price: number, extra: Partial<GateOrder> = {}): GateOrder {
  return { symbol, side: "SELL", quantity, limit_price, ...extra };
}

export function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as Record<string, unknown>)) deepFreeze(v);
  }
  return o;
}
