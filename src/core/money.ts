/**
 * Exact money. Amounts are kept as integer minor units (cents for USD, yen for JPY) and every
 * product (quantity × price × fx) is computed exactly with decimal.js, then rounded half-even to
 * minor units once. Pure: no I/O.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Decimal } from "decimal.js";
import { EXIT } from "./exit-codes.js";
import { scaledWhole, wholeOverPow10, wholeProduct } from "./exact-number.js";
import { TwError } from "./errors.js";

/** A Decimal with enough precision that cost-basis arithmetic never rounds in practice. */
export const Dec: Decimal.Constructor = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type Dec = Decimal;
/** What a Dec is made from: a number, a decimal string or a Dec. */
export type DecValue = Decimal.Value;

const FALLBACK_DIGITS: Record<string, number> = { JPY: 0, KRW: 0, CLP: 0, ISK: 0, VND: 0, KWD: 3, BHD: 3, JOD: 3, OMR: 3, TND: 3 };
const digitCache = new Map<string, number>();

/**
 * The ISO 4217 codes of currencies in use, as the runtime's ICU data knows them (with their
 * minor-unit digits, below): "QQQ" or "ABC" have the shape of a code but are none.
 */
let isoCodes: ReadonlySet<string> | undefined;

/** Whether `code` (upper case, as written) is an ISO 4217 currency code in use. */
export function isIsoCurrency(code: string): boolean {
  isoCodes ??= new Set(Intl.supportedValuesOf("currency"));
  return isoCodes.has(code);
}

/** Minor-unit digits of an ISO 4217 currency (USD 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  const code = currency.toUpperCase();
  const cached = digitCache.get(code);
  if (cached !== undefined) return cached;
  if (!isIsoCurrency(code)) {
    throw new TwError("invalid_currency", `"${currency}" is not an ISO 4217 currency code in use (e.g. USD, EUR, JPY)`, EXIT.USAGE_OR_CONFIG);
  }
  let digits = FALLBACK_DIGITS[code];
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
  }
  digitCache.set(code, digits);
  return digits;
}

/**
 * THE rounding of money: an amount in major units (a number, a decimal string or a Dec) to whole
 * minor units of `currency`, half-even (banker's rounding), exactly. The journal's booking, the
 * simulated broker, the gate and every valuation round through it. Returns the integer as a Dec so
 * callers can compare amounts beyond 2^53 without throwing (the gate fails closed on them).
 */
export function roundMinor(amount: Decimal.Value, currency: string): Dec {
  return halfEvenUnits(amount, minorDigits(currency));
}

/** `amount` × 10^digits rounded half-even to a whole number: the one rounding rule (money and micro-dollars). */
function halfEvenUnits(amount: Decimal.Value, digits: number): Dec {
  return new Dec(amount).mul(new Dec(10).pow(digits)).toDecimalPlaces(0, Dec.ROUND_HALF_EVEN);
}

/** An amount in major units rounded to the currency's minor unit (e.g. 0.125 USD → 0.12, 12.5 JPY → 12). */
export function roundMajor(amount: Decimal.Value, currency: string): number {
  return fromMinor(checkMinor(roundMinor(amount, currency), "amount"), currency);
}

/** An amount of money: integer minor units of an ISO 4217 currency (12345 USD is 123.45 dollars). */
export const MoneySchema = Type.Object(
  {
    minor: Type.Integer({ description: "whole minor units (cents for USD, yen for JPY, fils for KWD)" }),
    currency: Type.String({ pattern: "^[A-Z]{3}$", description: "ISO 4217 code, upper case" }),
  },
  { additionalProperties: false },
);
export type Money = Static<typeof MoneySchema>;

/** Money from whole minor units. */
export function money(minor: number, currency: string): Money {
  if (!Number.isSafeInteger(minor)) throw new TwError("invalid_amount", `${minor} is not a whole number of minor units`);
  minorDigits(currency);
  return { minor, currency: currency.toUpperCase() };
}

/** Money from a major amount, rounded half-even to the minor unit (`roundMinor`). */
export function moneyOf(amount: number | string | Dec, currency: string): Money {
  return { minor: toMinor(amount, currency), currency: currency.toUpperCase() };
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new TwError("currency_mismatch", `cannot combine ${a.currency} with ${b.currency} without a rate`);
}

/** a + b (same currency). */
export function addMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return money(a.minor + b.minor, a.currency);
}

/** a − b (same currency). */
export function subMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return money(a.minor - b.minor, a.currency);
}

