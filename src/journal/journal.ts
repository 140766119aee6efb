/**
 * The journal: the account's books and memory. See `store.ts` for how it is written and `state.ts`
 * for how it is folded. Reads are synchronous (from memory); writes are serialised, each one a
 * single atomic commit of one or more events. Writers must hold the home lock (`acquireLock`).
 */
import { hostname } from "node:os";
import type { OrderStatus, RunMode, Side, TradingState } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";
import type { RunOutcome, Usage } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { isPidAlive } from "./lock.js";
import { migrate } from "./migrate.js";
import { Dec, fromMinor, microsToUsd, minorDigits, productToMinor, toMinor, usdToMicros } from "./money.js";
import { apply, checkpointOf, emptyState, type State } from "./state.js";
import { appendLog, corrupt, makeHeadDb, parseStrict, readLog, readText, writeFileAtomic } from "./store.js";
import { assertZone, iso, lowerBound, monthWindow, toMs } from "./time.js";
import {
  type ActivityItem,
  type ApprovalRecord,
  type FillRecord,
  type Finding,
  type Holding,
  type HeadDoc,
  type JournalEvent,
  type JournalEventBody,
  LOG_FILE,
  type LedgerEntry,
  type LiquidationStatus,
  type Note,
  type NoteKind,
  type OrderRecord,
  type ProposalRecord,
  type ResetRecord,
  type RunRecord,
  type RunStatus,
  SCHEMA_VERSION,
  type TripRecord,
} from "./types.js";
import { verifyState } from "./verify.js";

export const MAX_LIVE_NOTES = 50;
/** A run still "running" this long after it started is closed as aborted by the next run. */
export const STALE_RUN_MS = 30 * 60_000;

export interface OpenJournalOptions {
  /** IANA zone in which quota and spend months are counted. */
  timezone: string;
  /** Open without the right to write (no migration is persisted; writes throw). */
  readOnly?: boolean;
  /** fsync on every commit (default true). */
  fsync?: boolean;
  /** `limits.reducing_runs_after_reset`; default 0. */
  reducingRunsAfterReset?: number;
}

type Money = number | string;

function usage(code: string, message: string): TwError {
  return new TwError(code, message, EXIT.USAGE_OR_CONFIG);
}

function positive(n: number, what: string, allowZero = false): void {
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw usage("invalid_amount", `${what} must be a ${allowZero ? "non-negative" : "positive"} finite number (got ${String(n)})`);
  }
}

export function newHead(now: string): HeadDoc {
  return {
    format: "tradewarden-journal",
    schema_version: SCHEMA_VERSION,
    created_at: now,
    updated_at: now,
    log: { file: LOG_FILE, committed_bytes: 0, last_seq: 0 },
    checkpoint: checkpointOf(emptyState()),
  };
}

export async function openJournal(home: string, opts: OpenJournalOptions): Promise<Journal> {
  assertZone(opts.timezone);
  const paths = homePaths(home);
  const logPath = `${home}/${LOG_FILE}`;
  const durable = opts.fsync ?? true;
  const text = await readText(paths.journal);
  if (text === null) {
    const log = await readText(logPath);
    if (log !== null && log.length > 0) throw corrupt(paths.journal, `the head document is missing while ${logPath} holds events`);
    const head = newHead(new Date().toISOString());
    return new Journal(home, opts, head, [], false);
  }
  const raw = parseStrict(paths.journal, text);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw corrupt(paths.journal, "not a JSON object");
  const version = (raw as { schema_version?: unknown }).schema_version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw corrupt(paths.journal, "no schema_version: not a tradewarden journal");
  }
  if (version > SCHEMA_VERSION) {
    throw usage(
      "journal_too_new",
      `the journal ${paths.journal} has schema version ${version}, newer than this tradewarden understands (${SCHEMA_VERSION}). Upgrade tradewarden; the journal was left untouched.`,
    );
  }
  if (version < SCHEMA_VERSION) {
    const bodies = migrate(raw as Record<string, unknown>, version, paths.journal);
    const events = bodies.map((b, i) => ({ ...b, seq: i + 1 }) as JournalEvent);
    const state = fold(events);
    const head = newHead(new Date().toISOString());
    const logText = events.map((e) => JSON.stringify(e)).join("\n") + (events.length ? "\n" : "");
    head.log = { file: LOG_FILE, committed_bytes: Buffer.byteLength(logText), last_seq: events.length };
    head.checkpoint = checkpointOf(state);
    if (!opts.readOnly) {
      // keep the original, write the log, then switch the head: a crash before the switch leaves v1 in place
      await writeFileAtomic(`${paths.journal}.v${version}.bak`, text, durable);
      await writeFileAtomic(logPath, logText, durable);
      await makeHeadDb(paths.journal, head, durable).write();
    }
    return new Journal(home, opts, head, events, true, state);
  }
  const head = raw as HeadDoc;
  if (!head.log || typeof head.log.committed_bytes !== "number" || typeof head.log.last_seq !== "number") {
    throw corrupt(paths.journal, "the head has no valid commit mark");
  }
  const events = await readLog(logPath, head.log.committed_bytes, head.log.last_seq);
  return new Journal(home, opts, head, events, true);
}

