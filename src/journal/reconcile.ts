/**
 * Reconciliation (pure): the journal's holdings against the broker's positions, and the broker's
 * open orders against the orders the journal knows, and (for a broker whose book is the account's
 * own: the simulated broker) the cash moved by trading. Any difference stops the run before the
 * model is called.
 */
import type { ReconcileDifference } from "../core/events.js";
import { fromMinor } from "../core/money.js";

/** Cash moved by fills and commissions since the account opened, in base-currency minor units. */
export interface CashFlows {
  currency: string;
  journalMinor: number;
  brokerMinor: number;
}

export interface ReconcileOptions {
  /** Quantities closer than this are equal (fractional shares, float noise from a broker API). */
  tolerance: number;
  /** Client order ids the journal wrote; an open broker order with one of these is ours. */
  knownClientIds?: Set<string>;
  /** Compared to the minor unit: both books round each fill the same way. */
  cash?: CashFlows;
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
        out.push({
          kind: "unbooked_position",
          symbol,
          journal_quantity: j,
          broker_quantity: b,
          message: `the broker holds ${b} ${symbol}, the journal has no such holding`,
        });
      } else if (Math.abs(b) <= tol) {
        out.push({
          kind: "missing_position",
          symbol,
          journal_quantity: j,
          broker_quantity: b,
          message: `the journal holds ${j} ${symbol}, the broker has no position`,
        });
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
  if (opts.cash && opts.cash.journalMinor !== opts.cash.brokerMinor) {
    const { currency } = opts.cash;
    const j = fromMinor(opts.cash.journalMinor, currency);
    const b = fromMinor(opts.cash.brokerMinor, currency);
    out.push({
      kind: "cash_mismatch",
      symbol: currency,
      journal_cash_flow: j,
      broker_cash_flow: b,
      message: `cash moved by trading: the journal has ${j} ${currency}, the broker ${b} ${currency}`,
    });
  }
  return out;
}
