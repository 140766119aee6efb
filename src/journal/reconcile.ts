/**
 * Reconciliation (pure): the journal's holdings against the broker's positions, and the broker's
 * open orders against the orders the journal knows. Any difference stops the run before the model
 * is called.
 */
import type { ReconcileDifference } from "../core/events.js";

export interface ReconcileOptions {
  /** Quantities closer than this are equal (fractional shares, float noise from a broker API). */
  tolerance: number;
  /** Client order ids the journal wrote; an open broker order with one of these is ours. */
  knownClientIds?: Set<string>;
}

export function reconcile(
  journalHoldings: Record<string, { quantity: number }>,
  brokerPositions: { symbol: string; quantity: number }[],
  brokerOpenOrders: { symbol: string; client_order_id?: string; broker_order_id: string }[],
  opts: ReconcileOptions = { tolerance: 1e-6 },
): ReconcileDifference[] {
  const tol = Math.abs(opts.tolerance);
  const out: ReconcileDifference[] = [];
  const broker = new Map<string, number>();
  for (const p of brokerPositions) broker.set(p.symbol, (broker.get(p.symbol) ?? 0) + p.quantity);
  const symbols = [...new Set([...Object.keys(journalHoldings), ...broker.keys()])].sort();
  for (const symbol of symbols) {
    const j = journalHoldings[symbol]?.quantity ?? 0;
    const b = broker.get(symbol) ?? 0;
    if (!Number.isFinite(j) || !Number.isFinite(b) || Math.abs(j - b) > tol) {
      if (Math.abs(j) <= tol) {
        out.push({ kind: "unbooked_position", symbol, journal_quantity: j, broker_quantity: b, message: `the broker holds ${b} ${symbol}, the journal has no such holding` });
      } else if (Math.abs(b) <= tol) {
        out.push({ kind: "missing_position", symbol, journal_quantity: j, broker_quantity: b, message: `the journal holds ${j} ${symbol}, the broker has no position` });
      } else {
        out.push({ kind: "position_mismatch", symbol, journal_quantity: j, broker_quantity: b, message: `${symbol}: the journal holds ${j}, the broker ${b}` });
      }
    }
  }
  for (const o of brokerOpenOrders) {
    const known = o.client_order_id !== undefined && opts.knownClientIds?.has(o.client_order_id) === true;
    if (known) continue;
    const d: ReconcileDifference = {
      kind: "unknown_open_order",
      symbol: o.symbol,
      broker_order_id: o.broker_order_id,
      message: `the broker has an open ${o.symbol} order ${o.broker_order_id}${o.client_order_id ? ` (client id ${o.client_order_id})` : ""} that the journal did not place`,
    };
    if (o.client_order_id !== undefined) d.client_order_id = o.client_order_id;
    out.push(d);
  }
  return out;
}
