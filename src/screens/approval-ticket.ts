/**
 * The approval confirmation's order ticket, pure: what will be sent (side, quantity, limit,
 * notional, estimated commission, from the gate's verdicts the rows carry), the totals in integer
 * minor units of the base currency (cash before; cash after the buys, which the gate checks
 * without counting the sells' proceeds; cash after every fill), each touched position's share of
 * the account after, and what is left out (dropped or blocked) and why.
 */
import type { GateDecision } from "../core/gate-types.js";
import { productToMinor, toMinor } from "../core/money.js";
import type { ApprovalRequest } from "../run/approval.js";
import { sanitizeLine } from "../util/sanitize.js";
import { type ApprovalRow, isApprovable } from "./approval-model.js";

interface TicketOrder {
  /** 1-based position in the proposal. */
  n: number;
  side: "BUY" | "SELL";
  symbol: string;
  quantity: number;
  limit: number;
  tick: number | undefined;
  notionalMinor: number;
  commissionMinor: number;
  /** A buy funded by this batch's sells: the part of its cost their proceeds pay (placed after they fill). */
  fundedMinor?: number;
}

export interface TicketLeftOut {
  n: number;
  side: "BUY" | "SELL";
  symbol: string;
  quantity: number;
  why: string;
}

interface TicketShare {
  symbol: string;
  /** Fraction of the account value after the batch. */
  share: number;
}

export interface Ticket {
  currency: string;
  orders: TicketOrder[];
  buysMinor: number;
  sellsMinor: number;
  commissionMinor: number;
  /** Null when the screen was given no cash figure. */
  cashBeforeMinor: number | null;
  /** Cash before − the buys and their commissions (a buy the sells fund waits for them: see `fundedMinor`). */
  cashAfterBuysMinor: number | null;
  /** Cash once every order filled at its limit (sells' proceeds in, every commission out). */
  cashAfterMinor: number | null;
  /** What the buys funded by this batch's sells take from the sells' proceeds (0 when none): they wait for the sells. */
  fundedMinor: number;
  /** How many buys wait for the sells. */
  fundedBuys: number;
  /** The positions the batch touches, then cash; empty when the account value is unknown. */
  shares: TicketShare[];
  leftOut: TicketLeftOut[];
}

function notionalOf(d: GateDecision, currency: string): number {
  const p = d.placement;
  return p ? productToMinor(p.quantity, p.limit_price, p.fx_to_base, currency) : toMinor(d.notional, currency);
}

function whyLeftOut(r: ApprovalRow): string {
  if (r.dropped) return "dropped by you";
  const reasons = r.decision?.reasons ?? [];
  if (reasons.length === 0) return "BLOCKED (no verdict)";
  return `BLOCKED ${reasons.map((x) => `${x.code}: ${sanitizeLine(x.message)}`).join("; ")}`;
}

function sharesAfter(
  req: ApprovalRequest,
  orders: readonly TicketOrder[],
  currency: string,
  cashAfterMinor: number | null,
  commissionMinor: number,
): TicketShare[] {
  const value = req.portfolioValue;
  if (value === undefined || !Number.isFinite(value) || value <= 0) return [];
  // Trades at their limits swap cash for holdings one for one: the account shrinks by the commissions.
  const valueAfter = toMinor(value, currency) - commissionMinor;
  if (valueAfter <= 0) return [];
  const held = new Map<string, number>();
  for (const o of orders) {
    const key = o.symbol.toUpperCase();
    const before = held.get(key) ?? toMinor(req.positionValues?.[key] ?? 0, currency);
    held.set(key, before + (o.side === "BUY" ? o.notionalMinor : -o.notionalMinor));
  }
  const out = [...held].map(([symbol, minor]) => ({ symbol, share: Math.max(0, minor) / valueAfter }));
  if (cashAfterMinor !== null) out.push({ symbol: "cash", share: Math.max(0, cashAfterMinor) / valueAfter });
  return out;
}

/** The ticket for the rows as they stand (only approvable rows are sent). */
export function orderTicket(req: ApprovalRequest, rows: readonly ApprovalRow[]): Ticket {
  const currency = req.baseCurrency || req.portfolio?.currency || "USD";
  const orders: TicketOrder[] = [];
  const leftOut: TicketLeftOut[] = [];
  for (const [i, r] of rows.entries()) {
    const base = { n: i + 1, side: r.order.side, symbol: sanitizeLine(r.order.symbol), quantity: r.order.quantity };
    const d = r.decision;
    if (!isApprovable(r) || !d) {
      leftOut.push({ ...base, why: whyLeftOut(r) });
      continue;
    }
    orders.push({
      ...base,
      limit: r.order.limit_price,
      tick: req.ticks?.[r.order.symbol.toUpperCase()],
      notionalMinor: notionalOf(d, currency),
      commissionMinor: toMinor(d.commission, currency),
      ...(d.funded_by_sells ? { fundedMinor: d.funded_by_sells.amount_minor } : {}),
    });
  }
  const sum = (xs: readonly TicketOrder[], f: (o: TicketOrder) => number) => xs.reduce((a, o) => a + f(o), 0);
  const buys = orders.filter((o) => o.side === "BUY");
  const sells = orders.filter((o) => o.side === "SELL");
  const buysMinor = sum(buys, (o) => o.notionalMinor);
  const sellsMinor = sum(sells, (o) => o.notionalMinor);
  const commissionMinor = sum(orders, (o) => o.commissionMinor);
  const cashBeforeMinor = req.portfolio ? toMinor(req.portfolio.cash, currency) : null;
  const cashAfterBuysMinor = cashBeforeMinor === null ? null : cashBeforeMinor - buysMinor - sum(buys, (o) => o.commissionMinor);
  const cashAfterMinor = cashBeforeMinor === null ? null : cashBeforeMinor - buysMinor + sellsMinor - commissionMinor;
  return {
    currency,
    orders,
    buysMinor,
    sellsMinor,
    commissionMinor,
    cashBeforeMinor,
    cashAfterBuysMinor,
    cashAfterMinor,
    fundedMinor: sum(buys, (o) => o.fundedMinor ?? 0),
    fundedBuys: buys.filter((o) => o.fundedMinor !== undefined).length,
    shares: sharesAfter(req, orders, currency, cashAfterMinor, commissionMinor),
    leftOut,
  };
}
