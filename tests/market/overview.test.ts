/**
 * get_market_overview and get_sector_summary: the figures agree with a hand computation on a small
 * fixture market, the volatility regime and the equal-weight index with theirs, and both tools are
 * point in time over the bundled data (a result for day D is unchanged when the bars from D on are
 * altered or removed).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Bar, Instrument } from "../../src/core/domain.js";
import { MarketData } from "../../src/market/data.js";
import { equalWeightBars } from "../../src/market/market-stats.js";
import { volRegime } from "../../src/market/overview.js";
import { loadUniverseCsv } from "../../src/market/universe.js";
import { makeMarketWideHandlers } from "../../src/tools/handlers/market-wide.js";
import type { HandlerResult, ToolCallContext } from "../../src/tools/types.js";
import type { getMarketOverview } from "../../src/tools/defs/get-market-overview.js";
import type { getSectorSummary } from "../../src/tools/defs/get-sector-summary.js";
import type { ResultOf } from "../../src/tools/define.js";
import { checked } from "../tools/checked.js";

const day = (i: number) => new Date(Date.UTC(2019, 0, 1 + i)).toISOString().slice(0, 10);
const series = (closes: readonly number[]): Bar[] => closes.map((c, i) => ({ date: day(i), open: c, high: c, low: c, close: c, volume: 1000 }));
const ctx = (d: string) => ({ runId: "r", tradingDay: d, seenEvidence: new Set<string>(), pending: [] }) as ToolCallContext;

function tools(m: MarketData, universe: readonly Instrument[], tradingDay: string) {
  const h = makeMarketWideHandlers({ view: m.asOf(tradingDay, { universe }), universe, tradingDay });
  return {
    overview: () => checked("get_market_overview", h.get_market_overview)({}, ctx(tradingDay)) as HandlerResult,
    sector: (sector: string) => checked("get_sector_summary", h.get_sector_summary)({ sector }, ctx(tradingDay)) as HandlerResult,
  };
}

/** A successful answer (checked against the tool's output schema by `checked`), typed as that schema. */
function data<T>(r: HandlerResult): T {
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.data as T;
}
type Overview = ResultOf<typeof getMarketOverview>;
type Sector = ResultOf<typeof getSectorSummary>;

describe("the overview's figures agree with a hand computation", () => {
  // 260 days: the index climbs by 1 a day (100 … 359); UP doubles its gains, DOWN falls, FLAT only rises on the last day.
  const n = 260;
  const idx = Array.from({ length: n }, (_, i) => 100 + i);
  const up = Array.from({ length: n }, (_, i) => 50 + 2 * i);
  const down = Array.from({ length: n }, (_, i) => 400 - i);
  const flat = Array.from({ length: n }, (_, i) => (i === n - 1 ? 21 : 20));
  const market = MarketData.fromBars({ IDX: series(idx), UP: series(up), DOWN: series(down), FLAT: series(flat) });
  const universe: Instrument[] = [
    { symbol: "IDX", currency: "USD", name: "Test index", sector: "Index" },
    { symbol: "UP", currency: "USD", name: "Up Co", sector: "Tech" },
    { symbol: "DOWN", currency: "USD", name: "Down Co", sector: "Tech" },
    { symbol: "FLAT", currency: "USD", name: "Flat Co", sector: "Food" },
  ];
  const tradingDay = day(n); // every bar is before it
  const t = tools(market, universe, tradingDay);

  it("index trend: returns over 5/21/63 bars and distances to SMA50/SMA200 of its closes", () => {
    const o = data<Overview>(t.overview());
    // last close 359; 5 bars back 354; 21 back 338; 63 back 296; SMA50 = mean(310..359) = 334.5; SMA200 = mean(160..359) = 259.5
    expect(o.index).toEqual({
      symbol: "IDX",
      name: "Test index",
      derived: "instrument",
      as_of: day(n - 1),
      last_close: 359,
      returns_pct: { "1w": 1.41, "1m": 6.21, "3m": 21.28 },
      dist_sma50_pct: 7.32,
      dist_sma200_pct: 38.34,
    });
    expect(o.evidence_id).toBe(`market:overview:${day(n - 1)}`);
    expect(o.as_of).toBe(day(n - 1));
  });

  it("breadth: advancers and decliners, share above the averages, new 52-week highs and lows (the index not counted)", () => {
    const o = data<Overview>(t.overview());
    expect(o.breadth).toEqual({
      members: 3,
      advancers_1d: 2, // UP, FLAT
      decliners_1d: 1, // DOWN
      advancers_1w: 2,
      decliners_1w: 1,
      above_sma50_pct: 66.67, // UP, FLAT above; DOWN below
      above_sma200_pct: 66.67,
      new_highs_52w: 2, // UP and FLAT (21 is the highest close of the last 252)
      new_lows_52w: 1, // DOWN
    });
  });

  it("each sector's 1w/1m return is the mean of its members'", () => {
    const o = data<Overview>(t.overview());
    // Tech: UP 1w 568/558 = +1.79%, DOWN 141/146 = -3.42% → -0.81 (the mean of the members' rounded returns)
    // UP 1m 568/526 = +7.98%, DOWN 141/162 = -12.96% → -2.49; Food: FLAT 21/20 = +5% both
    expect(o.sectors).toEqual([
      { sector: "Food", members: 1, return_1w_pct: 5, return_1m_pct: 5 },
      { sector: "Tech", members: 2, return_1w_pct: -0.81, return_1m_pct: -2.49 },
    ]);
  });

  it("sector summary: members strongest month first, leaders, laggards and the sector against the index", () => {
    const s = data<Sector>(t.sector("tech"));
    expect(s.sector).toBe("Tech");
    expect(s.members.map((m) => m.symbol)).toEqual(["UP", "DOWN"]);
    expect(s.members[0]).toMatchObject({ symbol: "UP", last_close: 568, return_1w_pct: 1.79, return_1m_pct: 7.98, return_3m_pct: 28.51 });
    expect(s.leaders).toEqual(["UP"]);
    expect(s.laggards).toEqual(["DOWN"]);
    expect(s.sector_returns_pct).toEqual({ "1w": -0.81, "1m": -2.49, "3m": -1.18 });
    expect(s.index_returns_pct).toEqual({ "1w": 1.41, "1m": 6.21, "3m": 21.28 });
    expect(s.relative_pct).toEqual({ "1w": -2.22, "1m": -8.7, "3m": -22.46 });
  });

  it("an unknown sector is refused with the valid sectors (the index's own sector is not one)", () => {
    const r = t.sector("Index");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe("unknown_sector");
    expect(r.details).toEqual({ valid_sectors: ["Food", "Tech"] });
  });

  it("without an Index instrument the index is the equal-weight index of the members", () => {
    const noIndex = universe.filter((i) => i.sector !== "Index");
    const o = data<Overview>(tools(market, noIndex, tradingDay).overview());
    expect(o.index).toMatchObject({ symbol: null, derived: "equal_weight", name: "equal-weight index of 3 instruments" });
  });
});

