/** The in-memory journal: the fold of the event log. `apply` is pure bookkeeping (no rounding, no I/O, no clock): money
 * arrives in minor units, so replaying the log always gives the same books. */
import type { TradingState } from "../core/domain.js";
import type { FundedBuyRecord } from "../core/events-parts.js";
import type { GateDecision } from "../core/gate-types.js";
import { Dec } from "../core/money.js";
import {
  emptyIndexes,
  indexFill,
  indexFunded,
  indexNewGate,
  indexNewOrder,
  indexRunChange,
  indexRunStart,
  indexSettled,
  type StateIndexes,
} from "./indexes.js";
import { recount } from "./quota-count.js";
import { applyWatch, emptyWatchState, type WatchState } from "./watchlist.js";
import { applyStanding, emptyStandingState, type StandingState } from "./standing-orders.js";
import type { AdjustmentRecord, ApprovalRecord, FillRecord, JournalEvent, LedgerEntry, Note, OrderRecord } from "./types.js";
import type { ProposalRecord, ResetRecord, RunRecord, TripRecord, UsageRecord } from "./types.js";

export interface HoldingState {
  qty: Dec;
  basis: Dec; // base-currency minor units, exact (fractional after partial sells)
  currency: string;
}

export interface State {
  seq: number;
  account: { currency: string; capital_minor: number; at: string } | null;
  ledger: LedgerEntry[];
  cash_minor: number;
  holdings: Map<string, HoldingState>;
  runs: Map<string, RunRecord>;
  runIds: string[];
  orders: Map<string, OrderRecord>;
  ordersByRun: Map<string, string[]>;
  fills: Map<string, FillRecord>;
  fillList: FillRecord[];
  /** Booked fill quantity per client order id. */
  booked: Map<string, Dec>;
  proposals: Map<string, ProposalRecord[]>;
  approvals: Map<string, ApprovalRecord[]>;
  finalGates: Map<string, GateDecision[]>;
  fundedBuys: Map<string, FundedBuyRecord>; // what became of each buy funded by its batch's sells, by `<run_id>#<index>`
  usage: UsageRecord[];
  peak_minor: number | null;
  last_first_minor: number | null;
  trading_state: TradingState;
  reducing_runs_left: number;
  trips: TripRecord[];
  resets: ResetRecord[];
  resetRunCounts: number[];
  notes: Map<string, Note>;
  liveNotes: number;
  note_seq: number;
  /** Epoch ms of every order counted toward the monthly quota, ascending. */
  countedMs: number[];
  watchlist: WatchState;
  standing: StandingState;
  adjustments: AdjustmentRecord[];
  /** Kept in step by `apply` (indexes.ts). */
  idx: StateIndexes;
}

export function emptyState(): State {
  return {
    seq: 0,
    account: null,
    ledger: [],
    cash_minor: 0,
    holdings: new Map(),
    runs: new Map(),
    runIds: [],
    orders: new Map(),
    ordersByRun: new Map(),
    fills: new Map(),
    fillList: [],
    booked: new Map(),
    proposals: new Map(),
    approvals: new Map(),
    finalGates: new Map(),
    fundedBuys: new Map(),
    usage: [],
    peak_minor: null,
    last_first_minor: null,
    trading_state: "ACTIVE",
    reducing_runs_left: 0,
    trips: [],
    resets: [],
    resetRunCounts: [],
    notes: new Map(),
    liveNotes: 0,
    note_seq: 0,
    countedMs: [],
    watchlist: emptyWatchState(),
    standing: emptyStandingState(),
    adjustments: [],
    idx: emptyIndexes(),
  };
}

function pushLedger(s: State, e: Omit<LedgerEntry, "seq">): void {
  s.ledger.push({ seq: s.ledger.length + 1, ...e });
  s.cash_minor += e.amount_minor;
  if (e.kind !== "deposit") s.idx.tradingFlowMinor += e.amount_minor;
}

function applyFillToHoldings(s: State, f: FillRecord, currency: string): void {
  s.idx.holdingsVersion++;
  const h = s.holdings.get(f.symbol) ?? { qty: new Dec(0), basis: new Dec(0), currency };
  const q = new Dec(f.quantity);
  if (f.side === "BUY") {
    h.qty = h.qty.add(q);
    h.basis = h.basis.add(f.gross_minor).add(f.commission_minor);
  } else {
    const before = h.qty;
    h.qty = h.qty.sub(q);
    // average cost does not move on a sell: the basis shrinks in proportion
    h.basis = before.gt(0) && h.qty.gt(0) ? h.basis.mul(h.qty).div(before) : new Dec(0);
  }
  if (h.qty.isZero()) s.holdings.delete(f.symbol);
  else s.holdings.set(f.symbol, h);
}

