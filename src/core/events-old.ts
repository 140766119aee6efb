/** TEMPORARY: the hand-written event types before the schemas, kept for one commit as the equality proof (events-eq.ts). */
/**
 * The run's typed event stream: one discriminated union that the pipeline, the agent loop and the
 * executor emit, and that every front end (Ink console, headless printer, events.jsonl) consumes.
 * Front ends hold no trading logic: everything they show is in these events.
 */
import type { PortfolioView, ProposedOrder, RunMode, TradingState } from "./domain.js";
import type { GateDecision } from "./gate-types.js";
import type { MaskInstrument, SearchLogEntry } from "./research.js";

export interface ToolIssue {
  path: string;
  message: string;
}

export interface Correction {
  tool: string;
  instruction: string;
  valid_arguments_example: unknown;
  received_arguments: unknown;
  issues?: ToolIssue[];
  missing_fields?: string[];
  pending?: PendingError[];
  [extra: string]: unknown;
}

export interface PendingError {
  tool: string;
  error_code: string;
  error: string;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** The TTL split of cache writes, when the API reports it. */
  cache_creation_5m_input_tokens?: number;
  cache_creation_1h_input_tokens?: number;
}

export type AgentOutcome =
  | "submitted"
  | "hold"
  | "no_submission"
  | "turn_limit"
  | "time_limit"
  | "cost_budget"
  | "monthly_budget"
  | "refusal"
  | "max_tokens"
  | "context_window"
  | "model_error"
  | "interrupted";

export type RunOutcome =
  | "executed"
  | "hold"
  | "no_trades"
  | "observed"
  | "rejected"
  | "awaiting_approval"
  | "reconcile_failed"
  | "broker_unavailable"
  | "data_unavailable"
  | "halted"
  | "tripped"
  | "quota_exhausted"
  | "spend_cap_reached"
  | "model_unavailable"
  | "interrupted"
  | "error";

export interface ReconcileDifference {
  kind: "position_mismatch" | "unknown_open_order" | "unbooked_position" | "missing_position" | "cash_mismatch" | "unsettled_order";
  /** The instrument (for cash_mismatch: the base currency). */
  symbol: string;
  journal_quantity?: number;
  broker_quantity?: number;
  /** cash_mismatch: the cash moved by trading since the account opened, per side (base currency). */
  journal_cash_flow?: number;
  broker_cash_flow?: number;
  /** The broker's average cost per share of the position, when it reports one. */
  broker_avg_cost?: number;
  /** What the difference proves, and what resolves it. */
  proves?: string;
  /** Whether an operator may resolve it by adopting the broker's side (append-only adjustment). */
  adoptable?: boolean;
  broker_order_id?: string;
  client_order_id?: string;
  message: string;
}

export interface OrderEventBase {
  client_order_id: string;
  broker_order_id?: string;
  symbol: string;
  side: "BUY" | "SELL";
  quantity: number;
  limit_price: number;
}

