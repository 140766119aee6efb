/**
 * Runs and the kill switch's bookkeeping (pure over the folded state): the events that start a run
 * (closing runs left behind by a process that is gone), and what a standing trip still has to sell.
 */
import { hostname } from "node:os";
import type { RunMode } from "../core/domain.js";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { fromMinor, toMinor } from "../core/money.js";
import { runningRunIds } from "./indexes.js";
import { isPidAlive } from "./lock.js";
import { positive } from "./orders.js";
import type { State } from "./state.js";
import { toMs } from "./time.js";
import type { JournalEventBody, LiquidationStatus, ResetRecord, RunRecord, RunTrigger } from "./types.js";

/** A run still "running" this long after it started is closed as aborted by the next run. */
const STALE_RUN_MS = 30 * 60_000;

export interface StartRunArgs {
  run_id: string;
  mode: RunMode;
  trading_day: string;
  model: { provider: string; id: string };
  broker: { kind: string; account_id?: string; endpoint?: string };
  /** Who started the run (default manual). */
  trigger?: RunTrigger;
}

export function startRunEvents(s: State, args: StartRunArgs & { at: string }): { events: JournalEventBody[]; result: { aborted: string[] } } {
  if (!args.run_id) throw new TwError("invalid_run_id", "a run needs an id", EXIT.USAGE_OR_CONFIG);
  if (s.runs.has(args.run_id)) throw new TwError("duplicate_run", `run ${args.run_id} already exists in the journal`, EXIT.USAGE_OR_CONFIG);
  const at = args.at;
  const nowMs = Date.now();
  const host = hostname();
  const events: JournalEventBody[] = [];
  const aborted: string[] = [];
  // Every run still running (indexed by the fold: only the tail can be, in practice).
  for (const id of runningRunIds(s)) {
    const r = s.runs.get(id) as RunRecord;
    const age = nowMs - toMs(r.started_at);
    const gone = r.pid === process.pid || (r.host === host && !isPidAlive(r.pid));
    if (!gone && age < STALE_RUN_MS) {
      throw new TwError(
        "run_in_progress",
        `run ${r.run_id} is still running (pid ${r.pid} on ${r.host}, since ${r.started_at}); wait for it to finish`,
        EXIT.USAGE_OR_CONFIG,
      );
    }
    const why = gone ? `its process (pid ${r.pid} on ${r.host}) is gone` : `it was still running ${Math.round(age / 60_000)} minutes after it started`;
    events.push({ t: "run_abort", run_id: id, at, message: `aborted: the run never finished (${why}); closed by run ${args.run_id}` });
    aborted.push(id);
  }
  const run: RunRecord = {
    run_id: args.run_id,
    mode: args.mode,
    trading_day: args.trading_day,
    started_at: at,
    finished_at: null,
    status: "running",
    outcome: null,
    exit_code: null,
    message: null,
    model: args.model,
    broker: args.broker,
    pid: process.pid,
    host,
    trigger: args.trigger ?? "manual",
    first_value_minor: null,
    previous_value_minor: null,
    peak_after_minor: null,
    cost_micros: 0,
    notes: [],
  };
  events.push({ t: "run_start", run });
  return { events, result: { aborted } };
}

/** What the kill switch still has to sell: holdings left since the standing trip, and its (liquidation) orders. */
export function liquidationStatus(s: State): LiquidationStatus {
  const trip = s.trading_state === "HALTED" ? (s.trips.at(-1) ?? null) : null;
  const remaining = [...s.holdings].filter(([, h]) => h.qty.gt(0)).map(([symbol, h]) => ({ symbol, quantity: h.qty.toNumber() }));
  const orders: LiquidationStatus["orders"] = [];
  if (trip) {
    // The trip's run and every later run (order times follow the session clock, trips the wall clock).
    const since = s.runIds.indexOf(trip.run_id);
    const runs = new Set(since >= 0 ? s.runIds.slice(since) : []);
    for (const o of s.orders.values()) {
      if (o.liquidation && runs.has(o.run_id)) {
        orders.push({
          client_order_id: o.client_order_id,
          symbol: o.symbol,
          quantity: o.quantity,
          status: o.status,
          filled_quantity: s.booked.get(o.client_order_id)?.toNumber() ?? 0,
        });
      }
    }
  }
  return {
    halted: trip !== null,
    trip: trip ? { ...trip } : null,
    remaining: trip ? remaining : [],
    orders,
    complete: trip !== null && remaining.length === 0,
  };
}

type Result<T> = { events: JournalEventBody[]; result: T };

/**
 * The run's first valuation, by the two-run rule: peak = max(peak, min(value, previous run's first
 * value)); a new journal starts with peak = value. Later calls in the same run change nothing.
 */
export function firstValuationEvents(
  s: State,
  r: RunRecord,
  currency: string,
  value: number,
  at: string,
): Result<{ peak: number; previous_value: number | null; first: boolean }> {
  const cur = (m: number | null) => (m === null ? null : fromMinor(m, currency));
  if (r.first_value_minor !== null) {
    return { events: [], result: { peak: cur(s.peak_minor) ?? 0, previous_value: cur(r.previous_value_minor), first: false } };
  }
  positive(value, "a valuation", true);
  const value_minor = toMinor(value, currency);
  const prev = s.last_first_minor;
  const peak = s.peak_minor === null ? value_minor : Math.max(s.peak_minor, Math.min(value_minor, prev ?? s.peak_minor));
  return {
    events: [{ t: "valuation", run_id: r.run_id, value_minor, at }],
    result: { peak: fromMinor(peak, currency), previous_value: cur(prev), first: true },
  };
}

/** Manual reset after a halt: peak and last value := value; REDUCING for `reducing_runs` runs. */
export function resetEvents(
  s: State,
  currency: string,
  args: { at: string; who: string; reason: string; value: number; reducing_runs: number },
): Result<ResetRecord> {
  const usage = (code: string, message: string) => new TwError(code, message, EXIT.USAGE_OR_CONFIG);
  if (s.trading_state !== "HALTED") throw usage("not_halted", `trading is ${s.trading_state}, not HALTED: there is nothing to reset`);
  if (!args.who.trim()) throw usage("reset_who_required", "a reset must name who made it");
  if (!args.reason.trim()) throw usage("reset_reason_required", "a reset needs a reason");
  positive(args.value, "the value at reset", true);
  const value_minor = toMinor(args.value, currency);
  const n = args.reducing_runs;
  if (!Number.isInteger(n) || n < 0) throw usage("invalid_reducing_runs", `reducing runs must be a whole number ≥ 0 (got ${n})`);
  const reset: ResetRecord = {
    at: args.at,
    who: args.who,
    reason: args.reason,
    value: fromMinor(value_minor, currency),
    new_peak: fromMinor(value_minor, currency),
    reducing_runs: n,
  };
  return { events: [{ t: "reset", reset, value_minor }], result: reset };
}