type Event<T extends JournalEvent["t"]> = Extract<JournalEvent, { t: T }>;
export function apply(s: State, ev: JournalEvent): void {
  s.seq = ev.seq;
  switch (ev.t) {
    case "init":
    case "deposit":
    case "import_ledger":
      applyCash(s, ev);
      return;
    case "run_start":
    case "import_run":
    case "run_abort":
    case "run_finish":
    case "valuation":
      applyRun(s, ev);
      return;
    case "trip":
    case "reset":
    case "import_state":
      applyKillSwitch(s, ev);
      return;
    case "usage":
    case "proposal":
    case "approval":
    case "final_gate":
    case "funded_buy":
      applyRunRecord(s, ev);
      return;
    case "order_intent":
    case "import_order":
    case "order_update":
    case "fill":
      applyOrder(s, ev);
      return;
    case "watch":
      applyWatch(s.watchlist, ev.record);
      return;
    case "standing":
      applyStanding(s.standing, ev.record);
      return;
    case "adjustment":
      applyAdjustment(s, ev.adjustment);
      return;
    case "note":
      applyNote(s, ev.note);
      return;
  }
}

/** The account's capital, deposits and (migrated) ledger entries. */
function applyCash(s: State, ev: Event<"init" | "deposit" | "import_ledger">): void {
  switch (ev.t) {
    case "init":
      s.account = { currency: ev.currency, capital_minor: ev.capital_minor, at: ev.at };
      s.idx.holdingsVersion++;
      pushLedger(s, { kind: "deposit", amount_minor: ev.capital_minor, at: ev.at, note: "initial capital" });
      return;
    case "deposit":
      pushLedger(s, { kind: "deposit", amount_minor: ev.amount_minor, at: ev.at, ...(ev.note ? { note: ev.note } : {}) });
      return;
    case "import_ledger":
      pushLedger(s, {
        kind: ev.kind,
        amount_minor: ev.amount_minor,
        at: ev.at,
        ...(ev.note ? { note: ev.note } : {}),
        ...(ev.symbol ? { symbol: ev.symbol } : {}),
      });
      return;
  }
}

/** A run's start, end and valuation (the valuation moves the peak). */
function applyRun(s: State, ev: Event<"run_start" | "import_run" | "run_abort" | "run_finish" | "valuation">): void {
  switch (ev.t) {
    case "run_start":
    case "import_run": {
      indexRunStart(s, ev.run.run_id);
      const r = { ...ev.run, notes: [...ev.run.notes] };
      s.runs.set(r.run_id, r);
      s.runIds.push(r.run_id);
      indexRunChange(s, r);
      return;
    }
    case "run_abort": {
      const r = s.runs.get(ev.run_id);
      if (!r) return;
      r.status = "aborted";
      r.outcome = "interrupted";
      r.finished_at = ev.at;
      r.message = ev.message;
      r.notes.push(ev.message);
      indexRunChange(s, r);
      return;
    }
    case "run_finish": {
      const r = s.runs.get(ev.run_id);
      if (!r) return;
      r.status = ev.status;
      r.outcome = ev.outcome;
      r.exit_code = ev.exit_code;
      r.message = ev.message;
      r.finished_at = ev.at;
      // A run that could not have traded (closed market, reconcile failure, quota) does not count;
      // journals written before the flag existed count every completed paper run, as they did.
      if (ev.status === "completed" && r.mode === "paper" && s.trading_state === "REDUCING" && ev.could_trade !== false) {
        s.reducing_runs_left = Math.max(0, s.reducing_runs_left - 1);
        if (s.reducing_runs_left === 0) s.trading_state = "ACTIVE";
      }
      indexRunChange(s, r);
      return;
    }
    case "valuation": {
      const r = s.runs.get(ev.run_id);
      const prev = s.last_first_minor;
      const v = ev.value_minor;
      if (s.peak_minor === null) s.peak_minor = v;
      else s.peak_minor = Math.max(s.peak_minor, Math.min(v, prev ?? s.peak_minor));
      s.last_first_minor = v;
      if (r) {
        r.first_value_minor = v;
        r.previous_value_minor = prev;
        r.peak_after_minor = s.peak_minor;
        indexRunChange(s, r);
      }
      return;
    }
  }
}

/** The kill switch: a trip halts trading, a reset re-arms it (migration imports its whole state). */
function applyKillSwitch(s: State, ev: Event<"trip" | "reset" | "import_state">): void {
  switch (ev.t) {
    case "trip":
      s.trips.push(ev.trip);
      s.trading_state = "HALTED";
      s.reducing_runs_left = 0;
      return;
    case "reset":
      s.resets.push(ev.reset);
      s.resetRunCounts.push(s.runIds.length);
      s.peak_minor = ev.value_minor;
      s.last_first_minor = ev.value_minor;
      s.reducing_runs_left = ev.reset.reducing_runs;
      s.trading_state = ev.reset.reducing_runs > 0 ? "REDUCING" : "ACTIVE";
      return;
    case "import_state":
      s.peak_minor = ev.peak_minor;
      s.last_first_minor = ev.last_first_value_minor;
      s.trading_state = ev.trading_state;
      s.reducing_runs_left = ev.reducing_runs_left;
      s.trips.push(...ev.trips);
      s.resets.push(...ev.resets);
      s.resetRunCounts.push(...ev.resets.map(() => s.runIds.length));
      return;
  }
}

