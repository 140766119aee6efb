/** Plain-text formatting of numbers and verdicts, shared by the headless printer and the console. */
import type { FundedBuyFields, RunEvent } from "../core/events.js";
import { fromMinor } from "../core/money.js";
import type { GateDecision } from "../core/gate-types.js";
import { count, currencyDigits, money, pct, price, quantity, signedMoney, tickDecimals, usd } from "../core/format.js";
import { fundedBySellsText } from "../gate/format.js";
import { sanitizeLine } from "../util/sanitize.js";

export { count, currencyDigits, money, pct, price, quantity, signedMoney, tickDecimals, usd };

/** One order's verdict in a line; amounts in the base `currency` (named when known). */
export function verdictLine(d: GateDecision, currency = ""): string {
  const o = d.order;
  const head = `${String(o.side).toUpperCase()} ${quantity(o.quantity)} ${o.symbol} @ ${price(o.limit_price)}`;
  if (d.approved && d.funded_by_sells)
    return `${head}: approved, ${fundedBySellsText(d.funded_by_sells)} (notional ${money(d.notional, currency)}, commission ${money(d.commission, currency)})`;
  if (d.approved) return `${head}: approved (notional ${money(d.notional, currency)}, commission ${money(d.commission, currency)})`;
  return `${head}: BLOCKED: ${joinClauses(...d.reasons.map((r) => `${r.code}: ${r.message}`))}`;
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
  const what = `standing order ${sanitizeLine(e.id)} (${sanitizeLine(e.standing_type)} at ${price(e.trigger_price)}: ${e.order.side} ${quantity(e.order.quantity)} ${sanitizeLine(e.order.symbol)} @ ${price(e.order.limit_price)}, approved by ${sanitizeLine(e.approved_by)})`;
  if (e.result === "expired") return `${what} expired unfired`;
  const fired = `${what} fired at reference ${e.reference_price === null ? "none" : price(e.reference_price)}`;
  if (e.result === "placed") return `${fired}: passed the final gate, placing it`;
  if (e.result === "blocked") return `${fired}: blocked by the final gate, not placed (${e.reasons.map((r) => sanitizeLine(r.message)).join("; ")})`;
  return `${fired}: this mode places nothing; it stays armed`;
}

/** What became of a buy funded by its batch's sells, in one line (the console and the headless printer). */
export function fundedBuyText(e: FundedBuyFields & { from_run: string }): string {
  const what = `funded buy ${quantity(e.quantity)} ${sanitizeLine(e.symbol)} @ ${e.limit_price} (${money(fromMinor(e.funded_minor, e.currency), e.currency)} from the sells)`;
  const why = sanitizeLine(e.reason);
  switch (e.outcome) {
    case "placed":
      return `${what}: the sells settled; placed in the second wave: ${why}`;
    case "shrunk":
      return `${what}: shrunk to ${quantity(e.placed_quantity)} (limit unchanged): ${why}`;
    case "dropped":
      return `${what}: dropped, not placed: ${why}`;
    case "not_placed":
      return `${what} of run ${sanitizeLine(e.from_run)}: not placed: ${why}`;
  }
}