function fold(events: JournalEvent[]): State {
  const s = emptyState();
  for (const e of events) apply(s, e);
  return s;
}

export class Journal {
  readonly home: string;
  readonly timezone: string;
  private readonly readOnly: boolean;
  private readonly durable: boolean;
  private readonly reducingRuns: number;
  private readonly logPath: string;
  private readonly db;
  private s: State;
  private exists: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: Error | null = null;

  constructor(home: string, opts: OpenJournalOptions, head: HeadDoc, events: JournalEvent[], exists: boolean, state?: State) {
    this.home = home;
    this.timezone = opts.timezone;
    this.readOnly = opts.readOnly ?? false;
    this.durable = opts.fsync ?? true;
    this.reducingRuns = opts.reducingRunsAfterReset ?? 0;
    this.logPath = `${home}/${LOG_FILE}`;
    this.db = makeHeadDb(homePaths(home).journal, head, this.durable);
    this.s = state ?? fold(events);
    this.exists = exists;
  }

  // ───────────────────────────── writing ─────────────────────────────

  /** Runs `fn` alone (writes are serialised), then commits the events it returns atomically. */
  private exclusive<T>(fn: () => { events: JournalEventBody[]; result: T }): Promise<T> {
    const run = this.queue.then(async () => {
      if (this.broken) throw new TwError("journal_write_failed", `an earlier journal write failed (${this.broken.message}); reopen the journal`);
      if (this.readOnly) throw new TwError("journal_read_only", "the journal was opened read-only");
      const { events, result } = fn();
      if (events.length > 0) await this.commit(events);
      return result;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async commit(bodies: JournalEventBody[]): Promise<void> {
    const head = this.db.data;
    const events = bodies.map((b, i) => ({ ...b, seq: head.log.last_seq + i + 1 }) as JournalEvent);
    const text = events.map((e) => JSON.stringify(e)).join("\n") + "\n";
    const committed = await appendLog(this.logPath, head.log.committed_bytes, text, this.durable);
    try {
      for (const e of events) apply(this.s, e);
      const now = new Date().toISOString();
      this.db.data = {
        ...head,
        updated_at: now,
        log: { file: LOG_FILE, committed_bytes: committed, last_seq: head.log.last_seq + events.length },
        checkpoint: checkpointOf(this.s),
      };
      await this.db.write();
      this.exists = true;
    } catch (e) {
      this.broken = e as Error;
      throw e;
    }
  }

  // ───────────────────────────── account and ledger ─────────────────────────────

  isInitialised(): boolean {
    return this.s.account !== null;
  }

  /** Whether the journal file exists on disk. */
  existsOnDisk(): boolean {
    return this.exists;
  }

  baseCurrency(): string {
    return this.account().currency;
  }

  private account() {
    const a = this.s.account;
    if (!a) throw usage("not_initialised", `the journal in ${this.home} is not initialised; run \`tradewarden init --capital N --currency C\``);
    return a;
  }

  init(args: { capital: Money; currency: string; at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      if (this.s.account) {
        throw usage(
          "already_initialised",
          `the journal is already initialised (${fromMinor(this.s.account.capital_minor, this.s.account.currency)} ${this.s.account.currency} on ${this.s.account.at}); add money with \`tradewarden deposit N\``,
        );
      }
      const currency = args.currency.toUpperCase();
      const capital_minor = toMinor(args.capital, currency);
      if (capital_minor <= 0) throw usage("invalid_amount", `capital must be positive (got ${String(args.capital)})`);
      return { events: [{ t: "init", currency, capital_minor, at: iso(args.at) }], result: undefined };
    });
  }

  /** Adds money (append-only; there are no withdrawals). Returns the ledger entry. */
  deposit(args: { amount: Money; at: Date | string; note?: string }): Promise<LedgerEntry> {
    return this.exclusive(() => {
      const { currency } = this.account();
      const amount_minor = toMinor(args.amount, currency);
      if (amount_minor <= 0) throw usage("invalid_amount", `a deposit must be positive (got ${String(args.amount)})`);
      const ev: JournalEventBody = { t: "deposit", amount_minor, at: iso(args.at), ...(args.note ? { note: args.note } : {}) };
      return { events: [ev], result: { seq: this.s.ledger.length + 1, kind: "deposit" as const, amount_minor, at: ev.at, ...(args.note ? { note: args.note } : {}) } };
    });
  }

  /** Cash: the sum of the ledger, in base-currency major units. */
  cash(): number {
    if (!this.s.account) return 0;
    return fromMinor(this.s.cash_minor, this.s.account.currency);
  }

  cashMinor(): number {
    return this.s.cash_minor;
  }

  ledger(): LedgerEntry[] {
    return this.s.ledger.map((e) => ({ ...e }));
  }

  holdings(): Record<string, Holding> {
    const cur = this.s.account?.currency ?? "USD";
    const scale = new Dec(10).pow(minorDigits(cur));
    const out: Record<string, Holding> = {};
    for (const [sym, h] of this.s.holdings) {
      out[sym] = {
        quantity: h.qty.toNumber(),
        avg_cost: h.qty.gt(0) ? h.basis.div(h.qty).div(scale).toNumber() : 0,
        cost_basis: h.basis.toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).div(scale).toNumber(),
        currency: h.currency,
      };
    }
    return out;
  }

  // ───────────────────────────── runs ─────────────────────────────

  /** Starts a run. Runs left "running" by a process that is gone (or for 30 minutes) are closed as aborted first. */
  startRun(args: {
    run_id: string;
    mode: RunMode;
    trading_day: string;
    at: Date | string;
    model: { provider: string; id: string };
    broker: { kind: string; account_id?: string; endpoint?: string };
  }): Promise<{ aborted: string[] }> {
    return this.exclusive(() => {
      this.account();
      if (!args.run_id) throw usage("invalid_run_id", "a run needs an id");
      if (this.s.runs.has(args.run_id)) throw usage("duplicate_run", `run ${args.run_id} already exists in the journal`);
      const at = iso(args.at);
      const nowMs = Date.now();
      const host = hostname();
      const events: JournalEventBody[] = [];
      const aborted: string[] = [];
      for (const id of this.runningIds()) {
        const r = this.s.runs.get(id) as RunRecord;
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
        first_value_minor: null,
        previous_value_minor: null,
        peak_after_minor: null,
        cost_micros: 0,
        notes: [],
      };
      events.push({ t: "run_start", run });
      return { events, result: { aborted } };
    });
  }

  private runningIds(): string[] {
    // only the tail can be running in practice, but a full pass is cheap and exact
    return this.s.runIds.filter((id) => this.s.runs.get(id)?.status === "running");
  }

  finishRun(run_id: string, args: { status: Exclude<RunStatus, "running">; outcome: RunOutcome; exit_code: number; message: string; at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      const r = this.requireRun(run_id);
      if (r.status !== "running") throw usage("run_finished", `run ${run_id} already finished (${r.status})`);
      return {
        events: [{ t: "run_finish", run_id, status: args.status, outcome: args.outcome, exit_code: args.exit_code, message: args.message, at: iso(args.at) }],
        result: undefined,
      };
    });
  }

