/** Plain-text formatting of numbers and verdicts, shared by the headless printer and the console. */
import type { RunEvent } from "../core/events.js";
import type { GateDecision } from "../core/gate-types.js";
import { minorDigits } from "../core/money.js";
import { sanitizeLine } from "../util/sanitize.js";

// One formatter per shape, made once: toLocaleString builds a new one on every call (slow on screens).
const formatters = new Map<string, Intl.NumberFormat>();
function fmt(min: number, max: number): Intl.NumberFormat {
  const key = `${min}:${max}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat("en-US", { minimumFractionDigits: min, maximumFractionDigits: max })));
  return f;
}

/** The minor-unit digits of a currency (USD 2, JPY 0, KWD 3); 2 when none or unknown. */
export function currencyDigits(currency: string): number {
  if (!currency) return 2;
  try {
    return minorDigits(currency);
  } catch {
    return 2;
  }
}

/** Money with thousands separators and the currency's own decimals (JPY 0, KWD 3; 2 by default). */
export function money(n: number, currency = "", digits = currencyDigits(currency)): string {
  const s = fmt(digits, digits).format(n);
  return currency ? `${s} ${currency}` : s;
}

export function pct(n: number, digits = 2): string {
  return `${n.toFixed(digits)}%`;
}

export function usd(n: number): string {
  return `$${n.toFixed(n < 1 ? 4 : 2)}`;
}

export function verdictLine(d: GateDecision): string {
  const o = d.order;
  const head = `${String(o.side).toUpperCase()} ${o.quantity} ${o.symbol} @ ${o.limit_price}`;
  if (d.approved) return `${head}: approved (notional ${money(d.notional)}, commission ${money(d.commission)})`;
  return `${head}: BLOCKED: ${joinClauses(...d.reasons.map((r) => `${r.code}: ${r.message}`))}`;
}

/** Decimal places of a price tick (0.01 → 2, 0.0001 → 4, 0.05 → 2, 1 → 0). */
export function tickDecimals(tick: number | undefined): number {
  if (tick === undefined || !Number.isFinite(tick) || tick <= 0) return 2;
  for (let d = 0; d <= 8; d++) if (Math.abs(Math.round(tick * 10 ** d) - tick * 10 ** d) < 1e-9) return d;
  return 8;
}

/** A price with thousands separators and the instrument tick's decimals. */
export function price(n: number, tick?: number): string {
  const d = tickDecimals(tick);
  return fmt(d, d).format(n);
}

/** A quantity with thousands separators (fractions as given, at most 6 places). */
export function quantity(n: number): string {
  return fmt(0, 6).format(n);
}

/** Money with an explicit sign (P&L). */
export function signedMoney(n: number, currency = "", digits = currencyDigits(currency)): string {
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${money(Math.abs(n), currency, digits)}`;
}

/** Clauses joined with "; ", each without its own trailing "." or ";" (no "error.; more"). */
export function joinClauses(...parts: ReadonlyArray<string | undefined | false>): string {
  return parts
    .filter((p): p is string => typeof p === "string" && p.trim() !== "")
    .map((p) => p.trim().replace(/[.;]+$/, ""))
    .join("; ");
}

/** A message without a leading copy of its own error code ("orders_blocked: orders_blocked: …"). */
export function withoutCodePrefix(message: string, code: string | undefined): string {
  if (!code) return message;
  let m = message.trim();
  while (m.startsWith(`${code}:`)) m = m.slice(code.length + 1).trim();
  return m;
}

/** Who decided, in words ("by none" is never shown). */
export function decisionText(decision: string, by: string): string {
  if (decision === "awaiting") return "awaiting approval (no operator at a terminal)";
  if (decision === "none") return "no decision (nothing is placed in this mode)";
  return `${decision} by ${by === "auto" ? "--yes (unattended)" : by}`;
}

/** What a `standing.fired` event says, in one line (the console and the headless printer). */
export function standingFiredText(e: Extract<RunEvent, { type: "standing.fired" }>): string {
  const what = `standing order ${sanitizeLine(e.id)} (${sanitizeLine(e.standing_type)} at ${e.trigger_price}: ${e.order.side} ${e.order.quantity} ${sanitizeLine(e.order.symbol)} @ ${e.order.limit_price}, approved by ${sanitizeLine(e.approved_by)})`;
  if (e.result === "expired") return `${what} expired unfired`;
  const fired = `${what} fired at reference ${e.reference_price}`;
  if (e.result === "placed") return `${fired}: passed the final gate, placing it`;
  if (e.result === "blocked") return `${fired}: blocked by the final gate, not placed (${e.reasons.map((r) => sanitizeLine(r.message)).join("; ")})`;
  return `${fired}: this mode places nothing; it stays armed`;
}
