/**
 * The gate's small shared vocabulary: the finite-number test, symbol and
 * side normalisation, own-key lookup, block reasons and defensive order copies. Pure: no I/O.
 */
import type { BlockCode, BlockReason, GateOrder } from "../core/gate-types.js";

export const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Upper-cased, trimmed symbol; "" when the symbol is not a string. */
export function normSymbol(s: unknown): string {
  return typeof s === "string" ? s.trim().toUpperCase() : "";
}

export function normSide(s: unknown): "BUY" | "SELL" | null {
  if (typeof s !== "string") return null;
  const u = s.trim().toUpperCase();
  return u === "BUY" || u === "SELL" ? u : null;
}

/** The record's own value for key (never an inherited one). */
export function lookup<T>(rec: Record<string, T> | undefined, key: string): T | undefined {
  return rec !== undefined && Object.hasOwn(rec, key) ? rec[key] : undefined;
}

export function block(code: BlockCode, message: string): BlockReason {
  return { code, message };
}

/** A copy of the order as given (arrays copied too), so a decision never aliases the input. */
export function copyOrder(order: GateOrder): GateOrder {
  if (order === null || typeof order !== "object") return order;
  const copy = { ...order };
  for (const [k, v] of Object.entries(copy)) {
    if (Array.isArray(v)) copy[k] = [...v];
  }
  return copy;
}
