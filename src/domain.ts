/**
 * Domain vocabulary shared by every module. Pure types only: no I/O, no logic.
 */

export type Side = "BUY" | "SELL";

/** Trading states (Nautilus semantics): REDUCING allows sells only, HALTED allows nothing. */
export type TradingState = "ACTIVE" | "REDUCING" | "HALTED";

/** An order as the model proposes it (the `orders` items of check_orders / submit_orders). */
export interface ProposedOrder {
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  reason: string;
  evidence_ids: string[];
  exchange?: string;
}

/** One allowlisted instrument (a universe row). */
export interface Instrument {
  symbol: string;
  currency: string;
  exchange?: string;
  name?: string;
  sector?: string;
  /** Minimum price increment in the instrument's currency (default 0.01). */
  tick?: number;
  /** Free text shown to users, e.g. "synthetic: derived from the S&P 500 index". */
  note?: string;
}

/** A daily OHLCV bar. `date` is an ISO calendar day (YYYY-MM-DD). */
export interface Bar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export type RunMode = "paper" | "observe";