  runs(): RunRecord[] {
    return this.s.runIds.map((id) => this.view(this.s.runs.get(id) as RunRecord));
  }

  run(id: string): RunRecord | undefined {
    const r = this.s.runs.get(id);
    return r ? this.view(r) : undefined;
  }

  private view(r: RunRecord): RunRecord {
    return { ...r, notes: [...r.notes] };
  }

  private requireRun(id: string): RunRecord {
    const r = this.s.runs.get(id);
    if (!r) throw new TwError("unknown_run", `run ${id} is not in the journal`);
    return r;
  }

  // ───────────────────────────── peak and trading state ─────────────────────────────

  /**
   * The run's first valuation, by the two-run rule: peak = max(peak, min(value, previous run's first
   * value)); a new journal starts with peak = value. Later calls in the same run change nothing.
   */
  observeFirstValuation(run_id: string, value: number, at: Date | string): Promise<{ peak: number; previous_value: number | null; first: boolean }> {
    return this.exclusive<{ peak: number; previous_value: number | null; first: boolean }>(() => {
      const { currency } = this.account();
      const r = this.requireRun(run_id);
      const cur = (m: number | null) => (m === null ? null : fromMinor(m, currency));
      if (r.first_value_minor !== null) {
        return { events: [], result: { peak: cur(this.s.peak_minor) ?? 0, previous_value: cur(r.previous_value_minor), first: false } };
      }
      positive(value, "a valuation", true);
      const value_minor = toMinor(value, currency);
      const prev = this.s.last_first_minor;
      const peak = this.s.peak_minor === null ? value_minor : Math.max(this.s.peak_minor, Math.min(value_minor, prev ?? this.s.peak_minor));
      return {
        events: [{ t: "valuation", run_id, value_minor, at: iso(at) }],
        result: { peak: fromMinor(peak, currency), previous_value: cur(prev), first: true },
      };
    });
  }