/** −1, 0 or 1 as a is below, equal to or above b (same currency). */
export function compareMoney(a: Money, b: Money): -1 | 0 | 1 {
  sameCurrency(a, b);
  return a.minor < b.minor ? -1 : a.minor > b.minor ? 1 : 0;
}

/** The amount in major units as the nearest number (12345 USD → 123.45; 12345 JPY → 12345). */
export function majorOf(m: Money): number {
  return fromMinor(m.minor, m.currency);
}

function checkMinor(d: Dec, what: string): number {
  const n = d.toNumber();
  if (!Number.isSafeInteger(n)) throw new TwError("invalid_amount", `${what} is out of range`, EXIT.USAGE_OR_CONFIG);
  return n;
}

/** Major amount → integer minor units, rounded half-even. Throws on non-finite input. */
export function toMinor(amount: number | string | Dec, currency: string): number {
  if (typeof amount === "number") {
    if (!Number.isFinite(amount)) throw new TwError("invalid_amount", `amount ${amount} is not a finite number`, EXIT.USAGE_OR_CONFIG);
    // Already on the minor grid (a price, a cash amount read back from minor units): nothing to round.
    const whole = scaledWhole(amount, minorDigits(currency));
    if (whole !== undefined) return whole;
  }
  let d: Dec;
  try {
    d = new Dec(amount);
  } catch {
    throw new TwError("invalid_amount", `amount "${String(amount)}" is not a number`, EXIT.USAGE_OR_CONFIG);
  }
  if (!d.isFinite()) throw new TwError("invalid_amount", `amount ${String(amount)} is not finite`, EXIT.USAGE_OR_CONFIG);
  return checkMinor(roundMinor(d, currency), "amount");
}

/**
 * An amount a person typed (`deposit 12.50`, `init --capital 5000`) → integer minor units, exactly:
 * plain decimal notation only ("0x10", "1e3", "12,5" are refused), and no more decimal places than
 * the currency has ("0.001 USD" is refused rather than rounded to 0).
 */
export function exactMinor(amount: number | string, currency: string, what: string): number {
  const text = typeof amount === "number" ? (Number.isFinite(amount) ? new Dec(amount).toFixed() : String(amount)) : amount.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) {
    throw new TwError(
      "invalid_amount",
      `${what} must be a plain decimal number like 1250 or 12.50, got ${JSON.stringify(String(amount))}`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  const digits = minorDigits(currency);
  const decimals = text.includes(".") ? text.length - text.indexOf(".") - 1 : 0;
  if (decimals > digits) {
    throw new TwError(
      "invalid_amount",
      `${what} ${text} has too many decimal places: ${currency.toUpperCase()} has ${digits} (the smallest amount is ${new Dec(1).div(new Dec(10).pow(digits)).toFixed(digits)})`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  return toMinor(text, currency);
}

/** Integer minor units → major amount as the nearest number (e.g. 12345 USD → 123.45). */
export function fromMinor(minor: number, currency: string): number {
  const digits = minorDigits(currency);
  return wholeOverPow10(minor, digits) ?? new Dec(minor).div(new Dec(10).pow(digits)).toNumber();
}

/** quantity × price × fx, exactly, rounded half-even to minor units of `currency`. */
export function productToMinor(quantity: number | string, price: number | string, fx: number | string, currency: string): number {
  if (fx === 1 && typeof quantity === "number" && typeof price === "number") {
    const whole = wholeProduct(quantity, price, minorDigits(currency));
    if (whole !== undefined) return whole;
  }
  const d = new Dec(quantity).mul(price).mul(fx);
  if (!d.isFinite()) throw new TwError("invalid_amount", "non-finite product", EXIT.USAGE_OR_CONFIG);
  return checkMinor(roundMinor(d, currency), "amount");
}

/**
 * LLM spend is kept in whole micro-dollars everywhere (the loop's running total, its budgets, the
 * journal's usage records), so per-call costs add up exactly. ±Infinity (no cap) stays infinite.
 */
export const usdToMicros = (usd: number): number => (Number.isFinite(usd) ? (scaledWhole(usd, 6) ?? halfEvenUnits(usd, 6).toNumber()) : usd);

/** An amount already in micro-dollars (e.g. tokens × USD per million tokens) → whole micro-dollars, half-even. */
export const wholeMicros = (micros: DecValue): number => halfEvenUnits(micros, 0).toNumber();
export const microsToUsd = (micros: number): number => wholeOverPow10(micros, 6) ?? new Dec(micros).div(1_000_000).toNumber();
