/** Plain-text formatting of numbers and verdicts, shared by the headless printer and the console. */
import type { GateDecision } from "../core/gate-types.js";

export function money(n: number, currency = ""): string {
  const s = n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
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
  return `${head}: BLOCKED: ${d.reasons.map((r) => `${r.code}: ${r.message}`).join("; ")}`;
}