describe("the equal-weight index", () => {
  it("chains the mean of the members' daily returns from 100", () => {
    const bars = equalWeightBars([series([100, 110, 121]), series([100, 100, 100])]);
    expect(bars.map((b) => b.close)).toEqual([100, 105, 110.25]);
    // a member without a bar on a day is left out of that day's mean
    const gap = equalWeightBars([series([100, 110, 121]), series([50, 45]).slice(0, 1)]);
    expect(gap.map((b) => b.close)).toEqual([100, 110, 121]);
  });
});

describe("the volatility regime", () => {
  // Log returns alternating ±a: any 20 consecutive ones have mean 0 and (population) deviation a.
  const closesOf = (returns: number[]) => {
    const closes = [100];
    for (const r of returns) closes.push((closes.at(-1) as number) * Math.exp(r));
    return closes;
  };
  const alt = (a: number, k: number) => Array.from({ length: k }, (_, i) => (i % 2 === 0 ? a : -a));

  it("20-day volatility against its 1-year median: 3× the median is high", () => {
    const v = volRegime(closesOf([...alt(0.01, 252), ...alt(0.03, 20)]));
    // 0.03 × √252 × 100 = 47.62; the median of the last 252 windows is the calm one, 0.01 × √252 × 100 = 15.87
    expect(v).toEqual({ vol_20d_pct: 47.62, median_1y_pct: 15.87, ratio: 3, regime: "high" });
  });

  it("a calm month after a normal year is low; an unchanged one normal; too short a history has no regime", () => {
    expect(volRegime(closesOf([...alt(0.02, 252), ...alt(0.01, 20)])).regime).toBe("low");
    expect(volRegime(closesOf(alt(0.02, 272))).regime).toBe("normal");
    expect(volRegime(closesOf(alt(0.02, 100)))).toEqual({ vol_20d_pct: 31.75, median_1y_pct: null, ratio: null, regime: null });
  });
});

describe("the market-wide tools are point in time over the bundled data", () => {
  const market = MarketData.load();
  const universe = loadUniverseCsv();
  const days = market.calendar.days;
  const sectors = [...new Set(universe.map((i) => i.sector ?? ""))].filter((s) => s !== "Index");

  /** The same market with every bar on or after `d` altered, or removed. */
  function changedFrom(d: string, how: "alter" | "remove"): MarketData {
    const bars: Record<string, Bar[]> = {};
    for (const s of market.symbols()) {
      const all = market.seriesOf(s)?.bars ?? [];
      bars[s] =
        how === "remove"
          ? all.filter((b) => b.date < d)
          : all.map((b) => (b.date < d ? b : { ...b, open: b.open * 3, high: b.high * 3, low: b.low / 3, close: b.close * 2.7, volume: b.volume + 1 }));
    }
    return MarketData.fromBars(bars);
  }

  it("a result for day D is unchanged when the bars from D on are altered or removed", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: days.length - 1 }).map((i) => days[i] as string),
        fc.constantFrom<"alter" | "remove">("alter", "remove"),
        fc.constantFrom(...sectors),
        (d, how, sector) => {
          const real = tools(market, universe, d);
          const changed = tools(changedFrom(d, how), universe, d);
          const o = real.overview();
          expect(changed.overview()).toEqual(o);
          expect(changed.sector(sector)).toEqual(real.sector(sector));
          if (o.ok) expect(String(o.data.as_of) < d).toBe(true);
        },
      ),
      { numRuns: 12 },
    );
  });
});
