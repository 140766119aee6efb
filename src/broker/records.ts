/**
 * The broker's data records, each defined once as a TypeBox schema; its TypeScript type is
 * `Static<>` of it. The simulated broker's stored orders and fills (simulated-state.ts) extend the
 * order and fill here; the Alpaca adapter checks what it maps from Alpaca's responses against them
 * (alpaca-wire.ts). Quantities are shares; prices in the instrument's currency.
 */
import { type Static, Type } from "@sinclair/typebox";
import { SideSchema } from "../core/order-intent.js";

/** Money and quantities are finite and within the range where minor units stay exact. */
export const LIMIT = 1e15;
export const NonNeg = Type.Number({ minimum: 0, maximum: LIMIT });
const Id = Type.String({ minLength: 1 });

/** Where an order is at the broker. `pending_cancel` is still working. Each a literal so the type is the union, not `string`. */
export const BrokerOrderStatusSchema = Type.Union([
  Type.Literal("accepted"),
  Type.Literal("partially_filled"),
  Type.Literal("pending_cancel"),
  Type.Literal("filled"),
  Type.Literal("cancelled"),
  Type.Literal("expired"),
  Type.Literal("rejected"),
]);
export type BrokerOrderStatus = Static<typeof BrokerOrderStatusSchema>;

const BrokerClockSchema = Type.Object({
  /** The session the broker would trade an order in now (YYYY-MM-DD). */
  tradingDay: Type.String(),
  isOpen: Type.Boolean(),
  /** The broker's notion of now (ISO 8601). */
  now: Type.String(),
  nextOpen: Type.Optional(Type.String()),
  nextClose: Type.Optional(Type.String()),
});
export type BrokerClock = Static<typeof BrokerClockSchema>;

export const BrokerAccountSchema = Type.Object({
  account_id: Type.String(),
  /** Must be true: the guard refuses anything else. */
  paper: Type.Boolean(),
  cash: Type.Number(),
  currency: Type.String(),
  status: Type.String(),
  trading_blocked: Type.Boolean(),
  /**
   * Set only by a broker whose book is the account's own (the simulated broker): the cash it
   * started with, so reconciliation can compare the cash moved by trading with the journal's.
   */
  starting_cash: Type.Optional(Type.Number()),
});
export type BrokerAccount = Static<typeof BrokerAccountSchema>;

export const BrokerPositionSchema = Type.Object({
  symbol: Id,
  quantity: Type.Number(),
  /** Average cost per share including commissions, if the broker reports it. */
  avg_cost: Type.Optional(Type.Number()),
});
export type BrokerPosition = Static<typeof BrokerPositionSchema>;

const PlaceOrderRequestSchema = Type.Object({
  /** ≤ 128 characters; unique per order, forever. */
  client_order_id: Type.String(),
  symbol: Type.String(),
  side: SideSchema,
  quantity: Type.Number(),
  limit_price: Type.Number(),
});
export type PlaceOrderRequest = Static<typeof PlaceOrderRequestSchema>;

export const BrokerOrderSchema = Type.Object({
  broker_order_id: Id,
  client_order_id: Id,
  symbol: Id,
  side: SideSchema,
  quantity: NonNeg,
  limit_price: NonNeg,
  status: BrokerOrderStatusSchema,
  filled_quantity: NonNeg,
  /** Volume-weighted fill price, null before any fill. */
  avg_fill_price: Type.Union([NonNeg, Type.Null()]),
  submitted_at: Type.String(),
  updated_at: Type.String(),
  /** The session the order belongs to (YYYY-MM-DD). */
  trading_day: Type.Optional(Type.String()),
  reject_reason: Type.Optional(Type.String()),
});
export type BrokerOrder = Static<typeof BrokerOrderSchema>;

export const BrokerFillSchema = Type.Object({
  fill_id: Id,
  broker_order_id: Id,
  symbol: Id,
  side: SideSchema,
  quantity: NonNeg,
  price: NonNeg,
  /** The commission charged for this fill, in `commission_currency`. */
  commission: NonNeg,
  /** ISO 4217: the instrument's currency or the account's; the journal books it in the base currency at the fill's rate. */
  commission_currency: Type.String({ pattern: "^[A-Z]{3}$" }),
  at: Type.String(),
});
export type BrokerFill = Static<typeof BrokerFillSchema>;

const BrokerEndpointSchema = Type.Object({
  kind: Type.Union([Type.Literal("sim"), Type.Literal("alpaca")]),
  url: Type.String(),
  paper: Type.Boolean(),
});
export type BrokerEndpoint = Static<typeof BrokerEndpointSchema>;
