/**
 * The activity narrative (pure over the folded state): what became of each proposed order of the
 * paper-mode runs, and of each order sent. Kill-switch liquidation orders are never matched against
 * a proposal. `before` limits it to runs whose trading day is earlier (time never runs backwards
 * for the model).
 */
import type { Side } from "../core/domain.js";
import { Dec } from "../core/money.js";
import { TERMINAL_ORDER_STATUSES } from "../core/order-lifecycle.js";
import type { State } from "./state.js";
import type { ActivityItem, FillRecord, OrderRecord, RunRecord } from "./types.js";

export interface ActivityOptions {
  /** Only runs whose trading day is before this day (YYYY-MM-DD). */
  before?: string;
}

/** The last `n` orders of paper-mode runs (newest run first) and what became of each. */
export function recentActivity(s: State, n = 10, opts: ActivityOptions = {}): ActivityItem[] {
  const out: ActivityItem[] = [];
  const fillsOf: FillsOf = (id) => s.idx.fillsByOrder.get(id) ?? [];
  for (let i = s.runIds.length - 1; i >= 0 && out.length < n; i--) {
    const r = s.runs.get(s.runIds[i] as string) as RunRecord;
    if (r.mode !== "paper") continue;
    if (opts.before !== undefined && !(r.trading_day < opts.before)) continue;
    out.push(...runActivity(s, r, fillsOf).slice(0, n - out.length));
  }
  return out;
}

/** Each order's fills in the fill list's order (the index `apply` keeps: indexes.ts). */
type FillsOf = (clientOrderId: string) => readonly FillRecord[];

function runActivity(s: State, r: RunRecord, fillsOf: FillsOf): ActivityItem[] {
  const items: ActivityItem[] = [];
  const orders = (s.ordersByRun.get(r.run_id) ?? []).map((id) => s.orders.get(id) as OrderRecord);
  const used = new Set<string>();
  const proposal = s.proposals.get(r.run_id)?.at(-1);
  const finalGate = s.finalGates.get(r.run_id);
  const approval = s.approvals.get(r.run_id)?.at(-1);
  const base = (sym: string, side: Side, quantity: number, limit: number, at: string) => ({
    run_id: r.run_id,
    trading_day: r.trading_day,
    at,
    symbol: sym,
    side,
    quantity,
    limit_price: limit,
  });
  if (proposal) {
    proposal.orders.forEach((po, idx) => {
      const match = orders.find((o) => !o.liquidation && !used.has(o.client_order_id) && o.symbol === po.symbol && o.side === po.side);
      if (match) {
        used.add(match.client_order_id);
        items.push(orderActivity(r, match, fillsOf));
        return;
      }
      const d = proposal.decisions.find((x) => x.order.symbol === po.symbol && x.order.side === po.side) ?? proposal.decisions[idx];
      const fd = finalGate?.find((x) => x.order.symbol === po.symbol && x.order.side === po.side);
      const it = base(po.symbol, po.side, po.quantity, po.limit_price, proposal.at);
      const blocked = d && !d.approved ? d : fd && !fd.approved ? fd : undefined;
      if (blocked) {
        const reasons = blocked.reasons.map((x) => ({ code: x.code, message: x.message }));
        const stage = blocked === d ? "the risk gate" : "the final gate";
        items.push({
          ...it,
          outcome: "blocked",
          reasons,
          counted: false,
          detail: `blocked by ${stage}: ${reasons.map((x) => x.message).join("; ") || "no reason given"}`,
        });
        return;
      }
      let why = "approved by the gate but not sent";
      if (approval) {
        if (approval.decision === "rejected") why = `rejected by the operator${approval.reason ? `: ${approval.reason}` : ""}`;
        else if (approval.decision === "awaiting") why = "awaiting approval (no operator and no --yes); not placed";
        else if (approval.decision === "killswitch") why = "not placed: the operator tripped the kill switch";
        else if (approval.orders && !approval.orders.some((o) => o.symbol === po.symbol && o.side === po.side)) why = "dropped by the operator";
      } else if (r.status !== "running") why = `not placed: the run ended (${r.outcome ?? r.status})`;
      items.push({ ...it, outcome: "not_placed", counted: false, detail: why });
    });
  }
  for (const o of orders) if (!used.has(o.client_order_id)) items.push(orderActivity(r, o, fillsOf));
  return items;
}

/**
 * Each order's item as last made, with what it was made from: an order's record changes only by its
 * status, filled quantity, quota count and history (appended to), its fills are only added to, and
 * the model asks for the same recent orders every day (their fills summed in Decimal each time).
 */
type Made = { run: RunRecord; status: string; filled: number; counted: string | null; history: number; fills: number; item: ActivityItem };
const made = new WeakMap<OrderRecord, Made>();

function orderActivity(r: RunRecord, o: OrderRecord, fillsOf: FillsOf): ActivityItem {
  const fills = fillsOf(o.client_order_id);
  let m = made.get(o);
  if (
    !m ||
    m.run !== r ||
    m.status !== o.status ||
    m.filled !== o.filled_quantity ||
    m.counted !== o.counted_at ||
    m.history !== o.history.length ||
    m.fills !== fills.length
  ) {
    m = {
      run: r,
      status: o.status,
      filled: o.filled_quantity,
      counted: o.counted_at,
      history: o.history.length,
      fills: fills.length,
      item: makeOrderActivity(r, o, fills),
    };
    made.set(o, m);
  }
  return { ...m.item };
}

function makeOrderActivity(r: RunRecord, o: OrderRecord, fills: readonly FillRecord[]): ActivityItem {
  const filled = fills.reduce((a, f) => a.add(f.quantity), new Dec(0));
  const filledQty = Math.max(filled.toNumber(), o.filled_quantity);
  const avg = filled.gt(0)
    ? fills
        .reduce((a, f) => a.add(new Dec(f.quantity).mul(f.price)), new Dec(0))
        .div(filled)
        .toDecimalPlaces(6)
        .toNumber()
    : undefined;
  const terminal = TERMINAL_ORDER_STATUSES.has(o.status);
  let outcome: ActivityItem["outcome"];
  let detail: string;
  const last = o.history.at(-1)?.message;
  if (filledQty >= o.quantity) {
    outcome = "filled";
    detail = `filled ${filledQty} at ${avg ?? o.limit_price}`;
  } else if (o.status === "rejected" && o.counted_at === null) {
    outcome = "rejected";
    detail = `rejected by the broker${last ? `: ${last}` : ""}; not counted`;
  } else if (terminal && filledQty > 0) {
    outcome = "partially_filled";
    detail = `partially filled ${filledQty} of ${o.quantity} at ${avg}, rest ${o.status}`;
  } else if (terminal) {
    outcome = "not_filled";
    detail = o.liquidation ? `not filled (${o.status})` : `not filled (${o.status}); counted toward the monthly quota`;
  } else {
    outcome = "open";
    detail = `${o.status}${filledQty > 0 ? `, ${filledQty} of ${o.quantity} filled` : ""}`;
  }
  const item: ActivityItem = {
    run_id: r.run_id,
    trading_day: r.trading_day,
    at: o.created_at,
    symbol: o.symbol,
    side: o.side,
    quantity: o.quantity,
    limit_price: o.limit_price,
    outcome,
    detail: o.liquidation ? `kill-switch liquidation (outside the monthly quota): ${detail}` : detail,
    client_order_id: o.client_order_id,
    filled_quantity: filledQty,
    counted: o.counted_at !== null,
  };
  if (avg !== undefined) item.avg_fill_price = avg;
  if (o.liquidation) item.liquidation = true;
  return item;
}
