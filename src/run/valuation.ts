/**
 * The account's value: the journal's ledger cash plus its holdings at reference prices, by the one
 * exact valuation (src/core/valuation.ts: integer minor units of the base currency).
 */
import type { PriceSource } from "../core/domain.js";
import { fromMinor } from "../core/money.js";
import { accountValueMinor, type PricedPosition } from "../core/valuation.js";

export interface ValuedAccount {
  cashMinor(): number;
  baseCurrency(): string;
  holdings(): Record<string, { quantity: number }>;
}

export function accountValue(journal: ValuedAccount, prices: PriceSource): { value: number; unpriced: string[] } {
  const base = journal.baseCurrency();
  const unpriced: string[] = [];
  const positions: PricedPosition[] = [];
  for (const [symbol, h] of Object.entries(journal.holdings())) {
    if (!(h.quantity > 0)) continue;
    const p = prices.referencePrice(symbol);
    if (!p) unpriced.push(symbol);
    else positions.push({ quantity: h.quantity, price: p.price, fx_to_base: p.fx_to_base });
  }
  return { value: fromMinor(accountValueMinor(journal.cashMinor(), positions, base), base), unpriced };
}
