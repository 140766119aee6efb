/**
 * A small fake world for agent tests: an account, a universe with synthetic closes, read-tool
 * handlers with the real contracts' output shapes, a tiny gate (price band, position limit, cash, no
 * shorting), and the real `buildToolRuntime` + `makeSubmitHandler` on top.
 */
import type { ProposedOrder } from "../../src/core/domain.js";
import type { BlockReason, GateDecision } from "../../src/core/gate-types.js";
import { makeSubmitHandler, flattenDecision, type SubmitHandler } from "../../src/agent/submit.js";
import { buildToolRuntime, type ToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";
import { type CorpusItem, EmbeddedProvider } from "../../src/research/embedded.js";
import { mentionsOf } from "../../src/research/mentions.js";
import { makeSearchNewsHandler } from "../../src/tools/handlers/search-news.js";
import { checked } from "../tools/checked.js";

export interface WorldOptions {
  cash?: number;
  holdings?: { symbol: string; quantity: number }[];
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

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r2 = (n: number) => Math.round(n * 100) / 100;

export function summary(symbol: string, closes: number[], day: string): Record<string, unknown> {
  const lastClose = closes[closes.length - 1] as number;
  const ret = (bars: number) => r2(((lastClose / (closes[Math.max(0, closes.length - 1 - bars)] as number)) - 1) * 100);
  const high = Math.max(...closes);
  return {
    evidence_id: `price:${symbol}:${day}`,
    symbol,
    as_of: "2024-05-03",
    last_close: lastClose,
    returns_pct: { "1w": ret(5), "1m": ret(21), "3m": ret(63), "6m": ret(closes.length - 1) },
    sma20: r2(mean(closes.slice(-20))),
    sma50: r2(mean(closes.slice(-50))),
    high_6m: high,
    low_6m: Math.min(...closes),
    drawdown_from_high_pct: r2(((high - lastClose) / high) * 100),
    volatility_annual_pct: 20,
    last_closes: closes.slice(-10),
  };
}

export interface World {
  runtime: ToolRuntime;
  submit: SubmitHandler;
  evaluate: (orders: ProposedOrder[]) => GateDecision[];
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
  const price = (s: string) => {
    const c = opts.series[s];
    return c ? (c[c.length - 1] as number) : undefined;
  };
  const value = () => opts.cash + opts.holdings.reduce((a, h) => a + h.quantity * (price(h.symbol) ?? 0), 0);
  const handlerCalls: Record<string, number> = {};
  const count = (n: string) => {
    handlerCalls[n] = (handlerCalls[n] ?? 0) + 1;
  };

  const evaluate = (orders: ProposedOrder[]): GateDecision[] => {
    let cash = opts.cash;
    return orders.map((order) => {
      const reasons: BlockReason[] = [];
      const ref = price(order.symbol);
      const notional = order.quantity * order.limit_price;
      if (ref === undefined) reasons.push({ code: "not_allowlisted", message: `${order.symbol} is not allowlisted` });
      else {
        const dev = Math.abs(order.limit_price / ref - 1) * 100;
        if (dev > opts.maxDeviationPct) reasons.push({ code: "price_band", message: `limit ${order.limit_price} is ${dev.toFixed(2)}% from ${ref} (max ${opts.maxDeviationPct}%)` });
        const held = opts.holdings.find((h) => h.symbol === order.symbol)?.quantity ?? 0;
        if (order.side === "BUY") {
          const after = (held * ref + notional) / value();
          if (after * 100 > opts.maxPositionPct) reasons.push({ code: "position_limit", message: `position would be ${(after * 100).toFixed(2)}% (max ${opts.maxPositionPct}%)` });
          if (notional > cash) reasons.push({ code: "insufficient_cash", message: `needs ${notional}, cash ${cash}` });
        } else if (order.quantity > held) {
          reasons.push({ code: "no_shorting", message: `sells ${order.quantity}, holds ${held}` });
        }
      }
      if (reasons.length === 0 && order.side === "BUY") cash -= notional;
      return { order: { ...order }, approved: reasons.length === 0, reasons, notional, commission: 1 };
    });
  };

  const handlers: Record<string, ToolHandler> = {
    get_portfolio: () => {
      count("get_portfolio");
      const id = `portfolio:${day}`;
      return {
        ok: true,
        evidenceIds: [id],
        data: {
          evidence_id: id,
          as_of: "2024-05-03",
          base_currency: "USD",
          cash: opts.cash,
          value: r2(value()),
          peak: r2(value()),
          drawdown_pct: 0,
          max_drawdown_pct: 15,
          trading_state: opts.tradingState,
          orders_used_this_month: 0,
          orders_left_this_month: opts.ordersLeft,
          holdings: opts.holdings.map((h) => ({ symbol: h.symbol, quantity: h.quantity, price: price(h.symbol) })),
          recent_activity: [],
        },
      };
    },
    list_universe: () => {
      count("list_universe");
      const instruments = Object.keys(opts.series).map((s) => ({ symbol: s, name: s, sector: "Test", currency: "USD", reference_price: price(s), price_as_of: "2024-05-03" }));
      return { ok: true, data: { instruments, total: instruments.length, returned: instruments.length } };
    },
    get_price_history: (args) => {
      count("get_price_history");
      const symbol = String(args.symbol).toUpperCase();
      const closes = opts.series[symbol];
      if (!closes) return { ok: false, code: "unknown_symbol", message: `${symbol} is not in the universe` };
      const s = summary(symbol, closes, day);
      return { ok: true, data: s, evidenceIds: [String(s.evidence_id)] };
    },
    search_news: checked(
      "search_news",
      makeSearchNewsHandler({
        setup: { provider: new EmbeddedProvider(opts.news), providerName: "embedded", policy: { block: [], allow: [] }, undated: "exclude" },
        tradingDay: day,
      }),
    ),
    remember: () => ({ ok: true, data: { id: "note-1" } }),
    recall: () => ({ ok: true, data: { notes: [] } }),
    // Tools the scripted policies do not use (their behaviour is tested with the real handlers elsewhere).
    screen_universe: () => ({ ok: true, data: { results: [] } }),
    execute_code: () => ({ ok: true, data: { result: null } }),
    get_watchlist: () => ({ ok: true, data: { items: [] } }),
    add_watchlist: () => ({ ok: true, data: { item: {} } }),
    remove_watchlist: () => ({ ok: true, data: { item: {} } }),
    place_standing_order: () => ({ ok: true, data: { standing_order: {} } }),
    list_standing_orders: () => ({ ok: true, data: { standing_orders: [] } }),
    cancel_standing_order: () => ({ ok: true, data: { standing_order: {} } }),
    check_orders: (args) => {
      count("check_orders");
      const decisions = evaluate(args.orders as ProposedOrder[]);
      return { ok: true, data: { all_approved: decisions.every((d) => d.approved), decisions: decisions.map(flattenDecision) } };
    },
    ...extra.handlers,
  };
  const submit = makeSubmitHandler({ evaluateOrders: evaluate });
  const submitCounted: ToolHandler = (args, ctx) => {
    count("submit_orders");
    return submit(args, ctx);
  };
  const runtime = buildToolRuntime(
    { ...handlers, submit_orders: extra.handlers?.submit_orders ?? submitCounted },
    {
      runId: "run-test",
      tradingDay: day,
      budgetChars: extra.budgetChars ?? 20_000,
      subjectsOf: mentionsOf(Object.keys(opts.series).map((symbol) => ({ symbol }))),
    },
  );
  return { runtime, submit, evaluate, handlerCalls, opts };
}