  peak(): number | null {
    return this.s.peak_minor === null || !this.s.account ? null : fromMinor(this.s.peak_minor, this.s.account.currency);
  }

  /** The previous run's first valuation (the other half of the two-run rule). */
  lastFirstValuation(): number | null {
    return this.s.last_first_minor === null || !this.s.account ? null : fromMinor(this.s.last_first_minor, this.s.account.currency);
  }

  tradingState(): TradingState {
    return this.s.trading_state;
  }

  reducingRunsLeft(): number {
    return this.s.reducing_runs_left;
  }

  /** Halts trading. Tripping while already halted changes nothing and returns the standing trip. */
  trip(args: { run_id: string; at: Date | string; value: number; peak: number; drawdown_pct: number; reason: string }): Promise<TripRecord> {
    return this.exclusive(() => {
      const current = this.s.trips.at(-1);
      if (this.s.trading_state === "HALTED" && current) return { events: [], result: { ...current } };
      const trip: TripRecord = { run_id: args.run_id, at: iso(args.at), value: args.value, peak: args.peak, drawdown_pct: args.drawdown_pct, reason: args.reason };
      return { events: [{ t: "trip", trip }], result: trip };
    });
  }

  /** Manual reset after a halt: peak and last value := value; REDUCING for the configured number of runs. */
  reset(args: { at: Date | string; who: string; reason: string; value: number; reducing_runs?: number }): Promise<ResetRecord> {
    return this.exclusive(() => {
      const { currency } = this.account();
      if (this.s.trading_state !== "HALTED") throw usage("not_halted", `trading is ${this.s.trading_state}, not HALTED: there is nothing to reset`);
      if (!args.who.trim()) throw usage("reset_who_required", "a reset must name who made it");
      if (!args.reason.trim()) throw usage("reset_reason_required", "a reset needs a reason");
      positive(args.value, "the value at reset", true);
      const value_minor = toMinor(args.value, currency);
      const n = args.reducing_runs ?? this.reducingRuns;
      if (!Number.isInteger(n) || n < 0) throw usage("invalid_reducing_runs", `reducing runs must be a whole number ≥ 0 (got ${n})`);
      const reset: ResetRecord = { at: iso(args.at), who: args.who, reason: args.reason, value: fromMinor(value_minor, currency), new_peak: fromMinor(value_minor, currency), reducing_runs: n };
      return { events: [{ t: "reset", reset, value_minor }], result: reset };
    });
  }

