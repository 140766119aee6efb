/**
 * The approval screen's pure model: the rows the operator sees (edited, dropped, re-gated) and the
 * one way to turn them into an approval. Invariants: a blocked order is never approved; an edit is
 * re-gated before it can be approved; an approval carries the hash of exactly its orders, which
 * are re-gated as that exact batch just before it is built.
 */
import type { ProposedOrder } from "../core/domain.js";
import { decisionFor, type GateDecision } from "../core/gate-types.js";
import type { ApprovalDecision, ApprovalRequest } from "../run/approval.js";
import { sanitizeLine } from "../util/sanitize.js";

export interface ApprovalRow {
  /** The order as the model proposed it. */
  proposed: ProposedOrder;
  /** The order as it stands (maybe edited). */
  order: ProposedOrder;
  dropped: boolean;
  /** The gate's verdict on `order` within the current batch; null while dropped. */
  decision: GateDecision | null;
}

function blockedDecision(order: ProposedOrder, index: number, message: string): GateDecision {
  // The gate could not be asked: treat as blocked (fail closed). The code is only for display.
  return {
    index,
    order: { ...order },
    approved: false,
    reasons: [{ code: "non_finite_number", message }],
    notional: order.quantity * order.limit_price,
    commission: 0,
  };
}

/** Re-gate the kept rows as one batch (verdicts depend on the whole batch: cash, duplicates…). */
function regateRows(req: ApprovalRequest, rows: readonly ApprovalRow[]): ApprovalRow[] {
  const kept = rows.filter((r) => !r.dropped);
  let decisions: GateDecision[];
  try {
    decisions = req.regate(kept.map((r) => r.order));
    if (decisions.length !== kept.length) throw new Error(`the gate returned ${decisions.length} verdicts for ${kept.length} orders`);
  } catch (e) {
    const msg = `could not re-gate: ${e instanceof Error ? e.message : String(e)}`;
    decisions = kept.map((r, i) => blockedDecision(r.order, i, msg));
  }
  // The i-th kept row is input order i of the re-gated batch: its verdict is the one with index i.
  let i = 0;
  return rows.map((r) => {
    if (r.dropped) return { ...r, decision: null };
    const at = i++;
    return { ...r, decision: decisionFor(decisions, at) ?? blockedDecision(r.order, at, "no verdict") };
  });
}

export function initialRows(req: ApprovalRequest): ApprovalRow[] {
  const rows: ApprovalRow[] = req.orders.map((o, i) => ({ proposed: o, order: { ...o }, dropped: false, decision: decisionFor(req.decisions, i) ?? null }));
  return rows.every((r) => r.decision !== null) ? rows : regateRows(req, rows);
}

export function isEdited(row: ApprovalRow): boolean {
  return row.order.quantity !== row.proposed.quantity || row.order.limit_price !== row.proposed.limit_price;
}

export function isApprovable(row: ApprovalRow): boolean {
  return !row.dropped && row.decision?.approved === true;
}

export interface EditInput {
  quantity: string;
  limit: string;
}

export type EditResult = { ok: true; rows: ApprovalRow[] } | { ok: false; message: string };

/**
 * Apply an edit of quantity and limit to row `index` and re-gate. The operator may shrink an order
 * and move its limit; growing it is refused (design: "drop or shrink orders and adjust limits").
 */
export function applyEdit(req: ApprovalRequest, rows: readonly ApprovalRow[], index: number, input: EditInput): EditResult {
  const row = rows[index];
  if (!row) return { ok: false, message: "no order selected" };
  const quantity = Number(input.quantity);
  const limit = Number(input.limit);
  if (input.quantity.trim() === "" || !Number.isFinite(quantity) || quantity <= 0) return { ok: false, message: "quantity must be a positive number" };
  if (input.limit.trim() === "" || !Number.isFinite(limit) || limit <= 0) return { ok: false, message: "limit must be a positive number" };
  if (quantity > row.proposed.quantity) return { ok: false, message: `quantity can only be reduced (proposed ${row.proposed.quantity})` };
  const next = rows.map((r, i) => (i === index ? { ...r, order: { ...r.order, quantity, limit_price: limit }, dropped: false } : r));
  return { ok: true, rows: regateRows(req, next) };
}

