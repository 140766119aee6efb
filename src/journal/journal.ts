/**
 * The journal: an append-only event log and its head (commit mark), folded into state. Reads live
 * in journal-reads.ts; the events each write commits are built by the modules named per section.
 */
import type { GateDecision } from "../core/gate-types.js";
import type { FundedBuyRecord, ReconcileDifference, RunOutcome, Usage } from "../core/events.js";
import { TwError } from "../core/errors.js";
import { usdToMicros } from "../core/money.js";
import { redactValue } from "../core/redact.js";
import { homePaths } from "../util/paths.js";
import { faultPoint } from "../util/test-fault.js";
import { type AmountInput, depositEvents, initEvents, usage } from "./account.js";
import { adoptionEvents } from "./adjust.js";
import { JournalReads } from "./journal-reads.js";
import { fold, loadJournalFiles } from "./load.js";
import { MAX_LIVE_NOTES, noteEvent } from "./notes.js";
import { type FillArgs, fillEvents, type IntentArgs, intentEvent, positive, type UpdateArgs, updateEvents } from "./orders.js";
import { firstValuationEvents, resetEvents, type StartRunArgs, startRunEvents } from "./runs.js";
import type { StandingEvent, StandingState } from "./standing-orders.js";
import { apply, type State } from "./state.js";
import { checkpointOf } from "./checkpoint.js";
import { LogAppender, makeHeadDb } from "./store.js";
import { CHAIN_ORIGIN, chainEvents } from "./chain.js";
import type { OpenJournalOptions } from "./open-options.js";
import { assertZone, iso } from "./time.js";
import {
  type AdjustmentRecord,
  type ApprovalRecord,
  type Finding,
  type HeadDoc,
  type JournalEvent,
  type JournalEventBody,
  LOG_FILE,
  type LedgerEntry,
  type Note,
  type NoteKind,
  type ProposalRecord,
  type ResetRecord,
  type RunStatus,
  type TripRecord,
} from "./types.js";
import { simBrokerFindings, verifyState } from "./verify.js";
import type { WatchEvent, WatchState } from "./watchlist.js";

export async function openJournal(home: string, opts: OpenJournalOptions): Promise<Journal> {
  assertZone(opts.timezone);
  const { head, events, exists, state, chainIssue } = await loadJournalFiles(home, opts);
  const journal = new Journal(home, opts, head, events, exists, state);
  journal.chainIssue = chainIssue ?? null;
  return journal;
}

/** The journal: the reads (journal-reads.ts) plus serialised, atomic writes of the events the modules build. */
export class Journal extends JournalReads {
  private readonly readOnly: boolean;
  /** Commits are fsynced (false for a simulation's throwaway journal): the run's artifacts follow it. */
  readonly durable: boolean;
  private readonly reducingRuns: number;
  private readonly headOnFlush: boolean;
  private headDirty = false;
  private readonly logPath: string;
  private readonly log: LogAppender;
  private readonly db;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: Error | null = null;
  /** The first break of the log's hash chain found on a read-only open (reported by `verify`). */
  chainIssue: string | null = null;

  constructor(home: string, opts: OpenJournalOptions, head: HeadDoc, events: JournalEvent[], exists: boolean, state?: State) {
    super(home, opts.timezone, state ?? fold(events), exists);
    this.readOnly = opts.readOnly ?? false;
    this.durable = opts.fsync ?? true;
    this.reducingRuns = opts.reducingRunsAfterReset ?? 0;
    this.headOnFlush = opts.headOnFlush ?? false;
    this.logPath = `${home}/${LOG_FILE}`;
    // A simulation's journal (head written on flush) keeps its log open between commits.
    this.log = new LogAppender(this.logPath, this.headOnFlush);
    this.db = makeHeadDb(homePaths(home).journal, head, this.durable);
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
    const numbered = bodies.map((b, i): JournalEvent => ({ ...redactValue(b), seq: head.log.last_seq + i + 1 }));
    const { events, text, hash } = chainEvents(numbered, head.log.last_hash ?? CHAIN_ORIGIN);
    for (const b of bodies) faultPoint(`journal.append:${b.t}`);
    const committed = this.log.append(head.log.committed_bytes, text, this.durable);
    try {
      for (const e of events) apply(this.s, e);
      const now = new Date().toISOString();
      this.db.data = {
        ...head,
        updated_at: now,
        log: { file: LOG_FILE, committed_bytes: committed, last_seq: head.log.last_seq + events.length, last_hash: hash },
        checkpoint: this.headOnFlush ? head.checkpoint : checkpointOf(this.s),
      };
      if (this.headOnFlush) this.headDirty = true;
      else await this.db.write();
      this.exists = true;
    } catch (e) {
      this.broken = e as Error;
      throw e;
    }
  }

  /** The head as of the last commit: one written on flush gets the checkpoint of the books it commits to. */
  private currentHead(): HeadDoc {
    return this.headDirty ? { ...this.db.data, checkpoint: checkpointOf(this.s) } : this.db.data;
  }

  /** Releases the event log's descriptor (kept open with `headOnFlush`); a later commit reopens it. */
  close(): Promise<void> {
    const run = this.queue.then(() => this.log.close());
    this.queue = run.catch(() => {});
    return run;
  }

