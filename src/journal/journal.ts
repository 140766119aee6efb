
import type { TradingState } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";
import type { RunOutcome, Usage } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import { fold, loadJournalFiles } from "./load.js";
import { firstValuationEvents, liquidationStatus, resetEvents, STALE_RUN_MS, type StartRunArgs, startRunEvents } from "./runs.js";
import { exactMinor, fromMinor, microsToUsd, usdToMicros } from "../core/money.js";
import { apply, checkpointOf, type State } from "./state.js";
import { appendLog, makeHeadDb, } from "./store.js";
import { assertZone, iso, lowerBound, monthWindow, } from "./time.js";
import {
  type ActivityItem,
  type AdjustmentRecord,
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
  type TripRecord,
} from "./types.js";
import { verifyState } from "./verify.js";
import { holdingsView, lastCompletedTradingDay, spendInMonth, tradingCashFlowMinor } from "./views.js";
import { type ActivityOptions, recentActivity } from "./activity.js";
import { MAX_LIVE_NOTES, noteEvent, type RecallQuery, recallNotes } from "./notes.js";
import { type FillArgs, fillEvents, type IntentArgs, intentEvent, positive, type UpdateArgs, updateEvents } from "./orders.js";
import { redactValue } from "../core/redact.js";
import { faultPoint } from "../util/test-fault.js";
import type { ReconcileDifference } from "../core/events.js";
import { adoptionEvents } from "./adjust.js";
import { bookedQuantity, unsettledOrders } from "./settled.js";

export { MAX_LIVE_NOTES };
import type { WatchEvent, WatchState } from "./watchlist.js";
import type { StandingEvent, StandingState } from "./standing-orders.js";

export { STALE_RUN_MS };

export interface OpenJournalOptions {
  /** IANA zone in which quota and spend months are counted. */
  timezone: string;
  /** Open without the right to write (no migration is persisted; writes throw). */
  readOnly?: boolean;
  /** fsync on every commit (default true). */
  fsync?: boolean;
  /** `limits.reducing_runs_after_reset`; default 0. */
  reducingRunsAfterReset?: number;
  /**
   * Write the head (the commit mark) only on `flush()`, not after every commit (default false).
   * For a simulation's own journal: events are still appended at once, but a crash rolls back to
   * the last flush (the end of the last simulated day), never to a mix. Saves a file replacement
   * per commit.
   */
  headOnFlush?: boolean;
}

type Money = number | string;

function usage(code: string, message: string): TwError {
  return new TwError(code, message, EXIT.USAGE_OR_CONFIG);
}

export async function openJournal(home: string, opts: OpenJournalOptions): Promise<Journal> {
  assertZone(opts.timezone);
  const { head, events, exists, state } = await loadJournalFiles(home, opts);
  return new Journal(home, opts, head, events, exists, state);
}