export type RunEventBody =
  | {
      type: "run.started";
      run_id: string;
      mode: RunMode;
      trading_day: string;
      model: { provider: string; id: string };
      broker: { kind: string; account_id: string; endpoint: string };
      base_currency: string;
    }
  | { type: "preflight.failed"; code: string; message: string }
  | { type: "reconcile.ok"; positions: number }
  | {
      /** An order of an earlier run whose outcome was not final, looked up at the broker by its client order id. */
      type: "order.recovered";
      client_order_id: string;
      broker_order_id?: string;
      from_run: string;
      symbol: string;
      side: "BUY" | "SELL";
      quantity: number;
      limit_price: number;
      status_before: string;
      status: string;
      filled_quantity: number;
      fills_booked: number;
      settled: boolean;
      message: string;
    }
  | { type: "reconcile.failed"; differences: ReconcileDifference[] }
  | {
      type: "valuation";
      value: number;
      cash: number;
      peak: number;
      drawdown_pct: number;
      max_drawdown_pct: number;
      trading_state: TradingState;
      orders_used: number;
      orders_left: number;
      first_of_run: boolean;
      /** Holdings, cash and the previous run's fills, for the console. */
      portfolio?: PortfolioView;
    }
  | {
      type: "killswitch.tripped";
      value: number;
      peak: number;
      drawdown_pct: number;
      limit_pct: number;
      reason: string;
      liquidation: ProposedOrder[];
      /** Who tripped it: the drawdown reaching the limit, or the operator (at any drawdown). */
      by?: "drawdown" | "operator";
    }
  | { type: "run.note"; level: "info" | "warn"; message: string }
  | {
      /** A standing order approved earlier crossed its trigger (or expired) at the start of this run. */
      type: "standing.fired";
      id: string;
      standing_type: string;
      trigger_price: number;
      /** null when it expired unfired. */
      reference_price: number | null;
      order: ProposedOrder;
      approved_by: string;
      binding_hash: string;
      /** placed: passed the final gate and sent; blocked: the gate refused it; not_placed: this mode places nothing; expired. */
      result: "placed" | "blocked" | "not_placed" | "expired";
      reasons: { code: string; message: string }[];
    }
  | { type: "model.turn_started"; turn: number; max_turns: number; time_left_ms: number; cost_usd: number; budget_usd: number }
  | { type: "model.text"; turn: number; delta: string }
  | {
      type: "model.response";
      turn: number;
      stop_reason: string;
      usage: Usage;
      cost_usd: number;
      total_cost_usd: number;
      duration_ms: number;
    }
  | { type: "model.retry"; turn: number; attempt: number; message: string }
  | { type: "tool.called"; turn: number; call_id: string; tool: string; arguments: unknown }
  | {
      type: "tool.rejected";
      turn: number;
      call_id: string;
      tool: string;
      error_code: string;
      error: string;
      retryable: boolean;
      correction?: Correction;
      /** SHA-256 of the exact tool result text the model was given. */
      result_sha256?: string;
    }
  | {
      type: "tool.result";
      turn: number;
      call_id: string;
      tool: string;
      success: boolean;
      error_code?: string;
      summary: string;
      truncated: boolean;
      duration_ms: number;
      /** SHA-256 of the exact tool result text the model was given (audit ties events, transcript and cassette together). */
      result_sha256?: string;
    }
  | { type: "tool.pending"; pending: PendingError[] }
  | ({ type: "research.search" } & SearchLogEntry)
  | { type: "mask.enabled"; data_set: string; date_offset_days: number; instruments: MaskInstrument[] }
  | { type: "mask.leak"; turn: number; kind: "symbol" | "name" | "date" | "term"; found: string; where: string }
  | { type: "gate.dry_run"; turn: number; call_id: string; decisions: GateDecision[] }
  | { type: "submit.bounced"; turn: number; decisions: GateDecision[] }
  | {
      type: "agent.finished";
      outcome: AgentOutcome;
      reason: string;
      turns: number;
      cost_usd: number;
    }
  | {
      type: "proposal";
      orders: ProposedOrder[];
      summary: string;
      decisions: GateDecision[];
      abandoned: string[];
    }
  | { type: "approval.requested"; orders_hash: string; approvable: number; blocked: number }
  | {
      type: "approval.decided";
      decision: "approved" | "rejected" | "killswitch" | "awaiting" | "none";
      by: "operator" | "auto" | "none";
      orders: ProposedOrder[];
      orders_hash: string;
      reason?: string;
    }
  /** `orders_hash`: the pipeline's hash of the orders it hands the executor (the approved placements). */
  | { type: "gate.final"; decisions: GateDecision[]; orders_hash?: string }
  | ({ type: "order.placed" } & OrderEventBase)
  | ({ type: "order.partially_filled"; filled_quantity: number; avg_price: number } & OrderEventBase)
  | ({ type: "order.filled"; filled_quantity: number; avg_price: number; commission: number } & OrderEventBase)
  | ({ type: "order.cancelled"; filled_quantity: number; message: string } & OrderEventBase)
  | ({ type: "order.rejected"; message: string } & OrderEventBase)
  | ({ type: "order.uncertain"; message: string } & OrderEventBase)
  | ({ type: "order.expired"; filled_quantity: number } & OrderEventBase)
  | {
      type: "run.finished";
      outcome: RunOutcome;
      exit_code: number;
      message: string;
      value_after?: number;
      cost_usd: number;
    };

export type RunEventType = RunEventBody["type"];

/** An event as recorded: the body stamped with its sequence number and time. */
export type RunEvent = RunEventBody & { seq: number; at: string; run_id: string };
