/**
 * Domain vocabulary shared by every module: schemas and their types only, no I/O, no logic.
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";

/** Trading states (Nautilus semantics): REDUCING allows sells only, HALTED allows nothing. */
export const TRADING_STATES = ["ACTIVE", "REDUCING", "HALTED"] as const;
export const TradingStateSchema = Type.Union(TRADING_STATES.map((state) => Type.Literal(state)));
export type TradingState = Static<typeof TradingStateSchema>;

/** An order as the model proposes it (the order intent) and its side: defined once, as schemas, in ./order-intent.ts. */
import { SideSchema } from "./order-intent.js";
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
const BarSchema = Type.Object({
  date: Type.String(),
  open: Type.Number(),
  high: Type.Number(),
  low: Type.Number(),
  close: Type.Number(),
  volume: Type.Number(),
});
export type Bar = Static<typeof BarSchema>;

/** paper trades; observe stops at the proposal; watch researches and manages the watchlist, proposing no order. */
export type RunMode = "paper" | "observe" | "watch";

/** An order's life (its statuses, their legal steps and the terminal ones): core/order-lifecycle.ts. */
export type { OrderStatus } from "./order-lifecycle.js";

/** A reference price as of the run's trading day (the last close strictly before it). */
const ReferencePriceSchema = Type.Object({
  symbol: Type.String(),
  /** In the instrument's currency. */
  price: Type.Number({ description: "In the instrument's currency." }),
  /** The bar date the price comes from (YYYY-MM-DD). */
  as_of: Type.String({ description: "The bar date the price comes from (YYYY-MM-DD)." }),
  currency: Type.String(),
  /** Instrument currency → base currency multiplier. */
  fx_to_base: Type.Number({ description: "Instrument currency → base currency multiplier." }),
});
export type ReferencePrice = Static<typeof ReferencePriceSchema>;

/** Where reference prices come from (filled by src/market; read by journal, gate wiring, tools). */
export interface PriceSource {
  referencePrice(symbol: string): ReferencePrice | undefined;
}

// ── The account as the operator sees it (built in src/run/portfolio.ts) ──

const OrNull = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

const HoldingViewSchema = Type.Object({
  symbol: Type.String(),
  quantity: Type.Number(),
  /** Reference price in the instrument's currency; null when unpriced. */
  price: OrNull(Type.Number({ description: "Reference price in the instrument's currency; null when unpriced." })),
  /** In the base currency; null when unpriced. */
  value: OrNull(Type.Number({ description: "In the base currency; null when unpriced." })),
  /** value / portfolio value (0..1); null when unpriced. */
  weight: OrNull(Type.Number({ description: "value / portfolio value (0..1); null when unpriced." })),
  /** Cost basis in the base currency (commission included). */
  cost_basis: Type.Number({ description: "Cost basis in the base currency (commission included)." }),
  unrealised_pnl: OrNull(Type.Number()),
  currency: Type.String(),
});
export type HoldingView = Static<typeof HoldingViewSchema>;

const FillViewSchema = Type.Object({
  at: Type.String(),
  run_id: Type.String(),
  trading_day: Type.String(),
  symbol: Type.String(),
  side: SideSchema,
  quantity: Type.Number(),
  price: Type.Number(),
});
export type FillView = Static<typeof FillViewSchema>;

const PortfolioViewSchema = Type.Object({
  currency: Type.String(),
  cash: Type.Number(),
  value: Type.Number(),
  holdings: Type.Array(HoldingViewSchema),
  /** The fills of the last run before this one that had any. */
  last_fills: Type.Array(FillViewSchema, { description: "The fills of the last run before this one that had any." }),
});
export type PortfolioView = Static<typeof PortfolioViewSchema>;
