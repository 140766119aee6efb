/** The account's value: the journal's ledger cash plus its holdings at reference prices (base currency). */
import type { PriceSource } from "../core/domain.js";

export interface ValuedAccount {
  cash(): number;
  holdings(): Record<string, { quantity: number }>;
}

export function accountValue(journal: ValuedAccount, prices: PriceSource): { value: number; unpriced: string[] } {
  let value = journal.cash();
  const unpriced: string[] = [];
  for (const [symbol, h] of Object.entries(journal.holdings())) {
    if (!(h.quantity > 0)) continue;
    const p = prices.referencePrice(symbol);
    if (!p) unpriced.push(symbol);
    else value += h.quantity * p.price * p.fx_to_base;
  }
  return { value: Math.round(value * 100) / 100, unpriced };
}
