/**
 * Integer shortcuts for the exact decimal money arithmetic (./money.ts), taken only where they give
 * the very number decimal.js would, and declined (undefined) everywhere else, where money.ts does
 * the Decimal arithmetic as before (tests/core/exact-number.test.ts compares the two).
 *
 * A Decimal made from a number holds the number's shortest decimal text (what `String(x)` prints).
 * When x × 10^d rounds to a whole r with r / 10^d === x and |r| < 2^51, that text is exactly
 * r / 10^d: every decimal that reads back as x lies within x's rounding interval, narrower than
 * 1 / (2 × 10^d) there, so r / 10^d is the one with at most d decimals, and no shorter text reads
 * back as x. Multiplying it by 10^d and rounding to a whole number then gives r, exactly.
 */

/** 10^d as exact numbers (literals, not Math.pow), d = 0 … 15. */
const POW10: readonly number[] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const LIMIT = 2 ** 51;

/** 10^digits for 0 ≤ digits ≤ 15; undefined past them. */
export const pow10 = (digits: number): number | undefined => POW10[digits];

/** The whole number x × 10^digits when x's decimal value has at most `digits` decimals (|result| < 2^51); else undefined. */
export function scaledWhole(x: number, digits: number): number | undefined {
  const p = POW10[digits];
  if (p === undefined || !Number.isFinite(x)) return undefined;
  const r = Math.round(x * p);
  return Math.abs(r) < LIMIT && r / p === x ? r : undefined;
}

/**
 * A whole number of minor units over 10^digits as the nearest number: one division of two exact
 * numbers, correctly rounded, as is the exact Decimal quotient read back as a number. Undefined
 * for anything but a safe integer over 0 … 15 digits.
 */
export function wholeOverPow10(minor: number, digits: number): number | undefined {
  const p = POW10[digits];
  return p !== undefined && Number.isSafeInteger(minor) ? minor / p : undefined;
}

/**
 * quantity × price in minor units (`digits` of them to the major unit), exactly, when the quantity
 * is a whole number and the price has at most `digits` decimals: the product is then already whole,
 * nothing to round. Undefined otherwise, or when the product is zero (Decimal keeps the sign of a
 * zero product; the caller's Decimal path decides it) or not a safe integer.
 */
export function wholeProduct(quantity: number, price: number, digits: number): number | undefined {
  if (!Number.isSafeInteger(quantity)) return undefined;
  const r = scaledWhole(price, digits);
  if (r === undefined) return undefined;
  const v = quantity * r;
  return v !== 0 && Number.isSafeInteger(v) ? v : undefined;
}