  /** Writes the head when commits since the last flush left it behind (`headOnFlush`). */
  flush(): Promise<void> {
    const run = this.queue.then(async () => {
      if (!this.headDirty) return;
      try {
        this.db.data = this.currentHead();
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

  // ───────────────────────────── account and ledger (account.ts) ─────────────────────────────

  init(args: { capital: AmountInput; currency: string; at: Date | string }): Promise<void> {
    return this.exclusive(() => initEvents(this.s, args));
  }

  /** Adds money (append-only; there are no withdrawals). Returns the ledger entry. */
  deposit(args: { amount: AmountInput; at: Date | string; note?: string }): Promise<LedgerEntry> {
    return this.exclusive(() => depositEvents(this.s, this.account().currency, args));
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
    args: {
      status: Exclude<RunStatus, "running">;
      outcome: RunOutcome;
      exit_code: number;
      message: string;
      at: Date | string;
      could_trade?: boolean;
      artifacts?: Record<string, string>;
    },
  ): Promise<void> {
    return this.exclusive(() => {
      const r = this.requireRun(run_id);
      if (r.status !== "running") throw usage("run_finished", `run ${run_id} already finished (${r.status})`);
      const could = args.could_trade === undefined ? {} : { could_trade: args.could_trade };
      const artifacts = args.artifacts === undefined ? {} : { artifacts: args.artifacts };
      return {
        events: [
          {
            t: "run_finish",
            run_id,
            status: args.status,
            outcome: args.outcome,
            exit_code: args.exit_code,
            message: args.message,
            at: iso(args.at),
            ...could,
            ...artifacts,
          },
        ],
        result: undefined,
      };
    });
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

  /** Halts trading. Tripping while already halted changes nothing and returns the standing trip. */
  trip(args: { run_id: string; at: Date | string; value: number; peak: number; drawdown_pct: number; reason: string }): Promise<TripRecord> {
    return this.exclusive(() => {
      const current = this.s.trips.at(-1);
      if (this.s.trading_state === "HALTED" && current) return { events: [], result: { ...current } };
      const trip: TripRecord = {
        run_id: args.run_id,
        at: iso(args.at),
        value: args.value,
        peak: args.peak,
        drawdown_pct: args.drawdown_pct,
        reason: args.reason,
      };
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

  // ───────────────────────────── quota and spend ─────────────────────────────

  recordUsage(run_id: string, args: { model: string; usage: Usage; cost_usd: number; at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      this.requireRun(run_id);
      positive(args.cost_usd, "cost_usd", true);
      return {
        events: [{ t: "usage", record: { run_id, model: args.model, usage: args.usage, cost_micros: usdToMicros(args.cost_usd), at: iso(args.at) } }],
        result: undefined,
      };
    });
  }

  // ───────────────────────────── proposals ─────────────────────────────

  recordProposal(run_id: string, args: { orders: ProposalRecord["orders"]; summary: string; decisions: GateDecision[]; at: Date | string }): Promise<void> {
    return this.exclusive(() => {
      this.requireRun(run_id);
      const record = { run_id, orders: args.orders, summary: args.summary, decisions: args.decisions, at: iso(args.at) };
      return { events: [{ t: "proposal", record }], result: undefined };
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

  /** What became of a buy funded by its batch's sells: the second wave's outcome, or not placed (recorded by the next run). */
  recordFundedBuy(record: FundedBuyRecord): Promise<void> {
    return this.exclusive(() => ({ events: [{ t: "funded_buy", record }], result: undefined }));
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

  // ───────────────────────────── operator adjustments (adjust.ts) ─────────────────────────────

  /** Adopts the broker's side of the adoptable differences, as append-only adjustments (one commit). */
  recordAdjustments(args: { differences: readonly ReconcileDifference[]; reason: string; by: string; at: Date | string }): Promise<AdjustmentRecord[]> {
    return this.exclusive(() => {
      const { currency } = this.account();
      if (!args.reason.trim()) throw usage("reason_required", "adopting the broker's side needs a reason");
      const events = adoptionEvents({
        differences: args.differences,
        reason: args.reason,
        by: args.by,
        at: iso(args.at),
        currency,
        existing: this.s.adjustments.length,
      });
      return { events, result: events.flatMap((e) => (e.t === "adjustment" ? [e.adjustment] : [])) };
    });
  }

  // ───────────────────────────── memory notes (notes.ts) ─────────────────────────────

  remember(args: {
    kind: NoteKind;
    text: string;
    symbol?: string;
    supersedes?: string;
    run_id: string;
    evidence_ids?: readonly string[];
    at: Date | string;
  }): Promise<Note> {
    return this.exclusive(() => {
      const { event, note } = noteEvent(this.s, { ...args, at: iso(args.at) });
      return { events: [event], result: { ...note } };
    });
  }

  // ──────────────── watchlist (the collection and its rules live in watchlist.ts) ────────────────

  /** Commits the watch events `build` derives from the current watchlist (atomically, serialised). */
  commitWatch<T>(build: (s: Readonly<WatchState>) => { events: WatchEvent[]; result: T }): Promise<T> {
    return this.exclusive(() => {
      const { events, result } = build(this.s.watchlist);
      return { events: events.map((record) => ({ t: "watch" as const, record })), result };
    });
  }

  // ──────────── standing orders (the collection and its rules live in standing-orders.ts) ────────────

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
    const findings = verifyState(this.s, this.currentHead().checkpoint, MAX_LIVE_NOTES, this.chainIssue);
    return [...findings, ...simBrokerFindings(this.s, this.home)];
  }
}
