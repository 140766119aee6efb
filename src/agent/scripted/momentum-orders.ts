/**
 * The momentum policy's proposal from the gathered evidence (pure): sell a holding whose trend has
 * turned or that fell too far from its 6-month high; buy up to two new positions with positive
 * momentum, sized against the position limit and the cash; capped by the orders left this month.
 */
import type { ProposedOrder } from "../../core/domain.js";
import { last, type Step } from "./conversation.js";
import { cents, histories, holdingsOf, num } from "./results.js";
import type { ScriptedOptions } from "./scripts.js";

export const MAX_HISTORIES = 12;
export const HISTORY_BATCH = 6;
const MAX_BUYS = 2;
export const STOP_DRAWDOWN_PCT = 15;

/** The momentum policy's proposal from the gathered evidence (pure). */
export function momentumOrders(steps: Step[], limits: ScriptedOptions["limits"] = {}): { orders: ProposedOrder[]; notes: string[] } {
  const notes: string[] = [];
  const pf = last(steps, "get_portfolio", true)?.result;
  if (!pf) return { orders: [], notes: ["no portfolio data"] };
  const pfEvidence = String(pf.evidence_id ?? "");
  const state = String(pf.trading_state ?? "ACTIVE");
  const value = num(pf.value) ?? 0;
  let cash = (num(pf.cash) ?? 0) * 0.98;
  const ordersLeft = num(pf.orders_left_this_month) ?? 0;
  const positionPct = limits.max_position_pct ?? 10;
  const band = limits.max_price_deviation_pct ?? 2;
  const up = Math.min(0.005, (band / 100) * 0.5);
  if (state === "HALTED") return { orders: [], notes: ["trading is halted"] };
  if (ordersLeft <= 0) return { orders: [], notes: ["no orders left this month"] };
  const hist = histories(steps);
  const held = holdingsOf(pf);
  const heldSet = new Set(held.map((h) => h.symbol));
  const evidence = (h: Record<string, unknown>) => [pfEvidence, String(h.evidence_id ?? "")].filter(Boolean);

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

  const buys: ProposedOrder[] = [];
  if (state === "ACTIVE") {
    const ranked = [...hist.entries()]
      .filter(([sym]) => !heldSet.has(sym))
      .map(([sym, p]) => {
        // the market tool names it returns_pct (percent); accept the contract summary's `returns` too
        const r = (p.returns_pct ?? p.returns ?? {}) as Record<string, unknown>;
        return { sym, p, r3m: num(r["3m"]), close: num(p.last_close), sma20: num(p.sma20), sma50: num(p.sma50) };
      })
      .filter((c) => c.r3m !== undefined && c.r3m > 0 && c.close !== undefined && c.sma20 !== undefined && c.sma50 !== undefined)
      .filter((c) => (c.close as number) > (c.sma20 as number) && (c.sma20 as number) > (c.sma50 as number))
      .sort((a, b) => (b.r3m as number) - (a.r3m as number) || a.sym.localeCompare(b.sym));
    for (const c of ranked) {
      if (buys.length >= MAX_BUYS) break;
      const limit = cents((c.close as number) * (1 + up));
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
        reason: `3-month return ${c.r3m} is positive and last close ${c.close} > SMA20 ${cents(c.sma20 as number)} > SMA50 ${cents(c.sma50 as number)}; sized to ~${(positionPct * 0.8).toFixed(1)}% of the account.`,
        evidence_ids: evidence(c.p),
      });
    }
  } else {
    notes.push(`trading state ${state}: sells only`);
  }
  const orders = [...sells, ...buys].slice(0, ordersLeft);
  if (orders.length === 0) notes.push("no holding breaks its exit rule and no instrument meets the entry rule");
  return { orders, notes };
}
