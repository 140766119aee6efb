/**
 * Alpaca's wire shapes (numbers arrive as strings) and their mapping to the broker types: order
 * status, side, order, plus the decimal strings Alpaca wants and the New York trading day of its clock.
 * Every record mapped from a response is checked against its schema (records.ts) before use.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Side } from "../core/domain.js";
import { BrokerError } from "./errors.js";
import { BrokerOrderSchema } from "./records.js";
import type { BrokerOrder, BrokerOrderStatus } from "./types.js";

export interface AlpacaOrder {
  id: string;
  client_order_id: string;
  symbol: string;
  side: string;
  qty: string | null;
  filled_qty: string | null;
  filled_avg_price: string | null;
  limit_price: string | null;
  status: string;
  created_at?: string;
  submitted_at?: string | null;
  updated_at?: string | null;
}

export interface AlpacaFillActivity {
  id: string;
  activity_type?: string;
  transaction_time: string;
  price: string;
  qty: string;
  side: string;
  symbol: string;
  order_id: string;
}

/** Alpaca's order status as a `BrokerOrderStatus`. Unknown statuses count as still working (the executor then cancels and reads back: conservative). */
export function mapAlpacaStatus(status: string, filledQty = 0, qty = Number.POSITIVE_INFINITY): BrokerOrderStatus {
  switch (status) {
    case "new":
    case "accepted":
    case "pending_new":
    case "accepted_for_bidding":
    case "held":
      return "accepted";
    case "partially_filled":
      return "partially_filled";
    case "pending_cancel":
    case "pending_replace":
      return "pending_cancel";
    case "filled":
      return "filled";
    case "canceled":
    case "replaced":
      return "cancelled";
    case "expired":
    case "done_for_day":
      return "expired";
    case "calculated":
      return filledQty >= qty ? "filled" : "expired";
    case "rejected":
    case "suspended":
    case "stopped":
      return "rejected";
    default:
      return filledQty > 0 ? "partially_filled" : "accepted";
  }
}

/** An unexpected response from `what` (the adapter's one shape error). */
export function badShape(what: string): BrokerError {
  return new BrokerError("broker_unreachable", `unexpected response from ${what}`);
}

const shown = (v: unknown): string => (v === undefined ? "nothing" : String(JSON.stringify(v) ?? v).slice(0, 40));

/**
 * `record` (mapped from a response of `what`) as the `kind` of record `schema` describes; refuses
 * one that does not fit (`broker_unreachable`), naming the field: "unexpected response from
 * /v2/orders: order.quantity: expected number to be greater or equal to 0, got -5".
 */
export function checked<T extends TSchema>(schema: T, record: Static<T>, what: string, kind: string): Static<T> {
  if (Value.Check(schema, record)) return record;
  const first = Value.Errors(schema, record).First();
  const field = first ? [kind, ...first.path.split("/").slice(1)].join(".") : kind;
  const rule = first ? `${first.message.charAt(0).toLowerCase()}${first.message.slice(1)}, got ${shown(first.value)}` : "does not fit";
  throw new BrokerError("broker_unreachable", `unexpected response from ${what}: ${field}: ${rule}`);
}

/**
 * An Alpaca order as a `BrokerOrder`; throws `badShape(what)` on a malformed one, and names the
 * field when the order it maps to does not fit its schema. `seen` learns the
 * order's submitted_at once its shape checks out (the adapter bounds its fill query with it).
 */
export function toOrder(o: AlpacaOrder, what: string, seen?: (brokerOrderId: string, submittedAt: string) => void): BrokerOrder {
  const quantity = Number(o?.qty);
  const filled = o?.filled_qty == null ? 0 : Number(o.filled_qty);
  const limit = Number(o?.limit_price);
  if (
    !o ||
    typeof o.id !== "string" ||
    typeof o.client_order_id !== "string" ||
    typeof o.status !== "string" ||
    !Number.isFinite(quantity) ||
    !Number.isFinite(filled)
  ) {
    throw badShape(what);
  }
  const avg = o.filled_avg_price == null ? null : Number(o.filled_avg_price);
  const submitted = o.submitted_at ?? o.created_at ?? "";
  const updated = o.updated_at ?? submitted;
  const status = mapAlpacaStatus(o.status, filled, quantity);
  const order = checked(
    BrokerOrderSchema,
    {
      broker_order_id: o.id,
      client_order_id: o.client_order_id,
      symbol: String(o.symbol).toUpperCase(),
      side: toSide(o.side),
      quantity,
      limit_price: Number.isFinite(limit) ? limit : 0,
      status,
      filled_quantity: filled,
      avg_fill_price: avg !== null && Number.isFinite(avg) && filled > 0 ? avg : null,
      submitted_at: submitted,
      updated_at: updated,
      ...(status === "rejected" ? { reject_reason: `the broker reports the order ${o.status}` } : {}),
    },
    what,
    "order",
  );
  if (submitted) seen?.(order.broker_order_id, submitted);
  return order;
}

export function toSide(side: string): Side {
  if (side === "buy") return "BUY";
  if (side === "sell" || side === "sell_short") return "SELL";
  throw new BrokerError("broker_unreachable", `unexpected order side ${String(side).slice(0, 20)}`);
}

/** A positive number as Alpaca wants it: a plain decimal string (never exponent notation). */
export function decimalString(x: number): string {
  const s = String(x);
  return /e/i.test(s) ? x.toFixed(10).replace(/\.?0+$/, "") : s;
}

let nyDay: Intl.DateTimeFormat | undefined;

/** The New York calendar day (YYYY-MM-DD) of an instant. */
export function newYorkDay(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) throw new BrokerError("broker_unreachable", "unexpected timestamp from /v2/clock");
  nyDay ??= new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });
  return nyDay.format(new Date(t));
}
