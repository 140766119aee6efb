/**
 * `journal verify`: recomputes cash from the ledger and holdings from the fills, independently of
 * the incremental fold, compares both with the committed checkpoint, and checks every reference.
 */
import { hostname } from "node:os";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Dec } from "../core/money.js";
import { isPidAlive } from "./lock.js";
import { TERMINAL_ORDER_STATUSES } from "../core/order-lifecycle.js";
import type { State } from "./state.js";
import type { Checkpoint, Finding } from "./types.js";

const EPS = new Dec("1e-9");

/**
 * Findings that mean the log contradicts itself (an edited or forged line): a writable open
 * refuses them, as `journal verify` reports them, instead of trading on.
 */
export const CONTRADICTIONS: ReadonlySet<string> = new Set([
  "cash_mismatch",
  "duplicate_fill",
  "fill_ledger_mismatch",
  "fill_without_order",
  "fill_order_mismatch",
  "ledger_without_fill",
  "holding_mismatch",
  "overfilled_order",
  "order_without_run",
]);

type Add = (code: string, message: string) => void;

export function verifyState(s: State, checkpoint: Checkpoint, maxLiveNotes: number, chainIssue?: string | null): Finding[] {
  const out: Finding[] = [];
  const add: Add = (code, message) => {
    out.push({ code, message });
  };
  if (chainIssue) add("chain_broken", `${chainIssue}: the log was changed after it was written`);
  cashFindings(s, checkpoint, add);
  const { qtyBySymbol, qtyByOrder } = fillFindings(s, add);
  holdingFindings(s, checkpoint, qtyBySymbol, add);
  orderFindings(s, qtyByOrder, add);
  stateFindings(s, checkpoint, maxLiveNotes, add);
  return out;
}

/** Cash is the sum of the ledger, and the committed checkpoint says so. */
function cashFindings(s: State, checkpoint: Checkpoint, add: Add): void {
  let ledgerSum = 0;
  for (const e of s.ledger) {
    if (!Number.isSafeInteger(e.amount_minor)) add("ledger_amount_invalid", `ledger entry ${e.seq} has a non-integer amount ${e.amount_minor}`);
    ledgerSum += e.amount_minor;
  }
  if (ledgerSum !== s.cash_minor) add("cash_mismatch", `cash ${s.cash_minor} (minor units) differs from the ledger sum ${ledgerSum}`);
  if (s.account && checkpoint.cash_minor !== ledgerSum)
    add("checkpoint_cash_mismatch", `the committed checkpoint says cash ${checkpoint.cash_minor}, the ledger sums to ${ledgerSum}`);
  if (s.account && ledgerSum < 0) add("negative_cash", `cash is negative (${ledgerSum} minor units)`);
  if (!s.account && (s.ledger.length > 0 || s.runs.size > 0)) add("not_initialised", "the journal holds entries but was never initialised");
}

/** Every booked fill has its ledger entries and its order; returns the booked quantity by symbol (adjustments included) and by order. */
function fillFindings(s: State, add: Add): { qtyBySymbol: Map<string, Dec>; qtyByOrder: Map<string, Dec> } {
  const byFill = new Map<string, number>();
  for (const e of s.ledger) if (e.fill_id) byFill.set(e.fill_id, (byFill.get(e.fill_id) ?? 0) + e.amount_minor);
  const qtyBySymbol = new Map<string, Dec>();
  const qtyByOrder = new Map<string, Dec>();
  const seen = new Set<string>();
  for (const f of s.fillList) {
    if (seen.has(f.fill_id)) add("duplicate_fill", `fill ${f.fill_id} is booked twice`);
    seen.add(f.fill_id);
    const sign = f.side === "BUY" ? 1 : -1;
    if (f.ledger) {
      const expected = sign * -f.gross_minor - f.commission_minor;
      const got = byFill.get(f.fill_id) ?? 0;
      if (got !== expected) add("fill_ledger_mismatch", `fill ${f.fill_id}: ledger entries sum to ${got}, expected ${expected}`);
    }
    qtyBySymbol.set(f.symbol, (qtyBySymbol.get(f.symbol) ?? new Dec(0)).add(new Dec(f.quantity).mul(sign)));
    qtyByOrder.set(f.client_order_id, (qtyByOrder.get(f.client_order_id) ?? new Dec(0)).add(f.quantity));
    const o = s.orders.get(f.client_order_id);
    if (!o) add("fill_without_order", `fill ${f.fill_id} names order ${f.client_order_id}, which is not in the journal`);
    else if (o.symbol !== f.symbol || o.side !== f.side)
      add("fill_order_mismatch", `fill ${f.fill_id} is ${f.side} ${f.symbol}, its order is ${o.side} ${o.symbol}`);
  }
  for (const id of byFill.keys()) if (!s.fills.has(id)) add("ledger_without_fill", `ledger entries name fill ${id}, which is not booked`);
  // operator adjustments (append-only adoptions of the broker's side) move holdings too
  for (const a of s.adjustments) {
    if (!a.reason.trim()) add("adjustment_without_reason", `adjustment ${a.id} has no reason`);
    if (a.kind === "position" && a.symbol && a.quantity_delta) qtyBySymbol.set(a.symbol, (qtyBySymbol.get(a.symbol) ?? new Dec(0)).add(a.quantity_delta));
  }
  return { qtyBySymbol, qtyByOrder };
}

