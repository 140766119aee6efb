/**
 * Domain vocabulary shared by every module: schemas and their types only, no I/O, no logic.
 */
import { type Static, Type } from "@sinclair/typebox";

/** Trading states (Nautilus semantics): REDUCING allows sells only, HALTED allows nothing. */
export const TRADING_STATES = ["ACTIVE", "REDUCING", "HALTED"] as const;
export const TradingStateSchema = Type.Union(TRADING_STATES.map((state) => Type.Literal(state)));
export type TradingState = Static<typeof TradingStateSchema>;

/** An order as the model proposes it (the order intent) and its side: defined once, as schemas, in ./order-intent.ts. */
import type { Side } from "./order-intent.js";
export type { ProposedOrder, Side } from "./order-intent.js";

/** One allowlisted instrument (a universe row). */
export const InstrumentSchema = Type.Object({
  symbol: Type.String(),
  currency: Type.String(),
  exchange: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  sector: Type.Optional(Type.String()),
  /** Minimum price increment in the instrument's currency (default 0.01). */
  tick: Type.Optional(Type.Number({ description: "Minimum price increment in the instrument's currency (default 0.01)." })),
  /** Free text shown to users, e.g. "synthetic: derived from the S&P 500 index". */
  note: Type.Optional(Type.String({ description: 'Free text shown to users, e.g. "synthetic: derived from the S&P 500 index".' })),
});
export type Instrument = Static<typeof InstrumentSchema>;

/** A daily OHLCV bar. `date` is an ISO calendar day (YYYY-MM-DD). */
export interface Bar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** paper trades; observe stops at the proposal; watch researches and manages the watchlist, proposing no order. */
export type RunMode = "paper" | "observe" | "watch";

/** An order's life (its statuses, their legal steps and the terminal ones): core/order-lifecycle.ts. */
export type { OrderStatus } from "./order-lifecycle.js";

/** A reference price as of the run's trading day (the last close strictly before it). */
export interface ReferencePrice {
  symbol: string;
  /** In the instrument's currency. */
  price: number;
  /** The bar date the price comes from (YYYY-MM-DD). */
  as_of: string;
  currency: string;
  /** Instrument currency → base currency multiplier. */
  fx_to_base: number;
}

/** Where reference prices come from (filled by src/market; read by journal, gate wiring, tools). */
export interface PriceSource {
  referencePrice(symbol: string): ReferencePrice | undefined;
}

// ── The account as the operator sees it (built in src/run/portfolio.ts) ──

export interface HoldingView {
  symbol: string;
  quantity: number;
  /** Reference price in the instrument's currency; null when unpriced. */
  price: number | null;
  /** In the base currency; null when unpriced. */
  value: number | null;
  /** value / portfolio value (0..1); null when unpriced. */
  weight: number | null;
  /** Cost basis in the base currency (commission included). */
  cost_basis: number;
  unrealised_pnl: number | null;
  currency: string;
}

export interface FillView {
  at: string;
  run_id: string;
  trading_day: string;
  symbol: string;
  side: Side;
  quantity: number;
  price: number;
}

export interface PortfolioView {
  currency: string;
  cash: number;
  value: number;
  holdings: HoldingView[];
  /** The fills of the last run before this one that had any. */
  last_fills: FillView[];
}
