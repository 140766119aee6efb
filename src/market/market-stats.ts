/**
 * The market as a whole, point in time (pure): per-instrument statistics from bars the caller has
 * already cut strictly before the trading day, and the index the overview and the sector summary
 * measure against. The index is the universe's instrument of sector "Index" (the bundled data's
 * S&P 500); a universe without one is measured against the equal-weight index of its members
 * (daily returns averaged over the members with a bar on both days, chained from 100).
 */
import type { Bar, Instrument } from "../core/domain.js";
import { computeFeatures, type FeatureRow } from "./screen.js";

/** The bars the longest statistic needs: the 1-year median of the 20-day volatility (252 + 20 + 1), with room. */
export const MARKET_LOOKBACK_BARS = 300;
const INDEX_SECTOR = "Index";

/** Bars of one symbol strictly before the trading day, the last `limit` of them (a MarketView's `history`). */
export type HistoryOf = (symbol: string, limit: number) => readonly Bar[];

/** The screening features of a symbol's bars (computeFeatures, or a run's memo of it: run/run-features.ts). */
export type FeaturesOf = (symbol: string, bars: readonly Bar[]) => FeatureRow;
const computeOf: FeaturesOf = (_symbol, bars) => computeFeatures(bars);

export interface InstrumentStats {
  symbol: string;
  name: string;
  sector: string;
  as_of: string;
  last_close: number;
  features: FeatureRow;
  /** Percent change of the last close against the one before; null with one bar. */
  change_1d_pct: number | null;
  /** The last close is the highest (lowest) of the last 252 closes; null under 252 bars. */
  new_high_52w: boolean | null;
  new_low_52w: boolean | null;
}

interface MarketIndex {
  /** The index instrument's symbol; null for the equal-weight index. */
  symbol: string | null;
  name: string;
  derived: "instrument" | "equal_weight";
  bars: readonly Bar[];
  /** The index's screening features (its trend: returns, SMA distances), computed once with the members'. */
  features: FeatureRow;
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

/** Statistics of one instrument from its bars (oldest first); null without a bar. */
function instrumentStats(inst: Instrument, bars: readonly Bar[], featuresOf: FeaturesOf): InstrumentStats | null {
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
    symbol: inst.symbol.toUpperCase(),
    name: inst.name ?? inst.symbol.toUpperCase(),
    sector: sectorOf(inst),
    as_of: lastBar.date,
    last_close: lastBar.close,
    features: featuresOf(inst.symbol, bars),
    change_1d_pct: prev !== null && prev > 0 ? r2((lastBar.close / prev - 1) * 100) : null,
    new_high_52w: year ? lastBar.close >= high : null,
    new_low_52w: year ? lastBar.close <= low : null,
  };
}

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

/** The snapshot of the universe as of the view the `history` function reads. */
export function marketSnapshot(universe: readonly Instrument[], history: HistoryOf, featuresOf: FeaturesOf = computeOf): MarketSnapshot {
  const members: InstrumentStats[] = [];
  const memberBars: (readonly Bar[])[] = [];
  let index: Omit<MarketIndex, "features"> | null = null;
  for (const inst of [...universe].sort((a, b) => a.symbol.localeCompare(b.symbol))) {
    const bars = history(inst.symbol, MARKET_LOOKBACK_BARS);
    if (isIndex(inst)) {
      if (!index && bars.length > 0) index = { symbol: inst.symbol.toUpperCase(), name: inst.name ?? inst.symbol, derived: "instrument", bars };
      continue;
    }
    const stats = instrumentStats(inst, bars, featuresOf);
    if (!stats) continue;
    members.push(stats);
    memberBars.push(bars);
  }
  if (!index && memberBars.length > 0) {
    index = { symbol: null, name: `equal-weight index of ${memberBars.length} instruments`, derived: "equal_weight", bars: equalWeightBars(memberBars) };
  }
  const sectors = [...new Set(universe.filter((i) => !isIndex(i)).map(sectorOf))].sort();
  // The equal-weight index is no instrument: its features are named so no symbol's can stand for them.
  return { members, index: index && { ...index, features: featuresOf(index.symbol ?? "=equal-weight", index.bars) }, sectors };
}

/** The mean of the defined values, 2 decimals; null when none is. */
export function meanOf(values: readonly (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return xs.length === 0 ? null : r2(xs.reduce((s, x) => s + x, 0) / xs.length);
}
