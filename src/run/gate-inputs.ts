/**
 * The gate's inputs for a run, assembled from the journal (cash, holdings, peak, quota, state),
 * the broker's open orders and the point-in-time reference prices. Pure given its arguments.
 */
import type { Instrument, PriceSource } from "../core/domain.js";
import type { GateMarket, GateOrder, GateState, Limits, OpenOrder } from "../core/gate-types.js";
import type { CommissionSchedule } from "../broker/commission.js";
import { estimateCommission } from "../broker/commission.js";
import { fromMinor, productToMinor } from "../core/money.js";

export interface GateInputSnapshot {
  state: GateState;
  market: GateMarket;
  limits: Limits;
  universe: Instrument[];
  commission: (order: GateOrder, notionalBase: number) => number | undefined;
}

export interface JournalFacts {
  cash: number;
  holdings: Record<string, { quantity: number }>;
  peak: number;
  ordersThisMonth: number;
  tradingState: GateState["trading_state"];
}

/** Reference quotes for every universe symbol and every holding that has a price. */
function gateMarketOf(symbols: Iterable<string>, prices: PriceSource): GateMarket {
  const market: GateMarket = {};
  for (const s of symbols) {
    const p = prices.referencePrice(s);
    if (p) market[s.toUpperCase()] = { price: p.price, fx_to_base: p.fx_to_base, as_of: p.as_of };
  }
  return market;
}

export function buildGateInputs(args: {
  facts: JournalFacts;
  openOrders: OpenOrder[];
  prices: PriceSource;
  universe: Instrument[];
  limits: Limits;
  schedule: CommissionSchedule;
  tradingDay: string;
}): GateInputSnapshot {
  const symbols = new Set<string>([...args.universe.map((i) => i.symbol), ...Object.keys(args.facts.holdings)]);
  const market = gateMarketOf(symbols, args.prices);
  const state: GateState = {
    cash: args.facts.cash,
    holdings: Object.fromEntries(Object.entries(args.facts.holdings).map(([s, h]) => [s, { quantity: h.quantity }])),
    peak: args.facts.peak,
    orders_this_month: args.facts.ordersThisMonth,
    trading_state: args.facts.tradingState,
    open_orders: args.openOrders,
    as_of: args.tradingDay,
  };
  const schedule = args.schedule;
  const base = args.limits.base_currency;
  return {
    state,
    market,
    limits: args.limits,
    universe: args.universe,
    // Commission by the broker's schedule for this order's quantity (instrument currency), converted
    // to the base currency and rounded exactly as the journal books it.
    commission: (order) => {
      if (!(order.quantity > 0) || !Number.isFinite(order.limit_price)) return undefined;
      const sym = order.symbol.toUpperCase();
      const fx = market[sym]?.fx_to_base ?? 1;
      const currency = args.universe.find((i) => i.symbol.toUpperCase() === sym)?.currency ?? base;
      return fromMinor(productToMinor(1, estimateCommission(schedule, order.quantity, order.limit_price, currency), fx, base), base);
    },
  };
}
