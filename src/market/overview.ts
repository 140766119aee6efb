/**
 * The market overview (pure): the index's trend, the breadth of the universe, the realised
 * volatility regime and each sector's returns, from a point-in-time snapshot (./market-stats.ts).
 * Indicators from ./indicators.ts (the screen's features) and ./realised-vol.ts (the 20-day volatility).
 */
import type { Bar } from "../core/domain.js";
import { type InstrumentStats, type MarketSnapshot, meanOf } from "./market-stats.js";
import { VOL_WINDOW, type VolsOf, volsOfCloses } from "./realised-vol.js";

/** How many 20-day volatilities (realised-vol.ts) make the 1-year median. */
const VOL_YEAR = 252;
/** Regime: current 20-day volatility under LOW × its 1-year median is low, over HIGH × it is high. */
const VOL_LOW_RATIO = 0.8;
const VOL_HIGH_RATIO = 1.25;

const r2 = (x: number) => Math.round(x * 100) / 100;

export interface IndexTrend {
  symbol: string | null;
  name: string;
  derived: "instrument" | "equal_weight";
  as_of: string;
  last_close: number;
  returns_pct: { "1w": number | null; "1m": number | null; "3m": number | null };
  dist_sma50_pct: number | null;
  dist_sma200_pct: number | null;
}

interface Breadth {
  members: number;
  advancers_1d: number;
  decliners_1d: number;
  advancers_1w: number;
  decliners_1w: number;
  /** Percent of the members with the history for the average whose last close is above it; null when none has. */
  above_sma50_pct: number | null;
  above_sma200_pct: number | null;
  new_highs_52w: number;
  new_lows_52w: number;
}

interface VolRegime {
  /** Annualised volatility of the last 20 daily log returns, percent (population deviation × √252). */
  vol_20d_pct: number | null;
  /** Median of that volatility over the last 252 trading days. */
  median_1y_pct: number | null;
  ratio: number | null;
  regime: "low" | "normal" | "high" | null;
}

interface SectorReturns {
  sector: string;
  members: number;
  /** Equal-weight mean of the members' 5- and 21-day returns, percent. */
  return_1w_pct: number | null;
  return_1m_pct: number | null;
}

export interface MarketOverview {
  as_of: string | null;
  index: IndexTrend | null;
  breadth: Breadth;
  volatility: VolRegime;
  sectors: SectorReturns[];
}

/**
 * The 20-day volatility now, its median over the last year, and the regime their ratio gives.
 * `volsOf` gives the closes' 20-day volatilities (a memo of the index series' when it has one:
 * market-stats.ts); by default they are computed from the closes.
 */
export function volRegime(closes: readonly number[], volsOf: VolsOf = volsOfCloses(closes)): VolRegime {
  const n = closes.length;
  if (n < VOL_WINDOW + 1) return { vol_20d_pct: null, median_1y_pct: null, ratio: null, regime: null };
  const yearKnown = n >= VOL_WINDOW + VOL_YEAR;
  const vols = volsOf(yearKnown ? VOL_YEAR : 1);
  const now = vols[vols.length - 1] as number;
  if (!yearKnown) return { vol_20d_pct: r2(now), median_1y_pct: null, ratio: null, regime: null };
  // Sorted in a typed array (numeric order, no comparator calls): the same order of these finite values.
  const year = Float64Array.from(vols).sort();
  const median = ((year[VOL_YEAR / 2 - 1] as number) + (year[VOL_YEAR / 2] as number)) / 2;
  const ratio = median > 0 ? now / median : null;
  const regime = ratio === null ? null : ratio < VOL_LOW_RATIO ? "low" : ratio > VOL_HIGH_RATIO ? "high" : "normal";
  return { vol_20d_pct: r2(now), median_1y_pct: r2(median), ratio: ratio === null ? null : r2(ratio), regime };
}

/** The index's trend from its bars (null without a bar). */
export function indexTrend(index: MarketSnapshot["index"]): IndexTrend | null {
  const lastBar: Bar | undefined = index?.bars[index.bars.length - 1];
  if (!index || !lastBar) return null;
  const f = index.features;
  return {
    symbol: index.symbol,
    name: index.name,
    derived: index.derived,
    as_of: lastBar.date,
    last_close: lastBar.close,
    returns_pct: { "1w": f.return_5d_pct, "1m": f.return_21d_pct, "3m": f.return_63d_pct },
    dist_sma50_pct: f.dist_sma50_pct,
    dist_sma200_pct: f.dist_sma200_pct,
  };
}

const count = (xs: readonly InstrumentStats[], test: (s: InstrumentStats) => boolean) => xs.filter(test).length;

function sharePct(xs: readonly InstrumentStats[], dist: (s: InstrumentStats) => number | null): number | null {
  const known = xs.map(dist).filter((d): d is number => d !== null);
  return known.length === 0 ? null : r2((known.filter((d) => d > 0).length / known.length) * 100);
}

/** Advancers and decliners, the share above the 50- and 200-day averages, new 52-week highs and lows. */
function breadthOf(members: readonly InstrumentStats[]): Breadth {
  const sign = (v: number | null) => (v === null ? 0 : Math.sign(v));
  return {
    members: members.length,
    advancers_1d: count(members, (s) => sign(s.change_1d_pct) > 0),
    decliners_1d: count(members, (s) => sign(s.change_1d_pct) < 0),
    advancers_1w: count(members, (s) => sign(s.features.return_5d_pct) > 0),
    decliners_1w: count(members, (s) => sign(s.features.return_5d_pct) < 0),
    above_sma50_pct: sharePct(members, (s) => s.features.dist_sma50_pct),
    above_sma200_pct: sharePct(members, (s) => s.features.dist_sma200_pct),
    new_highs_52w: count(members, (s) => s.new_high_52w === true),
    new_lows_52w: count(members, (s) => s.new_low_52w === true),
  };
}

/** Each sector's equal-weight returns over 1 week and 1 month, strongest month first (ties by name). */
function sectorReturns(snap: MarketSnapshot): SectorReturns[] {
  return snap.sectors
    .map((sector) => {
      const m = snap.members.filter((s) => s.sector === sector);
      return {
        sector,
        members: m.length,
        return_1w_pct: meanOf(m.map((s) => s.features.return_5d_pct)),
        return_1m_pct: meanOf(m.map((s) => s.features.return_21d_pct)),
      };
    })
    .sort((a, b) => (b.return_1m_pct ?? -Infinity) - (a.return_1m_pct ?? -Infinity) || a.sector.localeCompare(b.sector));
}

export function marketOverview(snap: MarketSnapshot): MarketOverview {
  const index = indexTrend(snap.index);
  const dates = [index?.as_of, ...snap.members.map((m) => m.as_of)].filter((d): d is string => typeof d === "string").sort();
  return {
    as_of: dates.at(-1) ?? null,
    index,
    breadth: breadthOf(snap.members),
    volatility: volRegime(
      (snap.index?.bars ?? []).map((b) => b.close),
      snap.index?.volsOf,
    ),
    sectors: sectorReturns(snap),
  };
}
