/**
 * The one order that travels from the final gate (or the kill switch) through the executor into
 * the journal. Every stage reads it; none rebuilds it from a subset of its fields.
 */
import type { Side } from "./domain.js";

export interface Order {
  /** Upper case, as allowlisted. */
  symbol: string;
  side: Side;
  /** Shares. */
  quantity: number;
  /** In the instrument's currency. */
  limit_price: number;
  /** The instrument's currency (ISO 4217). */
  currency: string;
  /** Instrument currency → base currency multiplier the gate valued the order at; fills are booked at it. */
  fx_to_base: number;
  /** A kill-switch liquidation: outside the gate's approval and the monthly quota. */
  liquidation: boolean;
  /** Set once the executor has assigned it (written to the journal before the send). */
  client_order_id?: string;
  exchange?: string;
}

/** One fill of an order as the executor hands it to the journal (idempotent by fill_id). */
export interface FillBooking {
  fill_id: string;
  symbol: string;
  side: Side;
  quantity: number;
  /** In the instrument's currency. */
  price: number;
  /** In `commission_currency` (the broker port says which). */
  commission: number;
  /** The instrument's currency or the base currency. */
  commission_currency: string;
  /** The order's rate to base: gross and commission are booked in the base currency at it. */
  fx_to_base: number;
  at: string;
}

/**
 * An order's identity: the fields an approval and a placement bind to, in a fixed order (the
 * approval hash, the audit's cross-checks). The one definition; reason and evidence are not part
 * of it. Within a batch two identical orders are told apart by their input index, never by this.
 */
export function orderKey(o: { symbol: string; side: string; quantity: number; limit_price: number }): [string, string, number, number] {
  return [o.symbol.toUpperCase(), o.side, o.quantity, o.limit_price];
}
