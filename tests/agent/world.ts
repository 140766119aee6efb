/**
 * A small world for agent tests, built from the real parts: synthetic daily bars in a real
 * `MarketData`, the real market tools (`list_universe`, `get_price_history`: the real summaries),
 * the real gate inputs (`buildGateInputs`, as a run builds them) with the built-in limits and the
 * simulated broker's built-in commission schedule, the real gate behind `check_orders` and the
 * `submit_orders` bounce, and the real `buildToolRuntime` + `makeSubmitHandler` on top. No product
 * rule is re-implemented here: the world only chooses the facts (cash, holdings, closes, state).
 *
 * `get_portfolio` is a row built from the same facts (the journal's snapshot needs a journal); its
 * value is the gate's own valuation of those facts.
 */
import type { Bar, Instrument, ProposedOrder } from "../../src/core/domain.js";
import { type GateDecision, type GateOrder, evaluate, portfolioValue } from "../../src/gate/index.js";
import { makeCheckOrdersHandler } from "../../src/tools/handlers/check-orders.js";
import { makeMarketWideHandlers } from "../../src/tools/handlers/market-wide.js";
import { makeMarketToolHandlers } from "../../src/tools/handlers/market.js";
import { defaultConfig, limitsOf } from "../../src/config/load.js";
import { MarketData } from "../../src/market/index.js";
import { buildGateInputs, type GateInputSnapshot } from "../../src/run/gate-inputs.js";
import { makeSubmitHandler, type SubmitHandler } from "../../src/agent/submit.js";
import { buildToolRuntime, type ToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";
import { type CorpusItem, EmbeddedProvider } from "../../src/research/embedded.js";
import { mentionsOf } from "../../src/research/mentions.js";
import { makeSearchNewsHandler } from "../../src/tools/handlers/search-news.js";
import { makeScreenHandler } from "../../src/tools/handlers/screen-universe.js";
import { SCREEN_DEFAULT_LIMIT } from "../../src/tools/defs/screen-universe.js";
import { checked } from "../tools/checked.js";
import { dispatchable } from "../../src/tools/define.js";

export interface WorldOptions {
  cash?: number;
  holdings?: { symbol: string; quantity: number }[];
  /** Daily closes per symbol, oldest first; the last one is the close of the day before the trading day. */
  series?: Record<string, number[]>;
  tradingDay?: string;
  tradingState?: "ACTIVE" | "REDUCING" | "HALTED";
  ordersLeft?: number;
  maxPositionPct?: number;
  maxDeviationPct?: number;
  /** The news the world's search_news finds (the real handler over an embedded corpus). */
  news?: CorpusItem[];
}

/** Deterministic closes: a drift per bar and a small wiggle. */
export function series(start: number, driftPerBar: number, bars = 130): number[] {
  const out: number[] = [];
  let p = start;
  for (let i = 0; i < bars; i++) {
    p *= 1 + driftPerBar;
    out.push(Math.round(p * (1 + 0.004 * Math.sin(i * 1.7)) * 100) / 100);
  }
  return out;
}

export const UP = () => series(100, 0.004);
export const DOWN = () => series(100, -0.003);

const DAY_MS = 86_400_000;

/** The `n` weekdays strictly before `day` (ISO dates, oldest first). */
export function weekdaysBefore(day: string, n: number): string[] {
  const out: string[] = [];
  let t = Date.parse(`${day}T00:00:00Z`);
  while (out.length < n) {
    t -= DAY_MS;
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out.reverse();
}

/** Closes → daily bars ending on the last weekday before the trading day. */
export function barsOf(closes: number[], tradingDay: string): Bar[] {
  const days = weekdaysBefore(tradingDay, closes.length);
  return closes.map((close, i) => ({ date: days[i] as string, open: close, high: close, low: close, close, volume: 1_000_000 }));
}

export interface World {
  runtime: ToolRuntime;
  submit: SubmitHandler;
  /** The gate's dry run on the world's state (the real `evaluate` on the real gate inputs). */
  evaluate: (orders: ProposedOrder[]) => GateDecision[];
  /** The gate inputs the world's gate sees (state, market, limits, universe, commission). */
  gateInputs: () => GateInputSnapshot;
  market: MarketData;
  universe: Instrument[];
  handlerCalls: Record<string, number>;
  opts: Required<WorldOptions>;
}

export function makeWorld(o: WorldOptions = {}, extra: { budgetChars?: number; handlers?: Partial<Record<string, ToolHandler>> } = {}): World {
  const opts: Required<WorldOptions> = {
    cash: o.cash ?? 100_000,
    holdings: o.holdings ?? [],
    series: o.series ?? { ALFA: UP(), BETA: DOWN(), GAMA: UP().map((x) => x * 0.5) },
    tradingDay: o.tradingDay ?? "2024-05-06",
    tradingState: o.tradingState ?? "ACTIVE",
    ordersLeft: o.ordersLeft ?? 10,
    maxPositionPct: o.maxPositionPct ?? 10,
    maxDeviationPct: o.maxDeviationPct ?? 2,
    news: o.news ?? [],
  };
  const day = opts.tradingDay;
  const symbols = Object.keys(opts.series);
  const universe: Instrument[] = symbols.map((symbol) => ({ symbol, name: symbol, sector: "Test", currency: "USD" }));
  const market = MarketData.fromBars(Object.fromEntries(symbols.map((s) => [s, barsOf(opts.series[s] as number[], day)])));
  const prices = market.asOf(day, { universe, baseCurrency: "USD" });

  // The built-in configuration, with the world's two limits; the simulated broker's fee schedule.
  const config = defaultConfig();
  const defaults = limitsOf(config);
  const limits = {
    ...defaults,
    max_position_pct: opts.maxPositionPct,
    max_price_deviation_pct: opts.maxDeviationPct,
    max_orders_per_month: Math.max(defaults.max_orders_per_month, opts.ordersLeft),
  };
  const ordersThisMonth = limits.max_orders_per_month - opts.ordersLeft;
  const holdings = Object.fromEntries(opts.holdings.map((h) => [h.symbol, { quantity: h.quantity }]));
  const facts = (peak: number) => ({ cash: opts.cash, holdings, peak, ordersThisMonth, tradingState: opts.tradingState });
  const inputsAt = (peak: number): GateInputSnapshot =>
    buildGateInputs({ facts: facts(peak), openOrders: [], prices, universe, limits, schedule: config.broker.sim, tradingDay: day });
  // The peak is today's value (no drawdown), valued by the gate itself.
  const probe = inputsAt(0);
  const value = portfolioValue(probe.state, probe.market, limits.base_currency);
  const gateInputs = () => inputsAt(value);

  const handlerCalls: Record<string, number> = {};
  const counted =
    (name: string, h: ToolHandler): ToolHandler =>
    (args, ctx) => {
      handlerCalls[name] = (handlerCalls[name] ?? 0) + 1;
      return h(args, ctx);
    };

  const evaluateOrders = (orders: ProposedOrder[]): GateDecision[] => {
    const g = gateInputs();
    const gateOrders: GateOrder[] = orders.map((order) => ({ ...order }));
    return evaluate(gateOrders, g.state, g.market, g.limits, g.universe, { commission: g.commission }).decisions;
  };
  const marketTools = makeMarketToolHandlers({ market, universe, tradingDay: day, baseCurrency: "USD" });
  const wide = dispatchable(makeMarketWideHandlers({ view: prices, universe, tradingDay: day }));

  const handlers: Record<string, ToolHandler> = {
    get_portfolio: counted("get_portfolio", () => {
      const id = `portfolio:${day}`;
      const g = gateInputs();
      return {
        ok: true,
        evidenceIds: [id],
        data: {
          evidence_id: id,
          as_of: day,
          base_currency: limits.base_currency,
          cash: opts.cash,
          value,
          peak: value,
          drawdown_pct: 0,
          max_drawdown_pct: limits.max_drawdown_pct,
          trading_state: opts.tradingState,
          orders_used_this_month: ordersThisMonth,
          orders_left_this_month: opts.ordersLeft,
          holdings: opts.holdings.map((h) => ({ symbol: h.symbol, quantity: h.quantity, reference_price: g.market[h.symbol]?.price ?? null })),
          recent_activity: [],
        },
      };
    }),
    list_universe: counted("list_universe", marketTools.list_universe),
    get_market_overview: counted("get_market_overview", wide.get_market_overview as ToolHandler),
    get_sector_summary: counted("get_sector_summary", wide.get_sector_summary as ToolHandler),
    // The holding as get_position answers it, without the journal's depth (tested with the real handler elsewhere).
    get_position: counted("get_position", (args) => {
      const symbol = String(args.symbol);
      const q = opts.holdings.find((h) => h.symbol === symbol)?.quantity;
      const id = `position:${symbol}:${day}`;
      return {
        ok: true,
        evidenceIds: [id],
        data: {
          evidence_id: id,
          symbol,
          name: symbol,
          held: q !== undefined,
          base_currency: "USD",
          as_of: day,
          position: null,
          standing_orders: [],
          watchlist: [],
          notes: [],
        },
      };
    }),
    get_price_history: counted("get_price_history", dispatchable(marketTools).get_price_history as ToolHandler),
    search_news: checked(
      "search_news",
      makeSearchNewsHandler({
        setup: { provider: new EmbeddedProvider(opts.news), providerName: "embedded", policy: { block: [], allow: [] }, undated: "exclude" },
        tradingDay: day,
      }),
    ),
    remember: () => ({ ok: true, data: { id: "note-1" } }),
    recall: () => ({ ok: true, data: { notes: [] } }),
    screen_universe: counted(
      "screen_universe",
      dispatchable({ screen_universe: makeScreenHandler({ view: prices, universe, tradingDay: day, defaultLimit: SCREEN_DEFAULT_LIMIT }) })
        .screen_universe as ToolHandler,
    ),
    // Tools the scripted policies do not use (their behaviour is tested with the real handlers elsewhere).
    execute_code: () => ({ ok: true, data: { result: null } }),
    get_watchlist: () => ({ ok: true, data: { items: [] } }),
    add_watchlist: () => ({ ok: true, data: { item: {} } }),
    remove_watchlist: () => ({ ok: true, data: { item: {} } }),
    place_standing_order: () => ({ ok: true, data: { standing_order: {} } }),
    list_standing_orders: () => ({ ok: true, data: { standing_orders: [] } }),
    cancel_standing_order: () => ({ ok: true, data: { standing_order: {} } }),
    get_proposal_status: () => ({ ok: true, data: { run_id: null, trading_day: null, status: "none", decided_by_run: null, orders: [], message: "none" } }),
    check_orders: counted("check_orders", dispatchable({ check_orders: makeCheckOrdersHandler(gateInputs) }).check_orders as ToolHandler),
    ...extra.handlers,
  };
  const submit = makeSubmitHandler({ evaluateOrders });
  const runtime = buildToolRuntime(
    { ...handlers, submit_orders: extra.handlers?.submit_orders ?? counted("submit_orders", submit) },
    {
      runId: "run-test",
      tradingDay: day,
      budgetChars: extra.budgetChars ?? 20_000,
      subjectsOf: mentionsOf(symbols.map((symbol) => ({ symbol }))),
    },
  );
  return { runtime, submit, evaluate: evaluateOrders, gateInputs, market, universe, handlerCalls, opts };
}
