/**
 * What the scripted model reads out of tool results: holdings, the universe, price histories, the
 * gate's decisions and pending correction codes; plus its two number helpers.
 */
import type { ProposedOrder } from "../../core/domain.js";
import { last, type Step } from "./conversation.js";

export const cents = (n: number) => Math.round(n * 100) / 100;
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export interface Holding {
  symbol: string;
  quantity: number;
}

export function holdingsOf(portfolio: Record<string, unknown>): Holding[] {
  const raw = Array.isArray(portfolio.holdings) ? (portfolio.holdings as Record<string, unknown>[]) : [];
  return raw.map((h) => ({ symbol: String(h.symbol ?? ""), quantity: num(h.quantity) ?? 0 })).filter((h) => h.symbol && h.quantity > 0);
}

export function universeOf(steps: Step[]): string[] {
  const u = last(steps, "list_universe", true);
  const raw = u && Array.isArray(u.result.instruments) ? (u.result.instruments as Record<string, unknown>[]) : [];
  return raw.map((i) => String(i.symbol ?? "")).filter(Boolean);
}

export function histories(steps: Step[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const s of steps) {
    if (s.name === "get_price_history" && s.ok) out.set(String(s.result.symbol ?? s.input.symbol), s.result);
  }
  return out;
}

export function pendingCodes(result: Record<string, unknown>): string[] {
  const corr = result.correction as Record<string, unknown> | undefined;
  const pending = (corr?.pending ?? result.pending) as { error_code?: string }[] | undefined;
  const codes = Array.isArray(pending) ? pending.map((p) => String(p.error_code ?? "")).filter(Boolean) : [];
  return [...new Set(codes)];
}

export function decisionsOf(result: Record<string, unknown>): Record<string, unknown>[] {
  const corr = result.correction as Record<string, unknown> | undefined;
  const d = result.decisions ?? corr?.decisions;
  return Array.isArray(d) ? (d as Record<string, unknown>[]) : [];
}

/** Keeps the orders the gate approved (matched by symbol and side). */
export function keepApproved(orders: ProposedOrder[], decisions: Record<string, unknown>[]): ProposedOrder[] {
  if (decisions.length === 0) return orders;
  return orders.filter((o) => {
    const d = decisions.find((x) => {
      const order = (x.order ?? x) as Record<string, unknown>;
      return order.symbol === o.symbol && order.side === o.side;
    });
    return d ? d.approved === true : false;
  });
}
