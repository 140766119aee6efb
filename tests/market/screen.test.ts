/**
 * screen_universe: point-in-time (a property over random days of the bundled data: bars on or after
 * the trading day never change the answer), values that match trading-signals on fixed series, the
 * default screen, ranges and the stated sort.
 */
import fc from "fast-check";
import { getLogReturns, getStandardDeviation, ROC, RSI, SMA } from "trading-signals";
import { describe, expect, it } from "vitest";
import type { Bar } from "../../src/core/domain.js";
import { MarketData } from "../../src/market/data.js";
import { computeFeatures } from "../../src/market/screen.js";
import { makeScreenHandler } from "../../src/tools/handlers/screen-universe.js";
import { loadUniverseCsv } from "../../src/market/universe.js";
import { SCREEN_FEATURE_NAMES } from "../../src/tools/defs/screen-universe.js";
import type { HandlerResult, ToolCallContext } from "../../src/tools/types.js";
import { checked } from "../tools/checked.js";

const market = MarketData.load();
const universe = loadUniverseCsv();
const days = market.calendar.days;
const ctx = (day: string) => ({ runId: "r", tradingDay: day, seenEvidence: new Set<string>(), pending: [] }) as ToolCallContext;

function screen(m: MarketData, day: string, args: Record<string, unknown>): HandlerResult {
  const h = checked("screen_universe", makeScreenHandler({ view: m.asOf(day, { universe }), universe, tradingDay: day, defaultLimit: 10 }));
  return h(args, ctx(day)) as HandlerResult;
}

/** The same market, except every bar on or after `day` is replaced by nonsense. */
function poisonedFrom(day: string): MarketData {
  const bars: Record<string, Bar[]> = {};
  for (const s of market.symbols()) {
    bars[s] = (market.seriesOf(s)?.bars ?? []).map((b) =>
      b.date < day ? b : { date: b.date, open: 1e6, high: 1e6, low: 1e-3, close: b.close * 7.3, volume: b.volume * 1000 + 1 },
    );
  }
  return MarketData.fromBars(bars);
}

const bar = (i: number, close: number, volume = 1000): Bar => {
  const d = new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
  return { date: d, open: close, high: close, low: close, close, volume };
};

