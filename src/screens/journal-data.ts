/**
 * The journal browser's data: what the source (src/commands/journal-browser.ts) hands the
 * screen, and the runs filter. Pure.
 */
import type { RunEvent } from "../core/events.js";
import type { DecidedBy } from "../journal/decided.js";

type MaybePromise<T> = T | Promise<T>;

export interface JournalRunSummary {
  run_id: string;
  started_at: string;
  trading_day: string;
  mode: string;
  /** Who started it: the scheduler (`tradewarden tick`) or a person; runs of older journals are manual. */
  trigger?: "scheduled" | "manual";
  outcome: string | null;
  /** A proposal recorded as awaiting approval and decided later: the run that decided it. */
  decided_by?: DecidedBy;
  orders: number;
  fills: number;
  cost_usd: number;
}

interface JournalOrderRow {
  client_order_id: string;
  symbol: string;
  side: string;
  quantity: number;
  limit_price: number;
  status: string;
  filled_quantity?: number;
  avg_price?: number;
}

interface JournalFillRow {
  at: string;
  symbol: string;
  side: string;
  quantity: number;
  price: number;
  commission?: number;
  client_order_id?: string;
}

export interface JournalDecision {
  decision: string;
  by: string;
  reason?: string;
  orders_hash?: string;
  orders?: number;
}

interface JournalCost {
  total_usd: number;
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  turns?: number;
}

export interface TranscriptEntry {
  role: string;
  text: string;
}

export interface JournalRunDetail {
  run_id: string;
  /** The run's events.jsonl. */
  events: RunEvent[];
  orders: JournalOrderRow[];
  fills: JournalFillRow[];
  /** The operator's decision; derived from the approval.decided event when null. */
  decision: JournalDecision | null;
  transcript: TranscriptEntry[];
  cost: JournalCost;
}

interface JournalAccountPoint {
  run_id: string;
  trading_day: string;
  value: number;
  peak: number;
  /** The kill switch tripped in this run. */
  trip?: boolean;
  /** The kill switch was reset before this run. */
  reset?: boolean;
  /** Fills booked in this run. */
  fills?: number;
}

export interface JournalAccount {
  points: JournalAccountPoint[];
  max_drawdown_pct: number;
  base_currency?: string;
  /** The kill switch was reset after the last run: the peak it set (the value then), which the limit line now follows. */
  reset_after_last_run?: { peak: number };
  /** The account's trading state now (a halted account has no headroom to speak of). */
  trading_state?: "ACTIVE" | "REDUCING" | "HALTED";
}

export interface JournalBrowserSource {
  listRuns(): MaybePromise<JournalRunSummary[]>;
  runDetail(runId: string): MaybePromise<JournalRunDetail | null>;
  account(): MaybePromise<JournalAccount>;
}

export interface JournalScreenProps {
  source: JournalBrowserSource;
  onExit: () => void;
  /** Ctrl+C; defaults to onExit. */
  onInterrupt?: () => void;
}

export function filterRuns(runs: readonly JournalRunSummary[], query: string): JournalRunSummary[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...runs];
  const terms = q.split(/\s+/);
  return runs.filter((r) => {
    const hay = `${r.run_id} ${r.trading_day} ${r.started_at} ${r.mode} ${r.trigger ?? "manual"} ${outcomeText(r)}`.toLowerCase();
    return terms.every((t) => hay.includes(t));
  });
}

/** A run's outcome in words; a proposal decided later names its deciding run: `awaiting_approval → approved by run X`. */
export function outcomeText(r: Pick<JournalRunSummary, "outcome" | "decided_by">): string {
  const outcome = r.outcome ?? "unfinished";
  return r.decided_by ? `${outcome} → ${r.decided_by.decision} by run ${r.decided_by.run_id}` : outcome;
}

/** The same in a narrow column: `awaiting→approved`. */
export function outcomeCell(r: Pick<JournalRunSummary, "outcome" | "decided_by">): string {
  return r.decided_by ? `awaiting→${r.decided_by.decision}` : (r.outcome ?? "unfinished");
}
