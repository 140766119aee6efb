/** Number formatting for gate messages: every block message carries its numbers. Pure. */
import { fixed, money } from "../core/format.js";
import type { FundedBySells } from "../core/gate-types.js";
import { fromMinor } from "../core/money.js";

/** A money or price amount: two decimals (more when the value needs them, e.g. 0.0042). */
export function fmtNum(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs !== 0 && abs < 0.01) return String(Number(n.toPrecision(4)));
  return fixed(n, 2);
}

/** A quantity: as given (whole shares print without decimals). */
export function fmtQty(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(12)));
}

/** A computed percentage: two decimals. */
export function fmtPct(n: number): string {
  return Number.isFinite(n) ? `${fixed(n, 2)}%` : String(n);
}

/** A configured limit, as the user wrote it ("2%", "12.5%"). */
export function fmtLimitPct(n: number): string {
  return `${n}%`;
}

/** A value for a message about a malformed input (strings quoted, others as JSON would show them). */
export function fmtValue(v: unknown): string {
  if (typeof v === "number") return String(v);
  if (v === undefined) return "missing";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * An amount with its currency's minor-unit `digits` (USD 2, JPY 0, KWD 3), so a
 * message never shows two amounts alike that differ by one minor unit; smaller amounts as fmtNum.
 */
export function fmtMoney(n: number, digits: number): string {
  if (!Number.isFinite(n) || digits === 2) return fmtNum(n);
  const abs = Math.abs(n);
  if (abs !== 0 && abs < 10 ** -digits) return String(Number(n.toPrecision(4)));
  return fixed(n, digits);
}

/**
 * A buy funded by this batch's sells, in words: "funded by this batch's sells: 1,234.56 USD; placed
 * after the sells fill" (the verdict's sentence, the approval screen, the order ticket, check_orders).
 */
export function fundedBySellsText(f: FundedBySells): string {
  return `funded by this batch's sells: ${money(fromMinor(f.amount_minor, f.currency), f.currency)}; placed after the sells fill`;
}
