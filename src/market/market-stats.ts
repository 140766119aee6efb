/**
 * The market as a whole, point in time (pure): per-instrument statistics from bars the caller has
 * already cut strictly before the trading day, and the index the overview and the sector summary
 * measure against. The index is the universe's instrument of sector "Index" (the bundled data's
 * S&P 500); a universe without one is measured against the equal-weight index of its members
 * (daily returns averaged over the members with a bar on both days, chained from 100).
 */
import type { Bar, Instrument } from "../core/domain.js";
import type { MarketView } from "./data.js";
import { VOL_20D, type VolsOf } from "./realised-vol.js";
import { computeFeatures, type FeatureRow, SCREEN_LOOKBACK_BARS } from "./screen.js";
import { SeriesMemo } from "./series-memo.js";

/** The bars the longest statistic needs: the 1-year median of the 20-day volatility (252 + 20 + 1), with room. */
const MARKET_LOOKBACK_BARS = 300;
const INDEX_SECTOR = "Index";

/** What a snapshot reads: a point-in-time view's bars (strictly before its trading day) and its memos of them. */
export type SnapshotSource = Pick<MarketView, "history" | "memoised" | "memoisedBack">;

/** What an instrument's statistics take from its bars alone. */
interface SeriesStats {
  as_of: string;
  last_close: number;
  features: FeatureRow;
  /** Percent change of the last close against the one before; null with one bar. */
  change_1d_pct: number | null;
  /** The last close is the highest (lowest) of the last 252 closes; null under 252 bars. */
  new_high_52w: boolean | null;
  new_low_52w: boolean | null;
}

export interface InstrumentStats extends SeriesStats {
  symbol: string;
  name: string;
  sector: string;
}

interface MarketIndex {
  /** The index instrument's symbol; null for the equal-weight index. */
  symbol: string | null;
  name: string;
  derived: "instrument" | "equal_weight";
  bars: readonly Bar[];
  /** The index's screening features (its trend: returns, SMA distances), computed once with the members'. */
  features: FeatureRow;
  /** The instrument's 20-day volatilities, memoised (the equal-weight index's are computed from its bars). */
  volsOf?: VolsOf;
}

