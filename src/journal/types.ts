/**
 * Journal record and event shapes. The journal is event-sourced: every write appends events to the
 * log (`journal.log.jsonl`), and the head document (`journal.json`) holds the schema version,
 * the commit mark and a checkpoint of the balances. The in-memory model is the fold of the log.
 */
import type { OrderStatus, ProposedOrder, RunMode, Side, TradingState } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";
import type { RunOutcome, Usage } from "../core/events.js";

export const SCHEMA_VERSION = 2;
export const LOG_FILE = "journal.log.jsonl";

export type RunStatus = "running" | "completed" | "failed" | "interrupted" | "aborted";
export type LockPurpose = "run" | "reset" | "init" | "deposit" | "sim" | "standing" | "reconcile";
export type NoteKind = "observation" | "lesson" | "plan" | "watch";

export interface Checkpoint {
  initialised: boolean;
  base_currency: string | null;
  cash_minor: number;
  /** symbol → quantity and cost basis (base-currency minor units), as exact decimal strings. */
  holdings: Record<string, { quantity: string; cost_basis_minor: string; currency: string }>;
  peak_minor: number | null;
  trading_state: TradingState;
  ledger_entries: number;
  fills: number;
}

export interface HeadDoc {
  format: "tradewarden-journal";
  schema_version: number;
  created_at: string;
  updated_at: string;
  /** `last_hash`: the hash chain after the last committed line (chain.ts); absent in heads written before the chain. */
  log: { file: string; committed_bytes: number; last_seq: number; last_hash?: string };
  checkpoint: Checkpoint;
}

export type LedgerKind = "deposit" | "buy" | "sell" | "commission" | "adjustment";
export interface LedgerEntry {
  seq: number;
  kind: LedgerKind;
  /** Signed, base-currency minor units. */
  amount_minor: number;
  at: string;
  note?: string;
  run_id?: string;
  client_order_id?: string;
  fill_id?: string;
  symbol?: string;
}

export interface RunRecord {
  run_id: string;
  mode: RunMode;
  trading_day: string;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  outcome: RunOutcome | null;
  exit_code: number | null;
  message: string | null;
  model: { provider: string; id: string };
  broker: { kind: string; account_id?: string; endpoint?: string };
  pid: number;
  host: string;
  /** The run's first valuation (the only one that moves the peak), and the previous run's. */
  first_value_minor: number | null;
  previous_value_minor: number | null;
  peak_after_minor: number | null;
  cost_micros: number;
  notes: string[];
}

export interface OrderStatusEntry {
  status: OrderStatus;
  at: string;
  broker_order_id?: string;
  filled_quantity?: number;
  message?: string;
}

export interface OrderRecord {
  run_id: string;
  client_order_id: string;
  index: number;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  /** Kill-switch liquidation orders are outside the monthly quota. */
  liquidation: boolean;
  /** The instrument's currency. */
  currency: string;
  /** The rate to base the order was approved at; its fills are booked at it (absent in older journals). */
  fx_to_base?: number;
  broker_order_id: string | null;
  status: OrderStatus;
  filled_quantity: number;
  history: OrderStatusEntry[];
  created_at: string;
  /** When the order first counted toward the monthly quota (null = not counted). */
  counted_at: string | null;
}

export interface FillRecord {
  fill_id: string;
  client_order_id: string;
  run_id: string;
  symbol: string;
  side: Side;
  quantity: number;
  /** Instrument currency. */
  price: number;
  fx_to_base: number;
  gross_minor: number;
  commission_minor: number;
  at: string;
  /** Imported fills (migration) carry their ledger entries separately. */
  ledger: boolean;
}

export interface ProposalRecord {
  run_id: string;
  orders: ProposedOrder[];
  summary: string;
  decisions: GateDecision[];
  at: string;
}

export interface ApprovalRecord {
  run_id: string;
  decision: "approved" | "rejected" | "killswitch" | "awaiting" | "none";
  by: string;
  orders_hash: string;
  reason?: string;
  orders?: ProposedOrder[];
  at: string;
}

export interface UsageRecord {
  run_id: string;
  model: string;
  usage: Usage;
  cost_micros: number;
  at: string;
}

export interface TripRecord {
  run_id: string;
  at: string;
  value: number;
  peak: number;
  drawdown_pct: number;
  reason: string;
}

export interface ResetRecord {
  at: string;
  who: string;
  reason: string;
  value: number;
  new_peak: number;
  reducing_runs: number;
}

