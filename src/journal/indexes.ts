/**
 * Indexes over the folded state, kept in step by `apply` (state.ts) as each event is folded:
 * readers asked the whole history every simulated day (each run's and order's fills, the orders
 * whose outcome is not final, the latest completed run, the trading cash flow), so a day cost more
 * the longer the journal. They derive only from the events applied: a reopen folds the log again
 * and rebuilds them, and each answers exactly what the scan it replaces did (tests/journal/indexes.test.ts).
 */
import { bookedQuantity, isUnsettled } from "./settled.js";
import type { State } from "./state.js";
import type { GateDecision } from "../core/gate-types.js";
import type { FillRecord, RunRecord } from "./types.js";

export interface StateIndexes {
  /** Each run's fills, in the fill list's order. */
  fillsByRun: Map<string, FillRecord[]>;
  /** Each order's fills, in the fill list's order. */
  fillsByOrder: Map<string, FillRecord[]>;
  /** Each order's position in `orders` (a Map keeps a key's first position when it is set again). */
  orderPos: Map<string, number>;
  /** Client order ids of the orders whose outcome is not final (settled.ts's rule). */
  unsettled: Set<string>;
  /** Sum of the ledger's non-deposit entries, added in ledger order (as the scan added them). */
  tradingFlowMinor: number;
  /** The latest completed, valued run (ties: the later started) and its position in `runIds`. */
  lastCompleted: { run: RunRecord | null; pos: number };
  /** Each run's position in `runIds`. */
  runPos: Map<string, number>;
  /** Runs whose status is "running" (a run starting closes those a gone process left). */
  running: Set<string>;
  /** Each run's position in `finalGates`. */
  gatePos: Map<string, number>;
  /** Runs whose final gate approved a buy funded by its batch's sells with no outcome recorded. */
  fundedPending: Set<string>;
  /** Counts the changes of the holdings or the account's currency (a cached holdings view is good while it stands). */
  holdingsVersion: number;
  /** A run id was started twice: its position is ambiguous, so the latest completed run is scanned for. */
  scanRuns: boolean;
}

export function emptyIndexes(): StateIndexes {
  return {
    fillsByRun: new Map(),
    fillsByOrder: new Map(),
    orderPos: new Map(),
    unsettled: new Set(),
    tradingFlowMinor: 0,
    lastCompleted: { run: null, pos: -1 },
    runPos: new Map(),
    running: new Set(),
    gatePos: new Map(),
    fundedPending: new Set(),
    holdingsVersion: 0,
    scanRuns: false,
  };
}

function pushTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** Before an order is set into `orders`: its position, when it is new. */
export function indexNewOrder(s: State, id: string): void {
  if (!s.orders.has(id)) s.idx.orderPos.set(id, s.orders.size);
}

/** After an order, its status or its booked fills changed: whether its outcome is final. */
export function indexSettled(s: State, id: string): void {
  const o = s.orders.get(id);
  if (!o) return;
  if (isUnsettled(o, bookedQuantity(s, id))) s.idx.unsettled.add(id);
  else s.idx.unsettled.delete(id);
}

export function indexFill(s: State, f: FillRecord): void {
  pushTo(s.idx.fillsByRun, f.run_id, f);
  pushTo(s.idx.fillsByOrder, f.client_order_id, f);
}

/** Before a run's final gate is set into `finalGates`: its position, when it is new. */
export function indexNewGate(s: State, run_id: string): void {
  if (!s.finalGates.has(run_id)) s.idx.gatePos.set(run_id, s.finalGates.size);
}

/** The buys a run's final gate approved as funded by its batch's sells with no outcome recorded yet. */
function unsettledFundedOf(s: State, run_id: string): GateDecision[] {
  return (s.finalGates.get(run_id) ?? []).filter((d) => d.approved && d.funded_by_sells && !s.fundedBuys.has(`${run_id}#${d.index}`));
}

/** After a run's final gate or a funded buy's outcome was recorded. */
export function indexFunded(s: State, run_id: string): void {
  if (unsettledFundedOf(s, run_id).length > 0) s.idx.fundedPending.add(run_id);
  else s.idx.fundedPending.delete(run_id);
}

/** Every such buy: the runs the fold found with one, in the final gates' order, then each run's decisions. */
export function unsettledFundedBuys(s: State): { run_id: string; decision: GateDecision }[] {
  const pos = s.idx.gatePos;
  const runs = [...s.idx.fundedPending].sort((a, b) => (pos.get(a) as number) - (pos.get(b) as number));
  return runs.flatMap((run_id) => unsettledFundedOf(s, run_id).map((decision) => ({ run_id, decision })));
}

/** Before a run is started (set into `runs` and pushed onto `runIds`). */
export function indexRunStart(s: State, id: string): void {
  if (s.runs.has(id)) s.idx.scanRuns = true;
  else s.idx.runPos.set(id, s.runIds.length);
}

const completedAndValued = (r: RunRecord): boolean => r.status === "completed" && r.first_value_minor !== null;

/** After a run was started, finished, aborted or valued. */
export function indexRunChange(s: State, r: RunRecord): void {
  const idx = s.idx;
  if (r.status === "running") idx.running.add(r.run_id);
  else idx.running.delete(r.run_id);
  if (idx.scanRuns) return;
  const best = idx.lastCompleted;
  if (!completedAndValued(r)) {
    // The latest completed run undone (aborted or finished again): the runner-up is found by the scan.
    if (best.run === r) {
      const run = scanLastCompleted(s);
      idx.lastCompleted = { run, pos: run ? (idx.runPos.get(run.run_id) as number) : -1 };
    }
    return;
  }
  const pos = idx.runPos.get(r.run_id) as number;
  if (!best.run || r.trading_day > best.run.trading_day || (r.trading_day === best.run.trading_day && pos >= best.pos)) idx.lastCompleted = { run: r, pos };
}

/** The latest trading day of a completed run that valued the account (null: none yet). */
export function lastCompletedRun(s: State): { run_id: string; trading_day: string } | null {
  const best = s.idx.scanRuns ? scanLastCompleted(s) : s.idx.lastCompleted.run;
  return best ? { run_id: best.run_id, trading_day: best.trading_day } : null;
}

/** The ids of the runs still "running", in run order (as a scan of `runIds` lists them). */
export function runningRunIds(s: State): string[] {
  if (s.idx.scanRuns) return s.runIds.filter((x) => s.runs.get(x)?.status === "running");
  const pos = s.idx.runPos;
  return [...s.idx.running].sort((a, b) => (pos.get(a) as number) - (pos.get(b) as number));
}

/** The scan the index replaces: every run in run order, the last of the latest trading day kept. */
export function scanLastCompleted(s: State): RunRecord | null {
  let best: RunRecord | null = null;
  for (const id of s.runIds) {
    const r = s.runs.get(id) as RunRecord;
    if (!completedAndValued(r)) continue;
    if (!best || r.trading_day >= best.trading_day) best = r;
  }
  return best;
}
