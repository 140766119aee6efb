/**
 * The commission the gate charges an order: the live run's estimate when given, else the quote's
 * fixed commission (0 when it has none). An unknown commission counts as infinite. Pure: no I/O.
 */
import type { GateOrder, MarketQuote } from "../core/gate-types.js";
import { isNum } from "./normalize.js";

export interface EvaluateOptions {
  /**
   * Commission estimate in the base currency for an order of this notional (base currency); used by
   * the live run, where commission depends on quantity. When given it overrides the quote's fixed
   * `commission`; returning `undefined` (or a non-finite or negative number) means unknown, which
   * counts as infinite and blocks the order (commission_cap). Without it, the quote's `commission`
   * is used, defaulting to 0 when the quote has none.
   */
  commission?: (order: GateOrder, notionalBase: number) => number | undefined;
}

/** The order's commission (base currency); `known: false` with an infinite amount when unknown. */
export function commissionOf(order: GateOrder, notional: number, quote: MarketQuote, options: EvaluateOptions): { commission: number; known: boolean } {
  if (options.commission !== undefined) {
    let c: number | undefined;
    try {
      c = options.commission(order, notional);
    } catch {
      c = undefined;
    }
    return isNum(c) && c >= 0 ? { commission: c, known: true } : { commission: Number.POSITIVE_INFINITY, known: false };
  }
  if (quote.commission === undefined) return { commission: 0, known: true };
  const known = isNum(quote.commission) && quote.commission >= 0;
  return { commission: known ? quote.commission : Number.POSITIVE_INFINITY, known };
}
