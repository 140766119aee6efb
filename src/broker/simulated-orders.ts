/**
 * Order placement at the simulated broker, pure over its state: the checks a new limit DAY order
 * must pass (shape, market data, currency, buying power and shares net of working orders), the
 * order record it becomes (with the injected faults it carries), and the log record an order
 * operation appends.
 */
import type { SimBrokerConfig } from "../config/types.js";
import { money } from "../core/format.js";
import { fromMinor, toMinor } from "../core/money.js";
import type { MarketData } from "../market/data.js";
import { BrokerError } from "./errors.js";
import { buyCostMinor, type SimPricing } from "./simulated-engine.js";
import type { OrderFault } from "./simulated-faults.js";
import type { LogRecord, SimOrder, SimState } from "./simulated-store.js";
import type { PlaceOrderRequest } from "./types.js";

export interface PlacementContext {
  config: SimBrokerConfig;
  pricing: SimPricing;
  market: MarketData;
  state: SimState;
  working: Iterable<SimOrder>;
}

/** Refuses (`order_rejected`) an order the open day cannot take. */
export function validateOrder(req: PlaceOrderRequest, ctx: PlacementContext): void {
  const { config, pricing, market, state } = ctx;
  const reject = (m: string) => new BrokerError("order_rejected", m);
  if (req.side !== "BUY" && req.side !== "SELL") throw reject(`side must be BUY or SELL`);
  if (!Number.isInteger(req.quantity) || req.quantity <= 0) throw reject(`quantity ${req.quantity} must be a whole number of shares > 0`);
  if (!Number.isFinite(req.limit_price) || req.limit_price <= 0) throw reject(`limit price ${req.limit_price} must be > 0`);
  if (Math.abs(req.limit_price * 100 - Math.round(req.limit_price * 100)) > 1e-6) throw reject(`limit price ${req.limit_price} is not a multiple of 0.01`);
  const symbol = req.symbol.toUpperCase();
  if (!market.barOn(symbol, state.current_day!)) throw reject(`${symbol} does not trade on ${state.current_day} (no market data)`);
  if (!pricing.instrument(symbol)) throw reject(`${symbol} has no currency or rate to ${pricing.base} at the simulated broker`);
  let reservedQty = 0;
  let reservedMinor = 0;
  for (const o of ctx.working) {
    if (o.side === "BUY") reservedMinor += buyCostMinor(config, pricing, o.symbol, o.quantity - o.filled_quantity, o.limit_price);
    if (o.symbol === symbol && o.side === req.side) reservedQty += o.quantity - o.filled_quantity;
  }
  if (req.side === "BUY") {
    const base = pricing.base;
    const need = buyCostMinor(config, pricing, symbol, req.quantity, req.limit_price);
    const available = toMinor(state.cash, base) - reservedMinor;
    if (need > available) {
      throw reject(`insufficient buying power: order needs ${money(fromMinor(need, base), base)}, available ${money(fromMinor(available, base), base)}`);
    }
  } else {
    const held = state.positions[symbol]?.quantity ?? 0;
    if (req.quantity > held - reservedQty) throw reject(`insufficient shares of ${symbol}: selling ${req.quantity}, available ${held - reservedQty}`);
  }
}

/**
 * The accepted order record for `req` on the open day (takes the next order number), marked with
 * the order faults it carries; `settlePolls`: fills() calls its fills stay hidden (fill_during_cancel).
 */
export function newSimOrder(state: SimState, req: PlaceOrderRequest, at: string, faults: readonly OrderFault[]): { order: SimOrder; settlePolls?: number } {
  const order: SimOrder = {
    broker_order_id: `${state.account_id}-O${state.next_order_seq++}`,
    client_order_id: req.client_order_id,
    symbol: req.symbol.toUpperCase(),
    side: req.side,
    quantity: req.quantity,
    limit_price: req.limit_price,
    status: "accepted",
    filled_quantity: 0,
    avg_fill_price: null,
    submitted_at: at,
    updated_at: at,
    trading_day: state.current_day!,
    commission: 0,
  };
  let settlePolls: number | undefined;
  for (const f of faults) {
    if (f.kind === "fill_during_cancel") {
      order.held = true;
      settlePolls = f.settle_polls ?? 0;
    }
    if (f.kind === "partial_next") order.forced_max = f.quantity ?? Math.floor(req.quantity / 2);
    if (f.kind === "stuck_after_cancel") order.stuck = true;
  }
  return settlePolls === undefined ? { order } : { order, settlePolls };
}

/** What an order operation changed (the order; its new fills, cash and position), for the append-only log. */
export function orderLogRecord(state: SimState, o: SimOrder, fillsBefore: number): LogRecord {
  const fills = state.fills.slice(fillsBefore);
  return {
    gen: state.gen ?? 0,
    orders: [o],
    ...(fills.length > 0
      ? {
          fills,
          cash: state.cash,
          positions: [[o.symbol, state.positions[o.symbol] ?? null]],
        }
      : {}),
    seqs: [state.next_order_seq, state.next_fill_seq],
  };
}