/** Holdings are the sum of the fills (and adjustments), and the committed checkpoint says so. */
function holdingFindings(s: State, checkpoint: Checkpoint, qtyBySymbol: Map<string, Dec>, add: Add): void {
  const symbols = new Set([...qtyBySymbol.keys(), ...s.holdings.keys(), ...Object.keys(checkpoint.holdings)]);
  for (const sym of symbols) {
    const fromFills = qtyBySymbol.get(sym) ?? new Dec(0);
    const held = s.holdings.get(sym)?.qty ?? new Dec(0);
    const cp = new Dec(checkpoint.holdings[sym]?.quantity ?? 0);
    if (!fromFills.sub(held).abs().lte(EPS)) add("holding_mismatch", `${sym}: holdings say ${held.toString()}, fills sum to ${fromFills.toString()}`);
    if (s.account && !fromFills.sub(cp).abs().lte(EPS))
      add("checkpoint_holding_mismatch", `${sym}: the committed checkpoint says ${cp.toString()}, fills sum to ${fromFills.toString()}`);
    if (fromFills.lt(0)) add("negative_holding", `${sym}: fills sum to a short position ${fromFills.toString()}`);
  }
  if (s.account && checkpoint.fills !== s.fillList.length)
    add("checkpoint_fill_count", `the checkpoint counts ${checkpoint.fills} fills, the log holds ${s.fillList.length}`);
  if (s.account && checkpoint.ledger_entries !== s.ledger.length)
    add("checkpoint_ledger_count", `the checkpoint counts ${checkpoint.ledger_entries} ledger entries, the log holds ${s.ledger.length}`);
}

/** Orders: their runs, their booked fills, and whether their outcome is final; proposals and usage name a run. */
function orderFindings(s: State, qtyByOrder: Map<string, Dec>, add: Add): void {
  for (const o of s.orders.values()) {
    if (!s.runs.has(o.run_id)) add("order_without_run", `order ${o.client_order_id} names run ${o.run_id}, which is not in the journal`);
    const booked = qtyByOrder.get(o.client_order_id) ?? new Dec(0);
    if (booked.sub(o.quantity).gt(EPS))
      add("overfilled_order", `order ${o.client_order_id}: ${booked.toString()} filled, more than its quantity ${o.quantity}`);
    if (["filled", "cancelled", "expired"].includes(o.status) && o.filled_quantity > 0 && !booked.sub(o.filled_quantity).abs().lte(EPS)) {
      add("unbooked_fills", `order ${o.client_order_id} is ${o.status} with ${o.filled_quantity} filled at the broker, ${booked.toString()} booked`);
    }
  }
  // orders whose outcome is not final: the next run (or `tradewarden reconcile`) must settle them
  for (const o of s.orders.values()) {
    const booked = qtyByOrder.get(o.client_order_id) ?? new Dec(0);
    const final = TERMINAL_ORDER_STATUSES.has(o.status);
    const expected = o.status === "filled" ? Math.max(o.quantity, o.filled_quantity) : o.filled_quantity;
    const run = s.runs.get(o.run_id);
    if (run?.status === "running" && run.host === hostname() && isPidAlive(run.pid)) continue; // in flight in a run that is still going
    if (!final)
      add(
        "unsettled_order",
        `order ${o.client_order_id} (${o.side} ${o.quantity} ${o.symbol}) is ${o.status}: its outcome is not final; \`tradewarden reconcile\` looks it up at the broker`,
      );
    else if (o.status === "filled" && o.filled_quantity === 0 && booked.lt(expected))
      add(
        "unsettled_order",
        `order ${o.client_order_id} (${o.side} ${o.quantity} ${o.symbol}) is filled but ${booked.toString()} of ${expected} are booked; \`tradewarden reconcile\` books its fills`,
      );
  }
  for (const [runId] of s.proposals) if (!s.runs.has(runId)) add("proposal_without_run", `a proposal names run ${runId}, which is not in the journal`);
  for (const u of s.usage) if (!s.runs.has(u.run_id)) add("usage_without_run", `LLM usage names run ${u.run_id}, which is not in the journal`);
}