export function toggleDrop(req: ApprovalRequest, rows: readonly ApprovalRow[], index: number): ApprovalRow[] {
  if (!rows[index]) return [...rows];
  return regateRows(
    req,
    rows.map((r, i) => (i === index ? { ...r, dropped: !r.dropped } : r)),
  );
}

export function restoreRow(req: ApprovalRequest, rows: readonly ApprovalRow[], index: number): ApprovalRow[] {
  if (!rows[index]) return [...rows];
  return regateRows(
    req,
    rows.map((r, i) => (i === index ? { ...r, order: { ...r.proposed }, dropped: false } : r)),
  );
}

/** Every order back to what the model proposed (edits and drops undone), re-gated as a batch. */
export function restoreAll(req: ApprovalRequest, rows: readonly ApprovalRow[]): ApprovalRow[] {
  return regateRows(
    req,
    rows.map((r) => ({ ...r, order: { ...r.proposed }, dropped: false })),
  );
}

export type BuildResult = { ok: true; decision: Extract<ApprovalDecision, { kind: "approve" }> } | { ok: false; message: string; rows?: ApprovalRow[] };

/**
 * The approval: exactly the approvable rows, re-gated as that batch; any block refuses the whole
 * approval (and returns the fresh verdicts so the screen shows why).
 */
export function buildApproval(req: ApprovalRequest, rows: readonly ApprovalRow[]): BuildResult {
  const chosen = rows.filter(isApprovable);
  if (chosen.length === 0) return { ok: false, message: "nothing to approve: every order is blocked or dropped (edit, or reject with r)" };
  const orders = chosen.map((r) => ({ ...r.order }));
  let verdicts: GateDecision[];
  try {
    verdicts = req.regate(orders);
  } catch (e) {
    return { ok: false, message: `could not re-gate the approval: ${e instanceof Error ? e.message : String(e)}` };
  }
  const bad = orders.filter((_, i) => verdicts[i]?.approved !== true);
  if (verdicts.length !== orders.length || bad.length > 0) {
    const dropBlocked = rows.map((r) => (isApprovable(r) ? r : { ...r, dropped: true }));
    return {
      ok: false,
      message: `re-gating the approved set blocked ${bad.map((o) => `${o.side} ${o.quantity} ${sanitizeLine(o.symbol)}`).join(", ")}: nothing sent`,
      rows: regateRows(req, dropBlocked),
    };
  }
  const edits = chosen
    .filter(isEdited)
    .map((r) => `${sanitizeLine(r.order.symbol)} ${r.proposed.quantity}@${r.proposed.limit_price}→${r.order.quantity}@${r.order.limit_price}`);
  const droppedCount = rows.filter((r) => r.dropped).length;
  const blockedCount = rows.filter((r) => !r.dropped && !isApprovable(r)).length;
  const notes = [
    ...(edits.length ? [`edited: ${edits.join(", ")}`] : []),
    ...(droppedCount ? [`dropped ${droppedCount}`] : []),
    ...(blockedCount ? [`left out ${blockedCount} blocked`] : []),
  ];
  return {
    ok: true,
    decision: { kind: "approve", orders, by: "operator", ...(notes.length ? { note: notes.join("; ") } : {}) },
  };
}

/** "Share of portfolio after" for one row, as a fraction; null when the request lacks the value. */
export function shareAfter(req: ApprovalRequest, row: ApprovalRow): { share: number; orderOnly: boolean } | null {
  const value = req.portfolioValue;
  if (value === undefined || !Number.isFinite(value) || value <= 0) return null;
  const notional = row.decision?.notional ?? row.order.quantity * row.order.limit_price;
  const signed = row.order.side === "SELL" ? -notional : notional;
  const held = req.positionValues?.[row.order.symbol.toUpperCase()];
  if (req.positionValues === undefined) return { share: signed / value, orderOnly: true };
  return { share: Math.max(0, (held ?? 0) + signed) / value, orderOnly: false };
}

export function referencePrice(req: ApprovalRequest, row: ApprovalRow): number | null {
  const p = req.referencePrices?.[row.order.symbol.toUpperCase()] ?? req.referencePrices?.[row.order.symbol];
  return p !== undefined && Number.isFinite(p) ? p : null;
}
