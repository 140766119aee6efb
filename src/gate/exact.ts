/**
 * The gate's exact money: amounts in the base currency as whole minor units (exact decimals, so a
 * 1e30 product fails closed instead of throwing), rounded half-even exactly as the journal books a
 * fill (`roundMinor`, core/money.ts). Every limit the gate compares is compared here, with no
 * tolerance: an order exactly at a limit passes, one minor unit over does not. Pure: no I/O.
 */
import { Dec, type DecValue, minorDigits, roundMinor } from "../core/money.js";

/** The minor-unit digits the gate books in; an unknown code falls back to 2 (cents). */
export function baseDigits(base: string): number {
  try {
    return minorDigits(base);
  } catch {
    return 2;
  }
}

/** A base-currency amount (major units) in whole minor units; ±Infinity stays infinite (fails closed). */
export function minorOf(major: DecValue, base: string): Dec {
  const d = new Dec(major);
  if (!d.isFinite()) return d;
  try {
    return roundMinor(d, base);
  } catch {
    return d.mul(new Dec(10).pow(2)).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN);
  }
}

/** quantity × price × fx in whole minor units of the base currency, as the journal books it. */
export function productMinor(quantity: DecValue, price: DecValue, fx: DecValue, base: string): Dec {
  return minorOf(new Dec(quantity).mul(price).mul(fx), base);
}

/** Minor units → the major amount as the nearest number (for messages and the scenario JSON). */
export function majorOf(minor: Dec, base: string): number {
  return minor.div(new Dec(10).pow(baseDigits(base))).toNumber();
}

/** part ≤ pct% of whole, exactly (part × 100 ≤ pct × whole). */
export function withinPct(part: Dec, pct: number, whole: Dec): boolean {
  return part.mul(100).lte(new Dec(pct).mul(whole));
}

/** Drawdown from max(peak, value) reaches `maxPct`, exactly: (hi − value) × 100 ≥ maxPct × hi. False when hi ≤ 0. */
export function drawdownReached(value: DecValue, peak: DecValue, maxPct: number): boolean {
  const v = new Dec(value);
  const hi = Dec.max(peak, v);
  if (!hi.gt(0)) return false;
  return hi.sub(v).mul(100).gte(new Dec(maxPct).mul(hi));
}