/** The peak, the trading state and the notes. */
function stateFindings(s: State, checkpoint: Checkpoint, maxLiveNotes: number, add: Add): void {
  const valued = [...s.runs.values()].some((r) => r.first_value_minor !== null);
  if (valued && s.peak_minor === null) add("peak_missing", "runs were valued but there is no peak");
  if (s.trading_state === "HALTED" && s.trips.length === 0) add("halt_without_trip", "trading is HALTED but no trip is recorded");
  if (checkpoint.trading_state !== s.trading_state && s.account)
    add("checkpoint_state_mismatch", `the checkpoint says ${checkpoint.trading_state}, the log says ${s.trading_state}`);
  let live = 0;
  for (const n of s.notes.values()) {
    if (n.status === "live") live++;
    if (n.superseded_by && !s.notes.has(n.superseded_by)) add("note_dangling", `note ${n.id} is superseded by ${n.superseded_by}, which does not exist`);
  }
  if (live > maxLiveNotes) add("memory_over_cap", `${live} live notes, more than the cap of ${maxLiveNotes}`);
}

/** The first key where a committed checkpoint differs from the fold of the log, or null. */
export function checkpointMismatch(committed: Checkpoint, folded: Checkpoint): string | null {
  const a: Record<string, unknown> = committed;
  const b: Record<string, unknown> = folded;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = JSON.stringify(a[key]);
    const y = JSON.stringify(b[key]);
    if (x !== y) return `the committed checkpoint's ${key} is ${x ?? "missing"}, the event log gives ${y ?? "nothing"}`;
  }
  return null;
}

/**
 * Every booked fill the broker's own record also holds (the simulated broker's `sim-broker.json`
 * fills, matched by fill id) must have the broker's symbol, side, quantity and price. The book is
 * read as plain JSON here; it is validated where the broker opens it (src/broker/sim-*).
 */
function brokerFillFindings(s: State, book: unknown, bookPath: string): Finding[] {
  const fills = (book as { fills?: unknown } | null)?.fills;
  if (!Array.isArray(fills)) return [];
  const byId = new Map<string, Record<string, unknown>>();
  for (const f of fills)
    if (f && typeof f === "object" && typeof (f as { fill_id?: unknown }).fill_id === "string")
      byId.set((f as { fill_id: string }).fill_id, f as Record<string, unknown>);
  const out: Finding[] = [];
  for (const f of s.fillList) {
    const b = byId.get(f.fill_id);
    if (!b) continue;
    const differs: string[] = [];
    if (b.symbol !== f.symbol || b.side !== f.side) differs.push(`${String(b.side)} ${String(b.symbol)} at the broker, ${f.side} ${f.symbol} booked`);
    if (typeof b.quantity !== "number" || !new Dec(b.quantity).sub(f.quantity).abs().lte(EPS))
      differs.push(`quantity ${String(b.quantity)} at the broker, ${f.quantity} booked`);
    if (typeof b.price !== "number" || !new Dec(b.price).sub(f.price).abs().lte(EPS)) differs.push(`price ${String(b.price)} at the broker, ${f.price} booked`);
    if (differs.length > 0)
      out.push({ code: "fill_broker_mismatch", message: `fill ${f.fill_id} differs from the broker's record in ${bookPath}: ${differs.join("; ")}` });
  }
  return out;
}

/** The booked fills against the simulated broker's own record of them, where the home has one. */
export function simBrokerFindings(s: State, home: string): Finding[] {
  const bookPath = join(home, "sim-broker.json");
  let book: unknown;
  try {
    book = JSON.parse(readFileSync(bookPath, "utf8"));
  } catch {
    return []; // no simulated broker here (or a book its own open refuses, naming it)
  }
  return brokerFillFindings(s, book, bookPath);
}
