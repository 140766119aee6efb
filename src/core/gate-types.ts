/**
 * The risk gate's public types. The gate is pure: `evaluate(orders, state, market, limits, universe)`
 * never mutates its input and never throws on bad numbers (it blocks them).
 * These shapes mirror the public `gate check --scenario` JSON contract (snake_case on purpose).
 */
import type { TradingState } from "./domain.js";
import type { Order } from "./order.js";

export const BLOCK_CODES = [
  "invalid_side",
  "not_allowlisted",
  "wrong_exchange",
  "non_finite_number",
  "non_positive_quantity",
  "fractional_quantity",
  "limit_price_required",
  "no_reference_price",
  "stale_reference_price",
  "price_band",
  "monthly_order_limit",
  "commission_cap",
  "no_shorting",
  "insufficient_cash",
  "position_limit",
  "max_order_notional",
  "duplicate_order",
  "reducing_only",
  "trading_halted",
  "drawdown_kill_switch",
  /** A finite input outside the range the gate computes with (a 1e308 quantity, a short holding, a negative limit). */
  "number_out_of_range",
  /** A limit price of zero or less (a missing one is limit_price_required). */
  "non_positive_limit_price",
  /** The limit price is not a whole number of the instrument's ticks. */
  "tick_size",
  /** An intermediate result (value, drawdown, notional, cost) came out non-finite: blocked, never compared. */
  "non_finite_result",
] as const;
export type BlockCode = (typeof BLOCK_CODES)[number];

export interface BlockReason {
  code: BlockCode;
  /** A sentence with the numbers, e.g. "limit 5.50 is 10.00% from price 5.00 (max 2%)". */
  message: string;
}

export type { Limits } from "./limits.js";

/** Reference data for one instrument, as the gate sees it. */
export interface MarketQuote {
  /** Reference price in the instrument's currency. */
  price: number;
  /** Multiply an instrument-currency amount by this to get the base currency. Default 1. */
  fx_to_base?: number;
  /** Estimated commission for the order, in the base currency. Default 0. */
  commission?: number;
  /** The day the reference price is from (YYYY-MM-DD). */
  as_of?: string;
}
export type GateMarket = Record<string, MarketQuote>;

export interface GateHolding {
  quantity: number;
  /** Valuation price in the instrument's currency; the market price when omitted. */
  price?: number;
}

export interface OpenOrder {
  symbol: string;
  side: string;
  quantity: number;
  limit_price: number;
}

/** The portfolio the gate evaluates against. Cash and peak are in the base currency. */
export interface GateState {
  cash: number;
  holdings: Record<string, GateHolding>;
  peak: number;
  orders_this_month: number;
  trading_state: TradingState;
  open_orders?: OpenOrder[];
  /** The day of evaluation (YYYY-MM-DD), used for price freshness. */
  as_of?: string;
}

/** An order as the gate receives it: loose on purpose, so malformed input is blocked, not thrown. */
export interface GateOrder {
  symbol: string;
  side: string;
  quantity: number;
  limit_price: number;
  exchange?: string;
  reason?: string;
  [extra: string]: unknown;
}

export interface GateDecision {
  /**
   * The position in the input of the order this decision answers (0-based). The gate answers in
   * evaluated order (sells first), so a caller looks a verdict up by its index, never by value:
   * two identical orders are two inputs with two verdicts.
   */
  index: number;
  order: GateOrder;
  approved: boolean;
  reasons: BlockReason[];
  /** quantity × limit price, in the base currency. */
  notional: number;
  /** Estimated commission, in the base currency. */
  commission: number;
  /**
   * An approved order as it is placed: symbol, side, quantity, limit, the instrument's currency and
   * the rate to base the gate valued it at. Null when blocked. Not part of the scenario JSON.
   */
  placement?: Order | null;
}

/** The decision that answers input order `index` (decisions come in evaluated order: sells first). */
export function decisionFor(decisions: readonly GateDecision[], index: number): GateDecision | undefined {
  return decisions.find((d) => d.index === index);
}

/**
 * The decisions in input order, each found by its index: exactly one per input order. A missing
 * or repeated index is the gate's bug and throws, naming the input order.
 */
export function inInputOrder(decisions: readonly GateDecision[], count: number): GateDecision[] {
  if (decisions.length !== count) throw new Error(`the gate answered ${decisions.length} decisions for ${count} orders`);
  return Array.from({ length: count }, (_, i) => {
    const d = decisionFor(decisions, i);
    if (!d) throw new Error(`no gate decision for input order ${i}`);
    return d;
  });
}

/** One order's verdict as the gate's per-order modules build it; `evaluate` adds the input index. */
export type Verdict = Omit<GateDecision, "index">;

export interface GateResult {
  decisions: GateDecision[];
  portfolio_after: {
    cash: number;
    holdings: Record<string, GateHolding>;
    orders_this_month: number;
  };
  drawdown_pct: number;
  kill_switch: boolean;
  /**
   * Cash once the approved orders fill at their limits, as the journal books those fills (each
   * notional and commission rounded half-even once to the base currency's minor unit): whole minor
   * units. `portfolio_after.cash` is the same projection unrounded. Not part of the scenario JSON.
   */
  cash_after_minor: number;
}
