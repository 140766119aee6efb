/**
 * Handlers of the market tools (`list_universe`, `get_price_history`), bound to a run's market
 * view. They only ever see bars strictly before the run's trading day. Argument validation against
 * the contract is the tool layer's job; these handlers still read their arguments defensively.
 * Per-run call limits are enforced by the tool layer.
 */
import type { Instrument } from "../../core/domain.js";
import type { getPriceHistory } from "../defs/get-price-history.js";
import type { listUniverse } from "../defs/list-universe.js";
import type { AnswerOf, HandlerOf } from "../define.js";
import type { MarketData, MarketView, ViewOptions } from "../../market/data.js";
import { DEFAULT_LOOKBACK_DAYS, SUMMARY_MAX_BARS, summarizeHistory } from "../../market/summary.js";

const LIST_UNIVERSE_DEFAULT_LIMIT = 20;
const LIST_UNIVERSE_MAX_LIMIT = 50;

export interface MarketToolDeps {
  market: MarketData;
  /** The allowlist: only these symbols are visible to the model. */
  universe: readonly Instrument[];
  /** The run's trading day (YYYY-MM-DD): tools see bars strictly before it. */
  tradingDay: string;
  baseCurrency?: string;
  fxToBase?: ViewOptions["fxToBase"];
}

export interface MarketToolHandlers {
  list_universe: HandlerOf<typeof listUniverse>;
  get_price_history: HandlerOf<typeof getPriceHistory>;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim().length > 0 ? v.trim() : undefined);
const int = (v: unknown, dflt: number, min: number, max: number): number =>
  typeof v === "number" && Number.isFinite(v) ? Math.max(min, Math.min(max, Math.floor(v))) : dflt;

/**
 * A page of the universe as list_universe answers it. A field every row shares (currency, exchange,
 * price date: a listing of one market repeats them otherwise) is stated once at the top and left
 * out of the rows.
 */
function listing(instrumentsOnPage: readonly Instrument[], view: MarketView) {
  const page = instrumentsOnPage.map((i) => {
    const ref = view.referencePrice(i.symbol);
    return { i, currency: i.currency, exchange: i.exchange ?? null, price_as_of: ref?.as_of ?? null, price: ref?.price ?? null };
  });
  const first = page[0];
  const same = (k: "currency" | "exchange" | "price_as_of") => first !== undefined && page.length > 1 && page.every((r) => r[k] === first[k]);
  const [oneCurrency, oneExchange, oneDate] = [same("currency"), same("exchange"), same("price_as_of")];
  const shared = {
    ...(first && oneCurrency ? { currency: first.currency } : {}),
    ...(first && oneExchange ? { exchange: first.exchange } : {}),
    ...(first && oneDate ? { price_as_of: first.price_as_of } : {}),
  };
  const instruments = page.map((r) => ({
    symbol: r.i.symbol.toUpperCase(),
    name: r.i.name ?? r.i.symbol,
    sector: r.i.sector ?? "Unclassified",
    ...(oneCurrency ? {} : { currency: r.currency }),
    ...(oneExchange ? {} : { exchange: r.exchange }),
    ...(r.i.note ? { note: r.i.note } : {}),
    reference_price: r.price,
    ...(oneDate ? {} : { price_as_of: r.price_as_of }),
  }));
  return { shared, instruments };
}

export function makeMarketToolHandlers(deps: MarketToolDeps): MarketToolHandlers {
  const view = deps.market.asOf(deps.tradingDay, {
    universe: deps.universe,
    ...(deps.baseCurrency ? { baseCurrency: deps.baseCurrency } : {}),
    ...(deps.fxToBase ? { fxToBase: deps.fxToBase } : {}),
  });
  const bySymbol = new Map(deps.universe.map((i) => [i.symbol.toUpperCase(), i]));
  const allSectors = [...new Set(deps.universe.map((i) => i.sector ?? "Unclassified"))].sort();

  const list_universe: HandlerOf<typeof listUniverse> = (args): AnswerOf<typeof listUniverse> => {
    const sector = str(args.sector)?.toLowerCase();
    const query = str(args.query)?.toLowerCase();
    const symbols = Array.isArray(args.symbols)
      ? new Set(args.symbols.filter((s): s is string => typeof s === "string").map((s) => s.trim().toUpperCase()))
      : undefined;
    const limit = int(args.limit, LIST_UNIVERSE_DEFAULT_LIMIT, 1, LIST_UNIVERSE_MAX_LIMIT);
    const offset = int(args.offset, 0, 0, Number.MAX_SAFE_INTEGER);

    const matching = deps.universe.filter((i) => {
      if (sector && (i.sector ?? "Unclassified").toLowerCase() !== sector) return false;
      if (symbols && !symbols.has(i.symbol.toUpperCase())) return false;
      if (query && !i.symbol.toLowerCase().includes(query) && !(i.name ?? "").toLowerCase().includes(query)) return false;
      return true;
    });
    const { shared, instruments } = listing(matching.slice(offset, offset + limit), view);
    return {
      ok: true,
      data: {
        ...shared,
        instruments,
        total: matching.length,
        returned: instruments.length,
        offset,
        sectors: allSectors,
        ...(offset + instruments.length < matching.length ? { next_offset: offset + instruments.length } : {}),
      },
    };
  };

  const get_price_history: HandlerOf<typeof getPriceHistory> = (args): AnswerOf<typeof getPriceHistory> => {
    const symbol = str(args.symbol)?.toUpperCase();
    if (!symbol || !bySymbol.has(symbol)) {
      return {
        ok: false,
        code: "unknown_symbol",
        message: `${symbol ?? String(args.symbol)} is not in the allowlisted universe`,
      };
    }
    const lookback = int(args.lookback_days, DEFAULT_LOOKBACK_DAYS, 1, Number.MAX_SAFE_INTEGER);
    // Only the bars a summary can read (not the whole history, decoded and copied on every call).
    const bars = view.history(symbol, SUMMARY_MAX_BARS);
    const res = summarizeHistory(symbol, bars, deps.tradingDay, lookback);
    if (!res.ok) return { ok: false, code: "data_unavailable", message: res.reason };
    return {
      ok: true,
      data: { ...res.summary, currency: view.currencyOf(symbol) },
      evidenceIds: [res.summary.evidence_id],
    };
  };

  return { list_universe, get_price_history };
}
