/**
 * The one exact valuation: cash plus every holding at quantity × price × fx_to_base, each position
 * rounded half-even once to the base currency's minor units, summed as integers. Used by the peak,
 * the kill switch, get_portfolio and the gate; the journal books fills and the simulated broker
 * moves its cash with the same rounding (`productToMinor`).
 */
import { fromMinor, productToMinor, toMinor } from "./money.js";

export interface PricedPosition {
  quantity: number;
  /** In the instrument's currency. */
  price: number;
  fx_to_base: number;
}

/** A position's value in integer minor units of the base currency. */
function positionValueMinor(p: PricedPosition, base: string): number {
  return productToMinor(p.quantity, p.price, p.fx_to_base, base);
}

/** Cash (minor units) + Σ position values (minor units). */
export function accountValueMinor(cashMinor: number, positions: Iterable<PricedPosition>, base: string): number {
  let sum = cashMinor;
  for (const p of positions) if (p.quantity !== 0) sum += positionValueMinor(p, base);
  if (!Number.isSafeInteger(sum)) throw new RangeError("account value out of range");
  return sum;
}

/** The same valuation from a cash amount in major units; the result in major units. */
export function accountValue(cash: number, positions: Iterable<PricedPosition>, base: string): number {
  return fromMinor(accountValueMinor(toMinor(cash, base), positions, base), base);
}

/** A holding to value: its quantity and cost basis (base currency, major units, on the minor grid). */
export interface HeldPosition {
  quantity: number;
  cost_basis: number;
}

/** A reference price in the instrument's currency with its rate to base; undefined when unpriced. */
export type PriceOf = (symbol: string) => { price: number; fx_to_base: number; as_of?: string } | undefined;

/** One holding valued: null amounts when it has no price. All amounts in whole minor units of the base currency. */
interface ValuedHolding {
  symbol: string;
  quantity: number;
  price: number | null;
  price_as_of: string | null;
  valueMinor: number | null;
  costBasisMinor: number;
  pnlMinor: number | null;
}

/** The account valued once: what the operator's portfolio view and the model's get_portfolio both show. */
export interface AccountValuation {
  base: string;
  cashMinor: number;
  /** Cash + Σ priced holdings (an unpriced holding adds nothing). */
  valueMinor: number;
  /** Holdings by symbol (sorted), zero quantities left out. */
  holdings: ValuedHolding[];
}

/**
 * THE valuation of an account: cash plus each holding at quantity × reference price × fx_to_base,
 * each position rounded half-even once to the base currency's minor unit, summed as integers; the
 * unrealised P&L is the position's value less its cost basis, in minor units too. The operator's
 * portfolio view (run/portfolio.ts) and the model's get_portfolio (journal/tool-handlers.ts) are
 * both made from it, so their totals are always equal.
 */
export function valueAccount(cashMinor: number, holdings: Record<string, HeldPosition>, priceOf: PriceOf, base: string): AccountValuation {
  let valueMinor = cashMinor;
  const rows: ValuedHolding[] = [];
  for (const symbol of Object.keys(holdings).sort((a, b) => a.localeCompare(b))) {
    const h = holdings[symbol];
    if (h === undefined || !(h.quantity > 0)) continue;
    const p = priceOf(symbol);
    const v = p ? positionValueMinor({ quantity: h.quantity, price: p.price, fx_to_base: p.fx_to_base }, base) : null;
    const costBasisMinor = toMinor(h.cost_basis, base);
    if (v !== null) valueMinor += v;
    rows.push({
      symbol,
      quantity: h.quantity,
      price: p?.price ?? null,
      price_as_of: p?.as_of ?? null,
      valueMinor: v,
      costBasisMinor,
      pnlMinor: v === null ? null : v - costBasisMinor,
    });
  }
  if (!Number.isSafeInteger(valueMinor)) throw new RangeError("account value out of range");
  return { base, cashMinor, valueMinor, holdings: rows };
}
