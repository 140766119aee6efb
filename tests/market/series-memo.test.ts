/**
 * The market's memos of values of a series as of a day (src/market/series-memo.ts, MarketView's
 * `memoised`): a view of day D never sees, through a memo, a bar of day D or later, whatever the
 * order the days are asked in; and the market-wide tools and the screen, day after day on one
 * market (as a simulation runs them), answer exactly what computing every value afresh answers.
 */
import { describe, expect, it } from "vitest";
import type { Bar } from "../../src/core/domain.js";
import { MarketData, type MarketView } from "../../src/market/data.js";
import { marketSnapshot, SERIES_STATS, type SnapshotSource } from "../../src/market/market-stats.js";
import { marketOverview, volRegime } from "../../src/market/overview.js";
import { VOL_20D } from "../../src/market/realised-vol.js";
import { computeFeatures } from "../../src/market/screen.js";
import { sectorSummary } from "../../src/market/sector.js";
import { SeriesMemo } from "../../src/market/series-memo.js";
import { loadUniverseCsv } from "../../src/market/universe.js";
import { makeScreenHandler } from "../../src/tools/handlers/screen-universe.js";
import type { ToolCallContext } from "../../src/tools/types.js";
import { checked } from "../tools/checked.js";

const market = MarketData.load();
const universe = loadUniverseCsv();
const days = market.calendar.days;
const symbol = universe[0]?.symbol ?? "";

/** A source computing every memo's value from the view's bars, memoising nothing. */
function unmemoised(view: MarketView): SnapshotSource {
  /** `memo`'s value of the bars before the `back`-th last bar before the trading day. */
  const computedFrom = <T>(memo: SeriesMemo<T>, bars: readonly Bar[], back: number): T => {
    const to = bars.length - back;
    return memo.compute(bars.slice(Math.max(0, to - memo.lookback), to));
  };
  return {
    history: (s, limit) => view.history(s, limit),
    memoised: (memo, s) => (market.has(s) ? computedFrom(memo, view.history(s), 0) : undefined),
    memoisedBack: (memo, s, points) => {
      if (!market.has(s)) return undefined;
      const bars = view.history(s);
      const backs = Array.from({ length: Math.min(points, bars.length + 1) }, (_, k) => k).reverse();
      return backs.map((back) => computedFrom(memo, bars, back));
    },
  };
}

describe("a memo of a series as of a day", () => {
  it("hands a view's computation only bars before its trading day, whichever day was asked first", () => {
    const seen: { day: string; dates: string[] }[] = [];
    let day = "";
    const memo = new SeriesMemo(30, 1000, (bars: readonly Bar[]) => {
      seen.push({ day, dates: bars.map((b) => b.date) });
      return bars.map((b) => b.close);
    });
    // Later days first, then earlier ones, then the later ones again (memoised by then).
    const order = [2000, 1500, 40, 3, 1, 0, 1500, 2000, 40].map((i) => days[i] as string);
    for (const d of order) {
      day = d;
      const view = market.asOf(d);
      const before = view.history(symbol);
      const closesBefore = (back: number) => before.slice(0, Math.max(0, before.length - back)).map((b) => b.close);
      expect(view.memoised(memo, symbol)).toEqual(closesBefore(0).slice(-30));
      const points = Math.min(6, before.length + 1);
      const back = Array.from({ length: points }, (_, k) => closesBefore(points - 1 - k).slice(-30));
      expect(view.memoisedBack(memo, symbol, 6)).toEqual(back);
    }
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) for (const date of s.dates) expect(date < s.day).toBe(true);
  });

  it("computes a value once per series and point, for every view of the market", () => {
    let computed = 0;
    const memo = new SeriesMemo(5, 10, (bars: readonly Bar[]) => {
      computed++;
      return bars.length;
    });
    const d = days[100] as string;
    market.asOf(d).memoised(memo, symbol);
    market.asOf(d).memoised(memo, symbol);
    // The next day's value one bar back is this day's.
    market.asOf(days[101] as string).memoisedBack(memo, symbol, 2);
    expect(computed).toBe(2);
    // Another market (its own series) computes its own.
    MarketData.load().asOf(d).memoised(memo, symbol);
    expect(computed).toBe(3);
    expect(market.asOf(d).memoised(memo, "NO-SUCH-SYMBOL")).toBeUndefined();
  });

  it("keeps the last points it was asked for, and computes a dropped one again, to the same value", () => {
    const computedAt: number[] = [];
    const memo = new SeriesMemo(3, 2, (bars: readonly Bar[]) => {
      computedAt.push(bars.length);
      return bars.map((b) => b.close);
    });
    const view = market.asOf(days[50] as string);
    const first = view.memoisedBack(memo, symbol, 3);
    expect(computedAt).toHaveLength(3);
    // The oldest of the three was dropped (two kept): asked again, it is computed again, the same.
    expect(view.memoisedBack(memo, symbol, 3)).toEqual(first);
    expect(computedAt.length).toBeGreaterThan(3);
  });

  it("the statistics and volatility memos give what their computations give", () => {
    for (const i of [0, 1, 2, 21, 252, 300, 1000]) {
      const view = market.asOf(days[i] as string);
      const bars = view.history(symbol);
      expect(view.memoised(SERIES_STATS, symbol)?.features ?? null).toEqual(bars.length > 0 ? computeFeatures(bars) : null);
      expect(view.memoisedBack(VOL_20D, symbol, 252)).toEqual(unmemoised(view).memoisedBack(VOL_20D, symbol, 252));
    }
  });
});

describe("the market-wide tools and the screen, day after day on one market", () => {
  const ctx = (d: string): ToolCallContext => ({ runId: "r", tradingDay: d, seenEvidence: new Set<string>(), pending: [] });
  // Consecutive days, as a simulation asks them (each day's memoised values are mostly the day before's), and a few apart.
  const asked = [...days.slice(290, 330), ...days.slice(10, 30), days[0] as string, days[1] as string, ...days.slice(2500, 2510)];

  const screenOf = (m: MarketData, d: string) =>
    checked("screen_universe", makeScreenHandler({ view: m.asOf(d, { universe }), universe, tradingDay: d, defaultLimit: 50 }))(
      { sort_by: "return_63d_pct", limit: 50 },
      ctx(d),
    );

  it("answer exactly what computing every value afresh answers", () => {
    const sector = universe.find((i) => i.sector && i.sector !== "Index")?.sector ?? "";
    for (const d of asked) {
      const view = market.asOf(d, { universe });
      const memoised = marketSnapshot(universe, view);
      const fresh = marketSnapshot(universe, unmemoised(view));
      expect(marketOverview(memoised)).toEqual(marketOverview(fresh));
      // The volatility regime as computed from the index's closes alone (no memo).
      expect(marketOverview(memoised).volatility).toEqual(volRegime((memoised.index?.bars ?? []).map((b) => b.close)));
      expect(sectorSummary(memoised, sector)).toEqual(sectorSummary(fresh, sector));
      // The screen on a market of its own (no value memoised yet: each computed from that day's bars).
      expect(screenOf(market, d)).toEqual(screenOf(MarketData.load(), d));
    }
  });

  it("an equal-weight index (a universe without one) is computed from its members' bars, not memoised", () => {
    const members = universe.filter((i) => i.sector !== "Index");
    for (const d of days.slice(400, 405)) {
      const view = market.asOf(d, { universe: members });
      const snap = marketSnapshot(members, view);
      expect(snap.index?.derived).toBe("equal_weight");
      expect(marketOverview(snap)).toEqual(marketOverview(marketSnapshot(members, unmemoised(view))));
    }
  });
});
