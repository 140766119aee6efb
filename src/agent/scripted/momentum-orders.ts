/**
 * The momentum policy's proposal from the gathered evidence (pure): sell a holding whose trend has
 * turned or that fell too far from its 6-month high; buy up to two new positions with positive
 * momentum, sized against the position limit and the cash; capped by the orders left this month.
 */
import type { ProposedOrder } from "../../core/domain.js";
import { last, type Step } from "./conversation.js";
import { marketRegime } from "./market-regime.js";
import { cents, type Holding, histories, holdingsOf, num } from "./results.js";
import type { ScriptedOptions } from "./scripts.js";

export const MAX_HISTORIES = 12;
export const HISTORY_BATCH = 12;
export const MAX_BUYS = 2;
export const STOP_DRAWDOWN_PCT = 15;

type History = Record<string, unknown>;
type EvidenceOf = (h: History) => string[];

/** Sells: each holding whose close fell below its SMA50 or too far from its 6-month high. */
function exitOrders(held: Holding[], hist: Map<string, History>, up: number, evidence: EvidenceOf): ProposedOrder[] {
  const sells: ProposedOrder[] = [];
  for (const h of held) {
    const p = hist.get(h.symbol);
    const close = p && num(p.last_close);
    const sma50 = p && num(p.sma50);
    const high = p && num(p.high_6m);
    if (!p || close === undefined) continue;
    const drawdown = high ? ((high - close) / high) * 100 : 0;
    const below = sma50 !== undefined && close < sma50;
    if (below || drawdown > STOP_DRAWDOWN_PCT) {
      const why = below
        ? `Last close ${close} is below its SMA50 ${cents(sma50 ?? 0)}: the trend has turned.`
        : `Last close ${close} is ${drawdown.toFixed(1)}% below its 6-month high (stop at ${STOP_DRAWDOWN_PCT}%).`;
      sells.push({
        symbol: h.symbol,
        side: "SELL",
        quantity: h.quantity,
        limit_price: cents(close * (1 - up)),
        reason: why,
        evidence_ids: evidence(p),
      });
    }
  }
  return sells;
}

export interface Candidate {
  sym: string;
  p: History;
  r3m: number;
  close: number;
  sma20: number;
  sma50: number;
}

/** Instruments not held with a positive 3-month return and close > SMA20 > SMA50, strongest first. */
export function entryCandidates(hist: Map<string, History>, heldSet: ReadonlySet<string>): Candidate[] {
  return [...hist.entries()]
    .filter(([sym]) => !heldSet.has(sym))
    .flatMap(([sym, p]): Candidate[] => {
      // the market tool names it returns_pct (percent); accept the contract summary's `returns` too
      const returns = p.returns_pct ?? p.returns ?? {};
      const r3m = returns !== null && typeof returns === "object" && "3m" in returns ? num(returns["3m"]) : undefined;
      const close = num(p.last_close);
      const sma20 = num(p.sma20);
      const sma50 = num(p.sma50);
      if (r3m === undefined || r3m <= 0 || close === undefined || sma20 === undefined || sma50 === undefined) return [];
      return close > sma20 && sma20 > sma50 ? [{ sym, p, r3m, close, sma20, sma50 }] : [];
    })
    .sort((a, b) => b.r3m - a.r3m || a.sym.localeCompare(b.sym));
}

/** Buys: up to two candidates, each sized to ~80% of the position limit and what is left of the cash. */
function entryOrders(
  ranked: Candidate[],
  sizing: { value: number; cash: number; positionPct: number; up: number },
  evidence: EvidenceOf,
  notes: string[],
): ProposedOrder[] {
  const { value, positionPct, up } = sizing;
  let cash = sizing.cash;
  const buys: ProposedOrder[] = [];
  for (const c of ranked) {
    if (buys.length >= MAX_BUYS) break;
    const limit = cents(c.close * (1 + up));
    const target = (value * positionPct * 0.8) / 100;
    const qty = Math.floor(Math.min(target, cash) / limit);
    if (qty < 1) {
      notes.push(`${c.sym} qualifies but one share does not fit the position limit or the cash`);
      continue;
    }
    cash -= qty * limit;
    buys.push({
      symbol: c.sym,
      side: "BUY",
      quantity: qty,
      limit_price: limit,
      reason: `3-month return ${c.r3m} is positive and last close ${c.close} > SMA20 ${cents(c.sma20)} > SMA50 ${cents(c.sma50)}; sized to ~${(positionPct * 0.8).toFixed(1)}% of the account.`,
      evidence_ids: evidence(c.p),
    });
  }
  return buys;
}

/** The momentum policy's proposal from the gathered evidence (pure). */
export function momentumOrders(steps: Step[], limits: ScriptedOptions["limits"] = {}): { orders: ProposedOrder[]; notes: string[] } {
  const notes: string[] = [];
  const pf = last(steps, "get_portfolio", true)?.result;
  if (!pf) return { orders: [], notes: ["no portfolio data"] };
  const pfEvidence = String(pf.evidence_id ?? "");
  const state = String(pf.trading_state ?? "ACTIVE");
  const ordersLeft = num(pf.orders_left_this_month) ?? 0;
  const positionPct = limits.max_position_pct ?? 10;
  const band = limits.max_price_deviation_pct ?? 2;
  const up = Math.min(0.005, (band / 100) * 0.5);
  if (state === "HALTED") return { orders: [], notes: ["trading is halted"] };
  if (ordersLeft <= 0) return { orders: [], notes: ["no orders left this month"] };
  const hist = histories(steps);
  const held = holdingsOf(pf);
  const evidence: EvidenceOf = (h) => [pfEvidence, String(h.evidence_id ?? "")].filter(Boolean);
  const sells = exitOrders(held, hist, up, evidence);
  let buys: ProposedOrder[] = [];
  const regime = marketRegime(steps);
  if (state === "ACTIVE" && regime.falling && regime.note) notes.push(regime.note);
  else if (state === "ACTIVE") {
    const ranked = entryCandidates(hist, new Set(held.map((h) => h.symbol)));
    buys = entryOrders(ranked, { value: num(pf.value) ?? 0, cash: (num(pf.cash) ?? 0) * 0.98, positionPct, up }, evidence, notes);
  } else {
    notes.push(`trading state ${state}: sells only`);
  }
  const orders = [...sells, ...buys].slice(0, ordersLeft);
  if (orders.length === 0)
    notes.push(regime.falling ? "no holding breaks its exit rule" : "no holding breaks its exit rule and no instrument meets the entry rule");
  return { orders, notes };
}