  tripHistory(): TripRecord[] {
    return this.s.trips.map((t) => ({ ...t }));
  }

  resetHistory(): ResetRecord[] {
    return this.s.resets.map((r) => ({ ...r }));
  }

  /** What the kill switch still has to sell: holdings left since the standing trip, and its orders. */
  liquidationStatus(): LiquidationStatus {
    const trip = this.s.trading_state === "HALTED" ? (this.s.trips.at(-1) ?? null) : null;
    const remaining = [...this.s.holdings].filter(([, h]) => h.qty.gt(0)).map(([symbol, h]) => ({ symbol, quantity: h.qty.toNumber() }));
    const orders: LiquidationStatus["orders"] = [];
    if (trip) {
      const since = toMs(trip.at);
      for (const o of this.s.orders.values()) {
        if (o.liquidation && toMs(o.created_at) >= since) {
          orders.push({ client_order_id: o.client_order_id, symbol: o.symbol, quantity: o.quantity, status: o.status, filled_quantity: this.bookedQty(o.client_order_id) });
        }
      }
    }
    return { halted: trip !== null, trip: trip ? { ...trip } : null, remaining: trip ? remaining : [], orders, complete: trip !== null && remaining.length === 0 };
  }

  // ───────────────────────────── quota and spend ─────────────────────────────

  /** Orders counted toward the quota in the calendar month (journal time zone) containing `at`. */
  ordersThisMonth(at: Date): number {
    const w = monthWindow(at, this.timezone);
    return lowerBound(this.s.countedMs, w.end) - lowerBound(this.s.countedMs, w.start);
  }

