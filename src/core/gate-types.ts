/**
 * The risk gate's public types. The gate is pure: `evaluate(orders, state, market, limits, universe)`
 * never mutates its input and never throws on bad numbers (it blocks them).
 * These shapes mirror the public `gate check --scenario` JSON contract (snake_case on purpose).
 */
import { type Static, Type } from "@sinclair/typebox";
import { TradingStateSchema } from "./domain.js";
import type { Order } from "./order.js";

const BLOCK_CODES = [
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
const BlockCodeSchema = Type.Union(BLOCK_CODES.map((code) => Type.Literal(code)));

export const BlockReasonSchema = Type.Object({
  code: BlockCodeSchema,
  /** A sentence with the numbers, e.g. "limit 5.50 is 10.00% from price 5.00 (max 2%)". */
  message: Type.String({ description: 'A sentence with the numbers, e.g. "limit 5.50 is 10.00% from price 5.00 (max 2%)".' }),
});
export type BlockReason = Static<typeof BlockReasonSchema>;

export type { Limits } from "./limits.js";

/** Reference data for one instrument, as the gate sees it. */
const MarketQuoteSchema = Type.Object({
  /** Reference price in the instrument's currency. */
  price: Type.Number({ description: "Reference price in the instrument's currency." }),
  /** Multiply an instrument-currency amount by this to get the base currency. Default 1. */
  fx_to_base: Type.Optional(Type.Number({ description: "Multiply an instrument-currency amount by this to get the base currency. Default 1." })),
  /** Estimated commission for the order, in the base currency. Default 0. */
  commission: Type.Optional(Type.Number({ description: "Estimated commission for the order, in the base currency. Default 0." })),
  /** The day the reference price is from (YYYY-MM-DD). */
  as_of: Type.Optional(Type.String({ description: "The day the reference price is from (YYYY-MM-DD)." })),
});
export type MarketQuote = Static<typeof MarketQuoteSchema>;
export type GateMarket = Record<string, MarketQuote>;

const GateHoldingSchema = Type.Object({
  quantity: Type.Number(),
  /** Valuation price in the instrument's currency; the market price when omitted. */
  price: Type.Optional(Type.Number({ description: "Valuation price in the instrument's currency; the market price when omitted." })),
});
export type GateHolding = Static<typeof GateHoldingSchema>;

/** A broker order still open: what it may yet buy or sell. */
const OpenOrderSchema = Type.Object({
  symbol: Type.String(),
  side: Type.String(),
  quantity: Type.Number(),
  limit_price: Type.Number(),
});
export type OpenOrder = Static<typeof OpenOrderSchema>;

/** The portfolio the gate evaluates against. Cash and peak are in the base currency. */
const GateStateSchema = Type.Object({
  cash: Type.Number(),
  holdings: Type.Record(Type.String(), GateHoldingSchema),
  peak: Type.Number(),
  orders_this_month: Type.Number(),
  trading_state: TradingStateSchema,
  open_orders: Type.Optional(Type.Array(OpenOrderSchema)),
  /** The day of evaluation (YYYY-MM-DD), used for price freshness. */
  as_of: Type.Optional(Type.String({ description: "The day of evaluation (YYYY-MM-DD), used for price freshness." })),
});
export type GateState = Static<typeof GateStateSchema>;

/**
 * An order as the gate receives it: loose on purpose, so malformed input is blocked, not thrown
 * (any side string, any extra keys: the gate checks them, the type does not).
 */
const GateOrderSchema = Type.Intersect([
  Type.Object({
    symbol: Type.String(),
    side: Type.String(),
    quantity: Type.Number(),
    limit_price: Type.Number(),
    exchange: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
  }),
  Type.Record(Type.String(), Type.Unknown()),
]);
export type GateOrder = Static<typeof GateOrderSchema>;

/**
 * An approved order as it is placed (the one `Order` of core/order.ts). In-process only: never
 * part of the scenario JSON, so the schema names its type and leaves its shape to order.ts.
 */
const PlacementSchema = Type.Unsafe<Order>({ type: "object", description: "The order as placed (core/order.ts)." });

/**
 * A buy the cash held does not cover but this batch's approved sells do: the part of its cost their
 * proceeds pay (at the sells' limits less commission), in whole minor units of the base currency.
 * Such a buy is placed only after those sells have filled, re-gated on the cash actually received.
 */
const FundedBySellsSchema = Type.Object({
  amount_minor: Type.Integer({ minimum: 0, description: "The part of the buy's cost the sells' proceeds pay, in minor units of the currency." }),
  currency: Type.String({ description: "The base currency." }),
});
export type FundedBySells = Static<typeof FundedBySellsSchema>;

/** One order's verdict as the gate's per-order modules build it; `evaluate` adds the input index. */
const VerdictSchema = Type.Object({
  order: GateOrderSchema,
  approved: Type.Boolean(),
  reasons: Type.Array(BlockReasonSchema),
  /** quantity × limit price, in the base currency. */
  notional: Type.Number({ description: "quantity × limit price, in the base currency." }),
  /** Estimated commission, in the base currency. */
  commission: Type.Number({ description: "Estimated commission, in the base currency." }),
  /**
   * An approved order as it is placed: symbol, side, quantity, limit, the instrument's currency and
   * the rate to base the gate valued it at. Null when blocked. Not part of the scenario JSON.
   */
  placement: Type.Optional(Type.Union([PlacementSchema, Type.Null()])),
  /** An approved buy funded by this batch's sells (placed after they fill); absent otherwise. */
  funded_by_sells: Type.Optional(FundedBySellsSchema),
});
export type Verdict = Static<typeof VerdictSchema>;

export const GateDecisionSchema = Type.Composite([
  Type.Object({
    /**
     * The position in the input of the order this decision answers (0-based). The gate answers in
     * evaluated order (sells first), so a caller looks a verdict up by its index, never by value:
     * two identical orders are two inputs with two verdicts.
     */
    index: Type.Integer({ minimum: 0, description: "The position in the input of the order this decision answers (0-based)." }),
  }),
  VerdictSchema,
]);
export type GateDecision = Static<typeof GateDecisionSchema>;

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

const GateResultSchema = Type.Object({
  decisions: Type.Array(GateDecisionSchema),
  portfolio_after: Type.Object({
    cash: Type.Number(),
    holdings: Type.Record(Type.String(), GateHoldingSchema),
    orders_this_month: Type.Number(),
  }),
  drawdown_pct: Type.Number(),
  kill_switch: Type.Boolean(),
  /**
   * Cash once the approved orders fill at their limits, as the journal books those fills (each
   * notional and commission rounded half-even once to the base currency's minor unit): whole minor
   * units. `portfolio_after.cash` is the same projection unrounded. Not part of the scenario JSON.
   */
  cash_after_minor: Type.Integer({ description: "Cash after the approved orders fill, as the journal books them: whole minor units." }),
});
export type GateResult = Static<typeof GateResultSchema>;