export interface MarketSnapshot {
  /** Universe instruments other than the index, with at least one bar before the trading day. */
  members: InstrumentStats[];
  index: MarketIndex | null;
  /** Every sector of the universe's members (the index's own sector excluded), sorted. */
  sectors: string[];
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const sectorOf = (i: Pick<Instrument, "sector">) => i.sector ?? "Unclassified";
const isIndex = (i: Pick<Instrument, "sector">) => sectorOf(i).toLowerCase() === INDEX_SECTOR.toLowerCase();

/** Statistics of bars (oldest first; the last 253 are read); null without a bar. */
function seriesStats(bars: readonly Bar[]): SeriesStats | null {
  const n = bars.length;
  const lastBar = bars[n - 1];
  if (!lastBar) return null;
  const prev = n >= 2 ? (bars[n - 2] as Bar).close : null;
  // The last 252 closes' extremes, read in place (no array of closes, no spread of 252 arguments).
  let high = Number.NEGATIVE_INFINITY;
  let low = Number.POSITIVE_INFINITY;
  for (let i = Math.max(0, n - 252); i < n; i++) {
    const c = (bars[i] as Bar).close;
    if (c > high) high = c;
    if (c < low) low = c;
  }
  const year = n >= 252;
  return {
    as_of: lastBar.date,
    last_close: lastBar.close,
    features: computeFeatures(bars),
    change_1d_pct: prev !== null && prev > 0 ? r2((lastBar.close / prev - 1) * 100) : null,
    new_high_52w: year ? lastBar.close >= high : null,
    new_low_52w: year ? lastBar.close <= low : null,
  };
}

/**
 * A symbol's statistics as of a day (null without a bar before it), memoised: the screen and the
 * market-wide tools of a day read them (features: the last 253 bars; the 52-week extremes: the
 * last 252). A few days of them are kept: a later day asks for its own, unless the series has no
 * newer bar.
 */
export const SERIES_STATS = new SeriesMemo(SCREEN_LOOKBACK_BARS, 4, seriesStats);

/**
 * The equal-weight index of the members' bars: on each day after the first (of the union of their
 * dates, the last `MARKET_LOOKBACK_BARS`), the mean of the daily returns of the members with a bar
 * on that day and on the day before; the level starts at 100. Bars carry the level as every price.
 */
export function equalWeightBars(series: readonly (readonly Bar[])[]): Bar[] {
  const closeOn = series.map((bars) => new Map(bars.map((b) => [b.date, b.close])));
  const days = [...new Set(series.flatMap((bars) => bars.map((b) => b.date)))].sort().slice(-MARKET_LOOKBACK_BARS);
  const out: Bar[] = [];
  let level = 100;
  days.forEach((day, i) => {
    if (i > 0) {
      const before = days[i - 1] as string;
      const rets = closeOn.flatMap((m) => {
        const a = m.get(before);
        const b = m.get(day);
        return a !== undefined && b !== undefined && a > 0 ? [b / a - 1] : [];
      });
      if (rets.length > 0) level *= 1 + rets.reduce((s, r) => s + r, 0) / rets.length;
    }
    const close = Math.round(level * 10000) / 10000;
    out.push({ date: day, open: close, high: close, low: close, close, volume: 0 });
  });
  return out;
}

/** A universe sorted by symbol, once per universe (a run's universe is not changed while it is used). */
const bySymbol = new WeakMap<readonly Instrument[], readonly Instrument[]>();
function sortedBySymbol(universe: readonly Instrument[]): readonly Instrument[] {
  let sorted = bySymbol.get(universe);
  if (!sorted) {
    sorted = [...universe].sort((a, b) => a.symbol.localeCompare(b.symbol));
    bySymbol.set(universe, sorted);
  }
  return sorted;
}

/** The snapshot of the universe as of the view. */
export function marketSnapshot(universe: readonly Instrument[], view: SnapshotSource): MarketSnapshot {
  const members: InstrumentStats[] = [];
  let index: MarketIndex | null = null;
  for (const inst of sortedBySymbol(universe)) {
    if (isIndex(inst)) {
      if (index) continue;
      const bars = view.history(inst.symbol, MARKET_LOOKBACK_BARS);
      if (bars.length === 0) continue;
      const features = view.memoised(SERIES_STATS, inst.symbol)?.features ?? computeFeatures(bars);
      const volsOf: VolsOf = (windows) => view.memoisedBack(VOL_20D, inst.symbol, windows) ?? [];
      index = { symbol: inst.symbol.toUpperCase(), name: inst.name ?? inst.symbol, derived: "instrument", bars, features, volsOf };
      continue;
    }
    const stats = view.memoised(SERIES_STATS, inst.symbol);
    if (!stats) continue;
    members.push({ symbol: inst.symbol.toUpperCase(), name: inst.name ?? inst.symbol.toUpperCase(), sector: sectorOf(inst), ...stats });
  }
  if (!index && members.length > 0) {
    const memberBars = members.map((m) => view.history(m.symbol, MARKET_LOOKBACK_BARS));
    const bars = equalWeightBars(memberBars);
    // The equal-weight index is no instrument: its features are its own bars'.
    index = { symbol: null, name: `equal-weight index of ${members.length} instruments`, derived: "equal_weight", bars, features: computeFeatures(bars) };
  }
  const sectors = [...new Set(universe.filter((i) => !isIndex(i)).map(sectorOf))].sort();
  return { members, index, sectors };
}

/** The mean of the defined values, 2 decimals; null when none is. */
export function meanOf(values: readonly (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return xs.length === 0 ? null : r2(xs.reduce((s, x) => s + x, 0) / xs.length);
}
