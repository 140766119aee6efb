/**
 * The rebalance policy's proposal (pure): the momentum policy's, plus one swap. When the cash cannot
 * fund the strongest entry candidate and its 3-month return beats the weakest holding's by at least
 * REBALANCE_GAP_PCT points, the weakest holding is sold whole and the candidate bought with the cash
 * and the sale's proceeds, both in one submission: the gate marks the buy funded by the batch's sells
 * and the executor places it after the sell has filled (two-wave execution).
 */
import type { ProposedOrder } from "../../core/domain.js";
import { last, type Step } from "./conversation.js";
import { marketRegime } from "./market-regime.js";
import { type Candidate, entryCandidates, momentumOrders } from "./momentum-orders.js";
import { cents, histories, holdingsOf, num } from "./results.js";
import type { ScriptedOptions } from "./scripts.js";

const REBALANCE_GAP_PCT = 10;
/** Of the sale's value at its limit, what the buy may count on (commission and a short fill kept back). */
const PROCEEDS_SHARE = 0.98;

export const REBALANCE_RULE = `Rebalance rule: when the cash cannot fund the strongest entry candidate and its 3-month return beats the weakest holding's by ${REBALANCE_GAP_PCT} points or more, sell that holding and buy the candidate with the cash and the sale's proceeds (the buy is placed after the sell has filled).`;

export interface Rebalance {
  orders: ProposedOrder[];
  notes: string[];
  /** The swap's two orders, when there is one. */
  swap: { sell: ProposedOrder; buy: ProposedOrder } | null;
}

interface Weakest {
  symbol: string;
  quantity: number;
  r3m: number;
  close: number;
  p: Record<string, unknown>;
}

const r3mOf = (p: Record<string, unknown>): number | undefined => {
  const r = p.returns_pct;
  return r !== null && typeof r === "object" && "3m" in r ? num(r["3m"]) : undefined;
};

/** The held instrument with the lowest 3-month return (ties by symbol), among those not already being sold. */
function weakestHolding(steps: Step[], selling: ReadonlySet<string>): Weakest | undefined {
  const pf = last(steps, "get_portfolio", true)?.result ?? {};
  const hist = histories(steps);
  return holdingsOf(pf)
    .filter((h) => !selling.has(h.symbol))
    .flatMap((h): Weakest[] => {
      const p = hist.get(h.symbol);
      const r3m = p && r3mOf(p);
      const close = p && num(p.last_close);
      return p && r3m !== undefined && close !== undefined ? [{ symbol: h.symbol, quantity: h.quantity, r3m, close, p }] : [];
    })
    .sort((a, b) => a.r3m - b.r3m || a.symbol.localeCompare(b.symbol))[0];
}

/** The evidence and the words get_position gave about the holding (when it was called). */
function positionOf(steps: Step[], symbol: string): { evidence: string[]; words: string } {
  const s = steps.filter((x) => x.name === "get_position" && x.ok && x.result.symbol === symbol).at(-1);
  const pos = s?.result.position;
  const pnl = pos !== null && typeof pos === "object" ? num((pos as Record<string, unknown>).unrealized_pnl_pct) : undefined;
  return { evidence: typeof s?.result.evidence_id === "string" ? [s.result.evidence_id] : [], words: pnl === undefined ? "" : `, unrealised ${pnl}%` };
}

function swapOrders(steps: Step[], w: Weakest, top: Candidate, sizing: { cash: number; value: number; positionPct: number; up: number }) {
  const pfEvidence = String(last(steps, "get_portfolio", true)?.result.evidence_id ?? "");
  const sellLimit = cents(w.close * (1 - sizing.up));
  const buyLimit = cents(top.close * (1 + sizing.up));
  const funds = sizing.cash * 0.98 + w.quantity * sellLimit * PROCEEDS_SHARE;
  const qty = Math.floor(Math.min((sizing.value * sizing.positionPct * 0.8) / 100, funds) / buyLimit);
  if (qty < 1) return null;
  const gap = cents(top.r3m - w.r3m);
  const position = positionOf(steps, w.symbol);
  const sell: ProposedOrder = {
    symbol: w.symbol,
    side: "SELL",
    quantity: w.quantity,
    limit_price: sellLimit,
    reason: `Rebalance: the weakest holding (3-month return ${w.r3m}%${position.words}), sold to fund ${top.sym} (3-month return ${top.r3m}%, ${gap} points ahead).`,
    evidence_ids: [pfEvidence, String(w.p.evidence_id ?? ""), ...position.evidence].filter(Boolean),
  };
  const buy: ProposedOrder = {
    symbol: top.sym,
    side: "BUY",
    quantity: qty,
    limit_price: buyLimit,
    reason: `Rebalance: the strongest candidate (3-month return ${top.r3m}%, close ${top.close} > SMA20 ${cents(top.sma20)} > SMA50 ${cents(top.sma50)}), funded by the sale of ${w.symbol}.`,
    evidence_ids: [pfEvidence, String(top.p.evidence_id ?? "")].filter(Boolean),
  };
  return { sell, buy };
}

/** The rebalance policy's proposal: momentum's, or momentum's sells plus the swap. */
export function rebalanceOrders(steps: Step[], limits: ScriptedOptions["limits"] = {}): Rebalance {
  const base = momentumOrders(steps, limits);
  const none = { ...base, swap: null };
  const pf = last(steps, "get_portfolio", true)?.result;
  if (!pf || String(pf.trading_state ?? "ACTIVE") !== "ACTIVE" || marketRegime(steps).falling) return none;
  if (base.orders.some((o) => o.side === "BUY")) return none;
  const held = new Set(holdingsOf(pf).map((h) => h.symbol));
  const top = entryCandidates(histories(steps), held)[0];
  const w = weakestHolding(steps, new Set(base.orders.map((o) => o.symbol)));
  if (!top || !w) return none;
  if (top.r3m - w.r3m < REBALANCE_GAP_PCT) {
    return {
      ...none,
      notes: [...base.notes, `${top.sym} (3-month ${top.r3m}%) is not ${REBALANCE_GAP_PCT} points ahead of the weakest holding ${w.symbol} (${w.r3m}%)`],
    };
  }
  if ((num(pf.orders_left_this_month) ?? 0) < base.orders.length + 2) return { ...none, notes: [...base.notes, "too few orders left this month for a swap"] };
  const band = limits.max_price_deviation_pct ?? 2;
  const sizing = { cash: num(pf.cash) ?? 0, value: num(pf.value) ?? 0, positionPct: limits.max_position_pct ?? 10, up: Math.min(0.005, (band / 100) * 0.5) };
  const swap = swapOrders(steps, w, top, sizing);
  if (!swap) return none;
  return {
    orders: [...base.orders, swap.sell, swap.buy],
    notes: base.notes.filter((n) => !n.includes("does not fit") && !n.startsWith("no holding breaks")),
    swap,
  };
}