describe("screen_universe is point-in-time", () => {
  it("never uses data on or after the trading day (random days, random screens)", () => {
    const dayArb = fc.integer({ min: 1, max: days.length - 1 }).map((i) => days[i] as string);
    const argsArb = fc.record(
      {
        sort_by: fc.constantFrom(...SCREEN_FEATURE_NAMES),
        order: fc.constantFrom("asc", "desc"),
        limit: fc.integer({ min: 1, max: 25 }),
        filters: fc.array(fc.record({ feature: fc.constantFrom(...SCREEN_FEATURE_NAMES), min: fc.integer({ min: -50, max: 50 }) }), {
          minLength: 1,
          maxLength: 2,
        }),
      },
      { requiredKeys: ["sort_by"] },
    );
    fc.assert(
      fc.property(dayArb, argsArb, (day, args) => {
        const real = screen(market, day, args);
        const poisoned = screen(poisonedFrom(day), day, args);
        expect(poisoned).toEqual(real);
        if (real.ok) {
          for (const r of real.data.results as { as_of: string }[]) expect(r.as_of < day).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe("screen_universe values", () => {
  it("match trading-signals on a fixed series", () => {
    const closes = Array.from({ length: 300 }, (_, i) => 100 + 10 * Math.sin(i / 7) + i * 0.2);
    const volumes = Array.from({ length: 300 }, (_, i) => 1000 + (i % 9) * 100);
    const f = computeFeatures(closes.map((c, i) => bar(i, c, volumes[i])));
    const lastOf = (ind: { updates(v: number[], r: boolean): unknown; getResult(): number | null }, v: number[]) => {
      ind.updates(v, false);
      return ind.getResult() as number;
    };
    const close = closes[299] as number;
    const r2 = (x: number) => Math.round(x * 100) / 100;
    expect(f.return_21d_pct).toBe(r2(lastOf(new ROC(21), closes) * 100));
    expect(f.return_63d_pct).toBe(r2((close / (closes[299 - 63] as number) - 1) * 100));
    expect(f.rsi_14).toBe(r2(lastOf(new RSI(14), closes.slice(-253))));
    expect(f.dist_sma50_pct).toBe(r2((close / lastOf(new SMA(50), closes) - 1) * 100));
    expect(f.dist_sma200_pct).toBe(r2((close / lastOf(new SMA(200), closes) - 1) * 100));
    expect(f.volatility_63d_pct).toBe(r2(getStandardDeviation(getLogReturns(closes.slice(-64))) * Math.sqrt(252) * 100));
    expect(f.dist_high_252d_pct).toBe(r2((close / Math.max(...closes.slice(-252)) - 1) * 100));
    const v5 = volumes.slice(-5).reduce((a, b) => a + b, 0) / 5;
    const v20 = volumes.slice(-25, -5).reduce((a, b) => a + b, 0) / 20;
    expect(f.volume_change_pct).toBe(r2((v5 / v20 - 1) * 100));
  });

  it("known values: a steady rise has RSI 100, zero volatility and sits at its high", () => {
    const f = computeFeatures(Array.from({ length: 260 }, (_, i) => bar(i, 100 * 1.01 ** i)));
    expect(f.rsi_14).toBe(100);
    expect(f.volatility_63d_pct).toBe(0);
    expect(f.dist_high_252d_pct).toBe(0);
    expect(f.return_5d_pct).toBe(5.1); // 1.01^5 − 1
    expect(f.volume_change_pct).toBe(0);
  });

  it("a short history leaves the long features undefined", () => {
    const f = computeFeatures(Array.from({ length: 30 }, (_, i) => bar(i, 100 + i)));
    expect(f.dist_sma20_pct).not.toBeNull();
    expect(f.return_63d_pct).toBeNull();
    expect(f.dist_sma200_pct).toBeNull();
    expect(f.dist_high_252d_pct).toBeNull();
  });
});

describe("screen_universe answers", () => {
  const day = "2010-06-01";

  it("{} is the default screen: the top 10 by 3-month return, highest first", () => {
    const r = screen(market, day, {});
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.sort).toEqual({ by: "return_63d_pct", order: "desc" });
    const rows = r.data.results as { rank: number; return_63d_pct: number }[];
    expect(rows.length).toBe(Math.min(10, r.data.matched as number));
    expect(rows.map((x) => x.rank)).toEqual(rows.map((_, i) => i + 1));
    for (let i = 1; i < rows.length; i++)
      expect((rows[i - 1] as { return_63d_pct: number }).return_63d_pct).toBeGreaterThanOrEqual((rows[i] as { return_63d_pct: number }).return_63d_pct);
    expect(String(r.data.evidence_id)).toMatch(/^screen:2010-06-01:/);
  });

  it("filters, sorts ascending and bounds the count", () => {
    const r = screen(market, day, { filters: [{ feature: "rsi_14", min: 30, max: 70 }], sort_by: "volatility_63d_pct", order: "asc", limit: 3 });
    if (!r.ok) throw new Error(r.message);
    const rows = r.data.results as { rsi_14: number; volatility_63d_pct: number }[];
    expect(rows.length).toBeLessThanOrEqual(3);
    for (const x of rows) expect(x.rsi_14 >= 30 && x.rsi_14 <= 70).toBe(true);
    for (let i = 1; i < rows.length; i++)
      expect((rows[i] as { volatility_63d_pct: number }).volatility_63d_pct).toBeGreaterThanOrEqual(
        (rows[i - 1] as { volatility_63d_pct: number }).volatility_63d_pct,
      );
  });

  it("refuses an empty or inverted range and unknown symbols", () => {
    expect(screen(market, day, { filters: [{ feature: "rsi_14" }] })).toMatchObject({ ok: false, code: "invalid_tool_arguments" });
    expect(screen(market, day, { filters: [{ feature: "rsi_14", min: 70, max: 30 }] })).toMatchObject({ ok: false, code: "invalid_tool_arguments" });
    expect(screen(market, day, { symbols: ["NOPE"] })).toMatchObject({ ok: false, code: "unknown_symbol" });
  });
});