export class Journal {
  readonly home: string;
  readonly timezone: string;
  private readonly readOnly: boolean;
  private readonly durable: boolean;
  private readonly reducingRuns: number;
  private readonly headOnFlush: boolean;
  private headDirty = false;
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
    this.headOnFlush = opts.headOnFlush ?? false;
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
    // Every text that reaches the append-only log passes the redactor first (an error message may carry an echoed key).
    const events = bodies.map((b, i) => ({ ...redactValue(b), seq: head.log.last_seq + i + 1 }) as JournalEvent);
    const text = events.map((e) => JSON.stringify(e)).join("\n") + "\n";
    for (const b of bodies) faultPoint(`journal.append:${b.t}`);
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
      if (this.headOnFlush) this.headDirty = true;
      else await this.db.write();
      this.exists = true;
    } catch (e) {
      this.broken = e as Error;
      throw e;
    }
  }

  /** Writes the head when commits since the last flush left it behind (`headOnFlush`). */
  flush(): Promise<void> {
    const run = this.queue.then(async () => {
      if (!this.headDirty) return;
      try {
        await this.db.write();
        this.headDirty = false;
      } catch (e) {
        this.broken = e as Error;
        throw e;
      }
    });
    this.queue = run.catch(() => {});
    return run;
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
      const capital_minor = exactMinor(args.capital, currency, "the capital");
      if (capital_minor <= 0) throw usage("invalid_amount", `capital must be positive (got ${String(args.capital)})`);
      return { events: [{ t: "init", currency, capital_minor, at: iso(args.at) }], result: undefined };
    });
  }

  /** Adds money (append-only; there are no withdrawals). Returns the ledger entry. */
  deposit(args: { amount: Money; at: Date | string; note?: string }): Promise<LedgerEntry> {
    return this.exclusive(() => {
      const { currency } = this.account();
      const amount_minor = exactMinor(args.amount, currency, "a deposit");
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
    return holdingsView(this.s);
  }

  // ───────────────────────────── runs ─────────────────────────────

  /** Starts a run. Runs left "running" by a process that is gone (or for 30 minutes) are closed as aborted first. */
  startRun(args: StartRunArgs & { at: Date | string }): Promise<{ aborted: string[] }> {
    return this.exclusive(() => {
      this.account();
      return startRunEvents(this.s, { ...args, at: iso(args.at) });
    });
  }

  /** `could_trade`: the run reached the point where it could have placed orders (only such runs count down REDUCING). */
  finishRun(
    run_id: string,
    args: { status: Exclude<RunStatus, "running">; outcome: RunOutcome; exit_code: number; message: string; at: Date | string; could_trade?: boolean },
  ): Promise<void> {
    return this.exclusive(() => {
      const r = this.requireRun(run_id);
      if (r.status !== "running") throw usage("run_finished", `run ${run_id} already finished (${r.status})`);
      const could = args.could_trade === undefined ? {} : { could_trade: args.could_trade };
      return {
        events: [{ t: "run_finish", run_id, status: args.status, outcome: args.outcome, exit_code: args.exit_code, message: args.message, at: iso(args.at), ...could }],
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
      return firstValuationEvents(this.s, r, currency, value, iso(at));
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
      return resetEvents(this.s, currency, { ...args, at: iso(args.at), reducing_runs: args.reducing_runs ?? this.reducingRuns });
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
    return liquidationStatus(this.s);
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
    return spendInMonth(this.s, monthWindow(at, this.timezone));
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

  /** The final gate's verdicts and the hash of the orders handed to the executor (computed by the pipeline). */
  recordFinalGate(run_id: string, decisions: GateDecision[], at: Date | string = new Date(), orders_hash?: string): Promise<void> {
    return this.exclusive(() => {
      this.requireRun(run_id);
      return { events: [{ t: "final_gate", run_id, decisions, at: iso(at), ...(orders_hash ? { orders_hash } : {}) }], result: undefined };
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

  // ───────────────────────────── executor port (orders.ts) ─────────────────────────────

  /** Written BEFORE the order is sent. `liquidation` orders (kill switch) are outside the quota. */
  recordOrderIntent(args: Omit<IntentArgs, "at"> & { at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      const { currency } = this.account();
      this.requireRun(args.run_id);
      return { events: [intentEvent(this.s, currency, { ...args, at: iso(args.at) })], result: undefined };
    });
  }

  /** Appends a status to the order's history (a repeat of the current state is not written again). */
  recordOrderUpdate(client_order_id: string, args: Omit<UpdateArgs, "at"> & { at: Date | string }): Promise<void> {
    return this.exclusive(() => ({ events: updateEvents(this.s, client_order_id, { ...args, at: iso(args.at) }), result: undefined }));
  }

  /**
   * Books one real fill: idempotent by fill_id (the same fill again is a no-op; a different fill under
   * the same id is refused). Price is in the instrument currency; the commission in the currency the
   * broker names (the instrument's or the base); both are booked in the base currency at the order's rate.
   */
  bookFill(client_order_id: string, args: Omit<FillArgs, "at"> & { at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      const { currency } = this.account();
      return { events: fillEvents(this.s, currency, client_order_id, { ...args, at: iso(args.at) }), result: undefined };
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

  /** Cash moved by fills, commissions and operator adjustments since the account opened (base minor units): reconciled with a broker that keeps the account's own book. */
  tradingCashFlowMinor(): number {
    return tradingCashFlowMinor(this.s);
  }

  /** Orders whose outcome is not final (recovery looks each up at the broker by its client order id). */
  unsettledOrders(): OrderRecord[] {
    return unsettledOrders(this.s);
  }

  /** Fill quantity booked for an order. */
  bookedQuantity(client_order_id: string): number {
    return bookedQuantity(this.s, client_order_id);
  }

  /** The latest trading day of a completed run that valued the account (null: none yet). */
  lastCompletedTradingDay(): { run_id: string; trading_day: string } | null {
    return lastCompletedTradingDay(this.s);
  }

  // ───────────────────────────── recent activity (activity.ts) ─────────────────────────────

  /** The last `n` orders of paper-mode runs (newest run first) and what became of each; `before`: runs of earlier trading days only. */
  recentActivity(n = 10, opts: ActivityOptions = {}): ActivityItem[] {
    return recentActivity(this.s, n, opts);
  }

  // ───────────────────────────── operator adjustments (adjust.ts) ─────────────────────────────

  /** Adopts the broker's side of the adoptable differences, as append-only adjustments (one commit). */
  recordAdjustments(args: { differences: readonly ReconcileDifference[]; reason: string; by: string; at: Date | string }): Promise<AdjustmentRecord[]> {
    return this.exclusive(() => {
      const { currency } = this.account();
      if (!args.reason.trim()) throw usage("reason_required", "adopting the broker's side needs a reason");
      const events = adoptionEvents({ differences: args.differences, reason: args.reason, by: args.by, at: iso(args.at), currency, existing: this.s.adjustments.length });
      return { events, result: events.flatMap((e) => (e.t === "adjustment" ? [e.adjustment] : [])) };
    });
  }

  adjustments(): AdjustmentRecord[] {
    return this.s.adjustments.map((a) => ({ ...a }));
  }

  // ───────────────────────────── memory notes (notes.ts) ─────────────────────────────

  remember(args: { kind: NoteKind; text: string; symbol?: string; supersedes?: string; run_id: string; at: Date | string }): Promise<Note> {
    return this.exclusive(() => {
      const { event, note } = noteEvent(this.s, { ...args, at: iso(args.at) });
      return { events: [event], result: { ...note } };
    });
  }

  /** Live notes, newest first, filtered by kind, symbol and words of `query`; `asOf` hides notes from later trading days. */
  recall(args: RecallQuery = {}): { notes: Note[]; total: number } {
    return recallNotes(this.s, args);
  }

  note(id: string): Note | undefined {
    const n = this.s.notes.get(id);
    return n ? { ...n } : undefined;
  }

  // ──────────────── watchlist (the collection and its rules live in watchlist.ts) ────────────────

  watchState(): Readonly<WatchState> {
    return this.s.watchlist;
  }

  /** Commits the watch events `build` derives from the current watchlist (atomically, serialised). */
  commitWatch<T>(build: (s: Readonly<WatchState>) => { events: WatchEvent[]; result: T }): Promise<T> {
    return this.exclusive(() => {
      const { events, result } = build(this.s.watchlist);
      return { events: events.map((record) => ({ t: "watch" as const, record })), result };
    });
  }

  // ──────────── standing orders (the collection and its rules live in standing-orders.ts) ────────────

  standingState(): Readonly<StandingState> {
    return this.s.standing;
  }

  /** Commits the standing-order events `build` derives from the current collection (atomically, serialised). */
  commitStanding<T>(build: (s: Readonly<StandingState>) => { events: StandingEvent[]; result: T }): Promise<T> {
    return this.exclusive(() => {
      const { events, result } = build(this.s.standing);
      return { events: events.map((record) => ({ t: "standing" as const, record })), result };
    });
  }

  // ───────────────────────────── verification ─────────────────────────────

  /** Recomputes cash and holdings from the ledger and the fills and checks every reference. */
  verify(): Finding[] {
    return verifyState(this.s, this.db.data.checkpoint, MAX_LIVE_NOTES);
  }
}