export interface Note {
  id: string;
  kind: NoteKind;
  text: string;
  symbol?: string;
  supersedes?: string;
  superseded_by?: string;
  status: "live" | "superseded";
  /** The run that wrote it (the model's own note, via the remember tool). */
  run_id: string;
  created_at: string;
  /**
   * The evidence ids that run had received when it wrote the note: what the note's content came
   * from. Absent on notes written before it was recorded.
   */
  evidence_ids?: string[];
}

/**
 * An operator's adoption of the broker's side of a difference reconciliation could not explain:
 * appended, never an edit. `position`: the holding moves by `quantity_delta` (cost basis
 * `basis_minor` for an increase, proportional for a decrease; no cash moves); `cash`: a ledger
 * entry of `amount_minor`; `order`: the order is settled as the broker knows it (an order_update
 * in the same commit).
 */
export interface AdjustmentRecord {
  id: string;
  kind: "position" | "cash" | "order";
  symbol?: string;
  quantity_delta?: number;
  basis_minor?: number;
  amount_minor?: number;
  client_order_id?: string;
  /** The difference as reconciliation saw it. */
  difference: string;
  reason: string;
  by: string;
  at: string;
}

/** The log's records. Money is already in minor units: the fold never rounds. */
export type JournalEventBody =
  | { t: "init"; currency: string; capital_minor: number; at: string }
  | { t: "deposit"; amount_minor: number; at: string; note?: string }
  | { t: "run_start"; run: RunRecord }
  | { t: "run_abort"; run_id: string; at: string; message: string }
  /** `artifacts`: the SHA-256 of each file the run wrote under runs/<id>/, by file name (audit checks them). */
  | { t: "run_finish"; run_id: string; status: RunStatus; outcome: RunOutcome | null; exit_code: number | null; message: string; at: string; could_trade?: boolean; artifacts?: Record<string, string> }
  | { t: "valuation"; run_id: string; value_minor: number; at: string }
  | { t: "trip"; trip: TripRecord }
  | { t: "reset"; reset: ResetRecord; value_minor: number }
  | { t: "usage"; record: UsageRecord }
  | { t: "proposal"; record: ProposalRecord }
  | { t: "approval"; record: ApprovalRecord }
  /** `orders_hash`: the hash of the orders handed to the executor, computed by the pipeline. */
  | { t: "final_gate"; run_id: string; decisions: GateDecision[]; at: string; orders_hash?: string }
  | { t: "order_intent"; order: OrderRecord }
  | { t: "order_update"; client_order_id: string; entry: OrderStatusEntry }
  | { t: "fill"; fill: FillRecord }
  | { t: "note"; note: Note }
  | { t: "watch"; record: import("./watchlist.js").WatchEvent }
  | { t: "standing"; record: import("./standing-orders.js").StandingEvent }
  | { t: "adjustment"; adjustment: AdjustmentRecord }
  // migration imports (v1 single-document journals)
  | { t: "import_ledger"; kind: LedgerKind; amount_minor: number; at: string; note?: string; symbol?: string }
  | { t: "import_run"; run: RunRecord }
  | { t: "import_order"; order: OrderRecord }
  | {
      t: "import_state";
      peak_minor: number | null;
      last_first_value_minor: number | null;
      trading_state: TradingState;
      reducing_runs_left: number;
      trips: TripRecord[];
      resets: ResetRecord[];
    };

/** `prev`: the hash chain before this line (chain.ts); absent on lines written before the chain. */
export type JournalEvent = JournalEventBody & { seq: number; prev?: string };

export interface Holding {
  quantity: number;
  /** Average cost per unit in the base currency, commission included; unchanged by sells. */
  avg_cost: number;
  /** Total cost basis of the position in the base currency. */
  cost_basis: number;
  /** The instrument's currency. */
  currency: string;
}

export interface Finding {
  code: string;
  message: string;
}

export type ActivityOutcome =
  | "blocked"
  | "not_placed"
  | "filled"
  | "partially_filled"
  | "not_filled"
  | "rejected"
  | "open";

export interface ActivityItem {
  run_id: string;
  trading_day: string;
  at: string;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  outcome: ActivityOutcome;
  /** One sentence for people and the model. */
  detail: string;
  reasons?: { code: string; message: string }[];
  client_order_id?: string;
  filled_quantity?: number;
  avg_fill_price?: number;
  counted: boolean;
  liquidation?: boolean;
}

export interface LiquidationStatus {
  halted: boolean;
  trip: TripRecord | null;
  /** Holdings still to sell since the trip. */
  remaining: { symbol: string; quantity: number }[];
  orders: { client_order_id: string; symbol: string; quantity: number; status: OrderStatus; filled_quantity: number }[];
  complete: boolean;
}