/** What a run recorded: model usage (its cost added to the run), proposals, approvals and the final gate. */
function applyRunRecord(s: State, ev: Event<"usage" | "proposal" | "approval" | "final_gate" | "funded_buy">): void {
  switch (ev.t) {
    case "usage": {
      s.usage.push(ev.record);
      const r = s.runs.get(ev.record.run_id);
      if (r) r.cost_micros += ev.record.cost_micros;
      return;
    }
    case "proposal":
      s.proposals.set(ev.record.run_id, [...(s.proposals.get(ev.record.run_id) ?? []), ev.record]);
      return;
    case "approval":
      s.approvals.set(ev.record.run_id, [...(s.approvals.get(ev.record.run_id) ?? []), ev.record]);
      return;
    case "final_gate":
      indexNewGate(s, ev.run_id);
      s.finalGates.set(ev.run_id, ev.decisions);
      indexFunded(s, ev.run_id);
      return;
    case "funded_buy":
      s.fundedBuys.set(`${ev.record.run_id}#${ev.record.index}`, ev.record);
      indexFunded(s, ev.record.run_id);
      return;
  }
}

/** Orders, their status updates and fills (a fill moves the holding and books its ledger entries). */
function applyOrder(s: State, ev: Event<"order_intent" | "import_order" | "order_update" | "fill">): void {
  switch (ev.t) {
    case "order_intent":
    case "import_order": {
      const o: OrderRecord = { ...ev.order, history: [...ev.order.history], counted_at: null };
      indexNewOrder(s, o.client_order_id);
      s.orders.set(o.client_order_id, o);
      const list = s.ordersByRun.get(o.run_id);
      if (list) list.push(o.client_order_id);
      else s.ordersByRun.set(o.run_id, [o.client_order_id]);
      recount(s, o);
      indexSettled(s, o.client_order_id);
      return;
    }
    case "order_update": {
      const o = s.orders.get(ev.client_order_id);
      if (!o) return;
      o.history.push(ev.entry);
      o.status = ev.entry.status;
      if (ev.entry.broker_order_id) o.broker_order_id = ev.entry.broker_order_id;
      if (ev.entry.filled_quantity !== undefined) o.filled_quantity = ev.entry.filled_quantity;
      recount(s, o);
      indexSettled(s, o.client_order_id);
      return;
    }
    case "fill": {
      const f = ev.fill;
      s.fills.set(f.fill_id, f);
      s.fillList.push(f);
      indexFill(s, f);
      s.booked.set(f.client_order_id, (s.booked.get(f.client_order_id) ?? new Dec(0)).add(f.quantity));
      const o = s.orders.get(f.client_order_id);
      applyFillToHoldings(s, f, o?.currency ?? s.account?.currency ?? "USD");
      if (f.ledger) {
        const base = { at: f.at, run_id: f.run_id, client_order_id: f.client_order_id, fill_id: f.fill_id, symbol: f.symbol };
        pushLedger(s, { kind: f.side === "BUY" ? "buy" : "sell", amount_minor: f.side === "BUY" ? -f.gross_minor : f.gross_minor, ...base });
        if (f.commission_minor !== 0) pushLedger(s, { kind: "commission", amount_minor: -f.commission_minor, ...base });
      }
      if (o) recount(s, o);
      indexSettled(s, f.client_order_id);
      return;
    }
  }
}

/** A note; one that supersedes a live note retires it. */
function applyNote(s: State, note: Note): void {
  const n = { ...note };
  s.notes.set(n.id, n);
  if (n.status === "live") s.liveNotes++;
  const m = /^n-(\d+)$/.exec(n.id);
  if (m) s.note_seq = Math.max(s.note_seq, Number(m[1]));
  if (n.supersedes) {
    const old = s.notes.get(n.supersedes);
    if (old && old.status === "live") {
      old.status = "superseded";
      old.superseded_by = n.id;
      s.liveNotes--;
    }
  }
}

function applyAdjustment(s: State, a: AdjustmentRecord): void {
  s.idx.holdingsVersion++;
  s.adjustments.push(a);
  if (a.kind === "cash" && a.amount_minor !== undefined) {
    pushLedger(s, { kind: "adjustment", amount_minor: a.amount_minor, at: a.at, note: `${a.id}: ${a.reason}` });
  }
  if (a.kind === "position" && a.symbol && a.quantity_delta) {
    const currency = s.account?.currency ?? "USD";
    const h = s.holdings.get(a.symbol) ?? { qty: new Dec(0), basis: new Dec(0), currency };
    const before = h.qty;
    h.qty = h.qty.add(a.quantity_delta);
    if (a.quantity_delta > 0) h.basis = h.basis.add(a.basis_minor ?? 0);
    else h.basis = before.gt(0) && h.qty.gt(0) ? h.basis.mul(h.qty).div(before) : new Dec(0);
    if (h.qty.isZero()) s.holdings.delete(a.symbol);
    else s.holdings.set(a.symbol, h);
  }
}
