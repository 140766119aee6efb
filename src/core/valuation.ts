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
export function positionValueMinor(p: PricedPosition, base: string): number {
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