  recordUsage(run_id: string, args: { model: string; usage: Usage; cost_usd: number; at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      this.requireRun(run_id);
      positive(args.cost_usd, "cost_usd", true);
      return { events: [{ t: "usage", record: { run_id, model: args.model, usage: args.usage, cost_micros: usdToMicros(args.cost_usd), at: iso(args.at) } }], result: undefined };
    });
  }

  /** LLM spend (USD) in the calendar month containing `at`. */
  spendThisMonth(at: Date): number {
    const w = monthWindow(at, this.timezone);
    let micros = 0;
    for (let i = this.s.usage.length - 1; i >= 0; i--) {
      const u = this.s.usage[i] as (typeof this.s.usage)[number];
      const ms = toMs(u.at);
      if (ms >= w.start && ms < w.end) micros += u.cost_micros;
    }
    return microsToUsd(micros);
  }

  runCostUsd(run_id: string): number {
    return microsToUsd(this.s.runs.get(run_id)?.cost_micros ?? 0);
  }

  // ───────────────────────────── proposals ─────────────────────────────

  recordProposal(run_id: string, args: { orders: ProposalRecord["orders"]; summary: string; decisions: GateDecision[]; at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      this.requireRun(run_id);
      return { events: [{ t: "proposal", record: { run_id, orders: args.orders, summary: args.summary, decisions: args.decisions, at: iso(args.at) } }], result: undefined };
    });
  }

  recordApproval(
    run_id: string,
    args: { decision: ApprovalRecord["decision"]; by: string; orders_hash: string; reason?: string; orders?: ApprovalRecord["orders"]; at: Date | string },
  ): Promise<void> {
    return this.exclusive(() => {
      this.requireRun(run_id);
      const record: ApprovalRecord = { run_id, decision: args.decision, by: args.by, orders_hash: args.orders_hash, at: iso(args.at) };
      if (args.reason !== undefined) record.reason = args.reason;
      if (args.orders !== undefined) record.orders = args.orders;
      return { events: [{ t: "approval", record }], result: undefined };
    });
  }

  recordFinalGate(run_id: string, decisions: GateDecision[], at: Date | string = new Date()): Promise<void> {
    return this.exclusive(() => {
      this.requireRun(run_id);
      return { events: [{ t: "final_gate", run_id, decisions, at: iso(at) }], result: undefined };
    });
  }

  proposals(run_id: string): ProposalRecord[] {
    return [...(this.s.proposals.get(run_id) ?? [])];
  }

  approvals(run_id: string): ApprovalRecord[] {
    return [...(this.s.approvals.get(run_id) ?? [])];
  }

  finalGate(run_id: string): GateDecision[] | undefined {
    return this.s.finalGates.get(run_id);
  }

  // ───────────────────────────── executor port ─────────────────────────────

  /** Written BEFORE the order is sent. `liquidation` orders (kill switch) are outside the quota. */
  recordOrderIntent(args: {
    run_id: string;
    client_order_id: string;
    index: number;
    symbol: string;
    side: Side;
    quantity: number;
    limit_price: number;
    at: Date | string;
    currency?: string;
    liquidation?: boolean;
  }): Promise<void> {
    return this.exclusive(() => {
      const { currency } = this.account();
      this.requireRun(args.run_id);
      if (this.s.orders.has(args.client_order_id)) throw usage("duplicate_order", `client order id ${args.client_order_id} is already in the journal`);
      if (args.side !== "BUY" && args.side !== "SELL") throw usage("invalid_side", `side must be BUY or SELL (got ${String(args.side)})`);
      positive(args.quantity, "quantity");
      positive(args.limit_price, "limit_price");
      const at = iso(args.at);
      const order: OrderRecord = {
        run_id: args.run_id,
        client_order_id: args.client_order_id,
        index: args.index,
        symbol: args.symbol,
        side: args.side,
        quantity: args.quantity,
        limit_price: args.limit_price,
        liquidation: args.liquidation ?? false,
        currency: (args.currency ?? currency).toUpperCase(),
        broker_order_id: null,
        status: "intent",
        filled_quantity: 0,
        history: [{ status: "intent", at }],
        created_at: at,
        counted_at: null,
      };
      return { events: [{ t: "order_intent", order }], result: undefined };
    });
  }

  /** Appends a status to the order's history (a repeat of the current state is not written again). */
  recordOrderUpdate(client_order_id: string, args: { status: OrderStatus; broker_order_id?: string; filled_quantity?: number; message?: string; at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      const o = this.s.orders.get(client_order_id);
      if (!o) throw new TwError("unknown_order", `order ${client_order_id} is not in the journal (record the intent before sending)`);
      const last = o.history.at(-1);
      const entry = { status: args.status, at: iso(args.at), ...pick(args) };
      const repeat =
        last !== undefined &&
        last.status === args.status &&
        (args.broker_order_id === undefined || args.broker_order_id === o.broker_order_id) &&
        (args.filled_quantity === undefined || args.filled_quantity === o.filled_quantity) &&
        (args.message === undefined || args.message === last.message);
      if (repeat) return { events: [], result: undefined };
      return { events: [{ t: "order_update", client_order_id, entry }], result: undefined };
    });
  }

  /**
   * Books one real fill: idempotent by fill_id (the same fill again is a no-op; a different fill under
   * the same id is refused). Price is in the instrument currency, commission in the base currency.
   * Returns nothing (the executor's `ExecutorJournal` port); read back with `fills()` / `order()`.
   */
  bookFill(
    client_order_id: string,
    args: { fill_id: string; symbol: string; side: Side; quantity: number; price: number; commission: number; fx_to_base: number; at: Date | string },
  ): Promise<void> {
    return this.exclusive(() => {
      const { currency } = this.account();
      const o = this.s.orders.get(client_order_id);
      if (!o) throw new TwError("unknown_order", `fill ${args.fill_id} names order ${client_order_id}, which is not in the journal`);
      if (o.symbol !== args.symbol || o.side !== args.side) {
        throw new TwError("fill_mismatch", `fill ${args.fill_id} is ${args.side} ${args.symbol} but order ${client_order_id} is ${o.side} ${o.symbol}`);
      }
      positive(args.quantity, "fill quantity");
      positive(args.price, "fill price");
      positive(args.commission, "commission", true);
      positive(args.fx_to_base, "fx_to_base");
      const fill: FillRecord = {
        fill_id: args.fill_id,
        client_order_id,
        run_id: o.run_id,
        symbol: args.symbol,
        side: args.side,
        quantity: args.quantity,
        price: args.price,
        fx_to_base: args.fx_to_base,
        gross_minor: productToMinor(args.quantity, args.price, args.fx_to_base, currency),
        commission_minor: toMinor(args.commission, currency),
        at: iso(args.at),
        ledger: true,
      };
      const existing = this.s.fills.get(args.fill_id);
      if (existing) {
        const same = (["client_order_id", "symbol", "side", "quantity", "price", "fx_to_base", "gross_minor", "commission_minor"] as const).every(
          (k) => existing[k] === fill[k],
        );
        if (!same) throw new TwError("fill_conflict", `fill ${args.fill_id} is already booked with different details`);
        return { events: [], result: undefined };
      }
      return { events: [{ t: "fill", fill }], result: undefined };
    });
  }

  order(client_order_id: string): OrderRecord | undefined {
    const o = this.s.orders.get(client_order_id);
    return o ? { ...o, history: [...o.history] } : undefined;
  }

  orders(run_id?: string): OrderRecord[] {
    const ids = run_id ? (this.s.ordersByRun.get(run_id) ?? []) : [...this.s.orders.keys()];
    return ids.map((id) => this.order(id) as OrderRecord);
  }

  fills(run_id?: string): FillRecord[] {
    return this.s.fillList.filter((f) => run_id === undefined || f.run_id === run_id).map((f) => ({ ...f }));
  }

  /** Orders not yet in a terminal state (the executor resolves them; reconciliation uses their ids). */
  openOrders(): OrderRecord[] {
    return [...this.s.orders.values()].filter((o) => !["filled", "cancelled", "expired", "rejected"].includes(o.status)).map((o) => ({ ...o }));
  }

  knownClientOrderIds(): Set<string> {
    return new Set(this.s.orders.keys());
  }

  private bookedQty(id: string): number {
    return this.s.booked.get(id)?.toNumber() ?? 0;
  }

  // ───────────────────────────── recent activity ─────────────────────────────

  /** The last `n` orders of paper-mode runs (newest run first) and what became of each. */
  recentActivity(n = 10): ActivityItem[] {
    const out: ActivityItem[] = [];
    for (let i = this.s.runIds.length - 1; i >= 0 && out.length < n; i--) {
      const r = this.s.runs.get(this.s.runIds[i] as string) as RunRecord;
      if (r.mode !== "paper") continue;
      out.push(...this.runActivity(r).slice(0, n - out.length));
    }
    return out;
  }

  private runActivity(r: RunRecord): ActivityItem[] {
    const items: ActivityItem[] = [];
    const orders = (this.s.ordersByRun.get(r.run_id) ?? []).map((id) => this.s.orders.get(id) as OrderRecord);
    const used = new Set<string>();
    const proposal = this.s.proposals.get(r.run_id)?.at(-1);
    const finalGate = this.s.finalGates.get(r.run_id);
    const approval = this.s.approvals.get(r.run_id)?.at(-1);
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
          items.push(this.orderActivity(r, match));
          return;
        }
        const d = proposal.decisions.find((x) => x.order.symbol === po.symbol && x.order.side === po.side) ?? proposal.decisions[idx];
        const fd = finalGate?.find((x) => x.order.symbol === po.symbol && x.order.side === po.side);
        const it = base(po.symbol, po.side, po.quantity, po.limit_price, proposal.at);
        const blocked = d && !d.approved ? d : fd && !fd.approved ? fd : undefined;
        if (blocked) {
          const reasons = blocked.reasons.map((x) => ({ code: x.code, message: x.message }));
          const stage = blocked === d ? "the risk gate" : "the final gate";
          items.push({ ...it, outcome: "blocked", reasons, counted: false, detail: `blocked by ${stage}: ${reasons.map((x) => x.message).join("; ") || "no reason given"}` });
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
    for (const o of orders) if (!used.has(o.client_order_id)) items.push(this.orderActivity(r, o));
    return items;
  }

  private orderActivity(r: RunRecord, o: OrderRecord): ActivityItem {
    const fills = this.s.fillList.filter((f) => f.client_order_id === o.client_order_id);
    const filled = fills.reduce((a, f) => a.add(f.quantity), new Dec(0));
    const filledQty = Math.max(filled.toNumber(), o.filled_quantity);
    const avg = filled.gt(0) ? fills.reduce((a, f) => a.add(new Dec(f.quantity).mul(f.price)), new Dec(0)).div(filled).toDecimalPlaces(6).toNumber() : undefined;
    const terminal = ["filled", "cancelled", "expired", "rejected"].includes(o.status);
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
      detail = `not filled (${o.status}); counted toward the monthly quota`;
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
      detail: o.liquidation ? `kill-switch liquidation: ${detail}` : detail,
      client_order_id: o.client_order_id,
      filled_quantity: filledQty,
      counted: o.counted_at !== null,
    };
    if (avg !== undefined) item.avg_fill_price = avg;
    if (o.liquidation) item.liquidation = true;
    return item;
  }

  // ───────────────────────────── memory notes ─────────────────────────────

  remember(args: { kind: NoteKind; text: string; symbol?: string; supersedes?: string; run_id: string; at: Date | string }): Promise<Note> {
    return this.exclusive(() => {
      const text = args.text.trim();
      if (!text) throw usage("invalid_note", "a note needs text");
      if (args.supersedes !== undefined) {
        const old = this.s.notes.get(args.supersedes);
        if (!old) throw new TwError("note_not_found", `note ${args.supersedes} does not exist`);
        if (old.status !== "live") throw new TwError("note_not_found", `note ${args.supersedes} was already superseded by ${old.superseded_by ?? "another note"}`);
      } else if (this.s.liveNotes >= MAX_LIVE_NOTES) {
        throw new TwError("memory_full", `memory holds ${MAX_LIVE_NOTES} live notes; supersede one instead of adding another`);
      }
      const note: Note = { id: `n-${this.s.note_seq + 1}`, kind: args.kind, text, status: "live", run_id: args.run_id, created_at: iso(args.at) };
      if (args.symbol) note.symbol = args.symbol.toUpperCase();
      if (args.supersedes) note.supersedes = args.supersedes;
      return { events: [{ t: "note", note }], result: { ...note } };
    });
  }

  /** Live notes, newest first, filtered by kind, symbol and words of `query` (all must appear). */
  recall(args: { kind?: NoteKind; symbol?: string; query?: string; limit?: number } = {}): { notes: Note[]; total: number } {
    const words = (args.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const sym = args.symbol?.toUpperCase();
    const hits = [...this.s.notes.values()]
      .filter((n) => n.status === "live")
      .filter((n) => !args.kind || n.kind === args.kind)
      .filter((n) => !sym || n.symbol === sym)
      .filter((n) => words.every((w) => n.text.toLowerCase().includes(w) || (n.symbol ?? "").toLowerCase() === w))
      .reverse();
    const limit = Math.max(0, args.limit ?? 20);
    return { notes: hits.slice(0, limit).map((n) => ({ ...n })), total: hits.length };
  }

  note(id: string): Note | undefined {
    const n = this.s.notes.get(id);
    return n ? { ...n } : undefined;
  }

  // ───────────────────────────── verification ─────────────────────────────

  /** Recomputes cash and holdings from the ledger and the fills and checks every reference. */
  verify(): Finding[] {
    return verifyState(this.s, this.db.data.checkpoint, MAX_LIVE_NOTES);
  }
}

function pick(args: { broker_order_id?: string; filled_quantity?: number; message?: string }) {
  const o: { broker_order_id?: string; filled_quantity?: number; message?: string } = {};
  if (args.broker_order_id !== undefined) o.broker_order_id = args.broker_order_id;
  if (args.filled_quantity !== undefined) o.filled_quantity = args.filled_quantity;
  if (args.message !== undefined) o.message = args.message;
  return o;
}
