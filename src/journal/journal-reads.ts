/**
 * The journal's read side: every accessor over the folded state (copies, never live records).
 * `Journal` (journal.ts) extends it with the serialised, atomic writes.
 */
import type { TradingState } from "../core/domain.js";
import type { FundedBuyRecord } from "../core/events-parts.js";
import type { GateDecision } from "../core/gate-types.js";
import { TwError } from "../core/errors.js";
import { fromMinor, microsToUsd } from "../core/money.js";
import { type ActivityOptions, recentActivity } from "./activity.js";
import { usage } from "./account.js";
import { type RecallQuery, recallNotes } from "./notes.js";
import { lastCompletedRun, unsettledFundedBuys } from "./indexes.js";
import { liquidationStatus } from "./runs.js";
import { bookedQuantity, unsettledOrders } from "./settled.js";
import type { StandingState } from "./standing-orders.js";
import type { State } from "./state.js";
import { lowerBound, monthWindow } from "./time.js";
import type {
  ActivityItem,
  AdjustmentRecord,
  ApprovalRecord,
  FillRecord,
  Holding,
  LedgerEntry,
  LiquidationStatus,
  Note,
  OrderRecord,
  ProposalRecord,
  ResetRecord,
  RunRecord,
  TripRecord,
} from "./types.js";
import { holdingsCopy, spendInMonth } from "./views.js";
import type { WatchState } from "./watchlist.js";

export abstract class JournalReads {
  readonly home: string;
  readonly timezone: string;
  protected s: State;
  protected exists: boolean;

  protected constructor(home: string, timezone: string, s: State, exists: boolean) {
    this.home = home;
    this.timezone = timezone;
    this.s = s;
    this.exists = exists;
  }

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

  protected account() {
    const a = this.s.account;
    if (!a) throw usage("not_initialised", `the journal in ${this.home} is not initialised; run \`tradewarden init --capital N --currency C\``);
    return a;
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
    return holdingsCopy(this.s);
  }

  runs(): RunRecord[] {
    return this.s.runIds.map((id) => this.view(this.s.runs.get(id) as RunRecord));
  }

  /**
   * The most recent run (in run order) other than `exceptRunId` that has fills: its id and trading
   * day, without copying every run record (the portfolio's last fills ask this on every run).
   */
  lastRunWithFills(exceptRunId?: string): { run_id: string; trading_day: string } | undefined {
    if (this.s.fillList.length === 0) return undefined;
    const withFills = this.s.idx.fillsByRun;
    for (let i = this.s.runIds.length - 1; i >= 0; i--) {
      const id = this.s.runIds[i] as string;
      if (id === exceptRunId || !withFills.has(id)) continue;
      const run = this.s.runs.get(id) as RunRecord;
      return { run_id: id, trading_day: run.trading_day };
    }
    return undefined;
  }

  run(id: string): RunRecord | undefined {
    const r = this.s.runs.get(id);
    return r ? this.view(r) : undefined;
  }

  private view(r: RunRecord): RunRecord {
    return { ...r, notes: [...r.notes] };
  }

  protected requireRun(id: string): RunRecord {
    const r = this.s.runs.get(id);
    if (!r) throw new TwError("unknown_run", `run ${id} is not in the journal`);
    return r;
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

  tripHistory(): TripRecord[] {
    return this.s.trips.map((t) => ({ ...t }));
  }

  resetHistory(): ResetRecord[] {
    return this.s.resets.map((r) => ({ ...r }));
  }

  /** The run each reset comes before, by the log's order (whatever the clocks say): the first run started after it, or null. */
  resetNextRuns(): (string | null)[] {
    return this.s.resetRunCounts.map((count) => this.s.runIds[count] ?? null);
  }

  /** What the kill switch still has to sell: holdings left since the standing trip, and its orders. */
  liquidationStatus(): LiquidationStatus {
    return liquidationStatus(this.s);
  }

  /** Orders counted toward the quota in the calendar month (journal time zone) containing `at`. */
  ordersThisMonth(at: Date): number {
    const w = monthWindow(at, this.timezone);
    return lowerBound(this.s.countedMs, w.end) - lowerBound(this.s.countedMs, w.start);
  }

  /** LLM spend (USD) in the calendar month containing `at`. */
  spendThisMonth(at: Date): number {
    return spendInMonth(this.s, monthWindow(at, this.timezone));
  }

  runCostUsd(run_id: string): number {
    return microsToUsd(this.s.runs.get(run_id)?.cost_micros ?? 0);
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

  /** What became of a buy funded by its batch's sells (by its run and final-gate index), when recorded. */
  fundedBuy(run_id: string, index: number): FundedBuyRecord | undefined {
    return this.s.fundedBuys.get(`${run_id}#${index}`);
  }

  /**
   * Buys a final gate approved as funded by their batch's sells with no outcome recorded: the run
   * ended before its second wave (only an earlier, dead run's; recovery records them as not placed).
   */
  unsettledFundedBuys(): { run_id: string; decision: GateDecision }[] {
    return unsettledFundedBuys(this.s);
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
    const list = run_id === undefined ? this.s.fillList : (this.s.idx.fillsByRun.get(run_id) ?? []);
    return list.map((f) => ({ ...f }));
  }

  /** Orders not yet in a terminal state (the executor resolves them; reconciliation uses their ids). */
  openOrders(): OrderRecord[] {
    return [...this.s.orders.values()].filter((o) => !["filled", "cancelled", "expired", "rejected"].includes(o.status)).map((o) => ({ ...o }));
  }

  /** Whether the journal has an order with this client order id (asked per broker order, not by copying every id). */
  hasOrder(client_order_id: string): boolean {
    return this.s.orders.has(client_order_id);
  }

  /** Cash moved by fills, commissions and operator adjustments since the account opened (base minor units): reconciled with a broker that keeps the account's own book. */
  tradingCashFlowMinor(): number {
    return this.s.idx.tradingFlowMinor;
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
    return lastCompletedRun(this.s);
  }

  // ───────────────────────────── recent activity (activity.ts) ─────────────────────────────

  /** The last `n` orders of paper-mode runs (newest run first) and what became of each; `before`: runs of earlier trading days only. */
  recentActivity(n = 10, opts: ActivityOptions = {}): ActivityItem[] {
    return recentActivity(this.s, n, opts);
  }

  adjustments(): AdjustmentRecord[] {
    return this.s.adjustments.map((a) => ({ ...a }));
  }

  /** Live notes, newest first, filtered by kind, symbol and words of `query`; `asOf` hides notes from later trading days. */
  recall(args: RecallQuery = {}): { notes: Note[]; total: number } {
    return recallNotes(this.s, args);
  }

  note(id: string): Note | undefined {
    const n = this.s.notes.get(id);
    return n ? { ...n } : undefined;
  }

  watchState(): Readonly<WatchState> {
    return this.s.watchlist;
  }

  standingState(): Readonly<StandingState> {
    return this.s.standing;
  }
}
