/**
 * One sector in depth (pure): its members with their returns, leaders and laggards by 1-month
 * return, and the sector's equal-weight returns against the index's, from a point-in-time snapshot.
 */
import { type MarketSnapshot, meanOf } from "./market-stats.js";
import { indexTrend } from "./overview.js";

/** Leaders and laggards: this many members each (fewer in a small sector; no member is both). */
const SECTOR_EXTREMES = 2;

type Horizon = "1w" | "1m" | "3m";
type Returns = Record<Horizon, number | null>;

interface SectorMember {
  symbol: string;
  name: string;
  as_of: string;
  last_close: number;
  return_1w_pct: number | null;
  return_1m_pct: number | null;
  return_3m_pct: number | null;
  dist_sma50_pct: number | null;
}

interface SectorSummary {
  sector: string;
  as_of: string | null;
  members: SectorMember[];
  leaders: string[];
  laggards: string[];
  sector_returns_pct: Returns;
  index_returns_pct: Returns;
  /** Sector minus index, percentage points; null where either is unknown. */
  relative_pct: Returns;
}

export type SectorAnswer = { ok: true; summary: SectorSummary } | { ok: false; sectors: string[] };

const r2 = (x: number) => Math.round(x * 100) / 100;

/** The sector named (case-insensitive), or the valid sectors when there is no such sector. */
export function sectorSummary(snap: MarketSnapshot, name: string): SectorAnswer {
  const sector = snap.sectors.find((s) => s.toLowerCase() === name.trim().toLowerCase());
  if (sector === undefined) return { ok: false, sectors: snap.sectors };
  const members: SectorMember[] = snap.members
    .filter((m) => m.sector === sector)
    .map((m) => ({
      symbol: m.symbol,
      name: m.name,
      as_of: m.as_of,
      last_close: m.last_close,
      return_1w_pct: m.features.return_5d_pct,
      return_1m_pct: m.features.return_21d_pct,
      return_3m_pct: m.features.return_63d_pct,
      dist_sma50_pct: m.features.dist_sma50_pct,
    }))
    .sort((a, b) => (b.return_1m_pct ?? -Infinity) - (a.return_1m_pct ?? -Infinity) || a.symbol.localeCompare(b.symbol));
  const ranked = members.filter((m) => m.return_1m_pct !== null).map((m) => m.symbol);
  const k = Math.min(SECTOR_EXTREMES, Math.floor(ranked.length / 2));
  const sector_returns_pct: Returns = {
    "1w": meanOf(members.map((m) => m.return_1w_pct)),
    "1m": meanOf(members.map((m) => m.return_1m_pct)),
    "3m": meanOf(members.map((m) => m.return_3m_pct)),
  };
  const index = indexTrend(snap.index);
  const index_returns_pct: Returns = index ? { ...index.returns_pct } : { "1w": null, "1m": null, "3m": null };
  const relative = (h: Horizon) => {
    const s = sector_returns_pct[h];
    const i = index_returns_pct[h];
    return s === null || i === null ? null : r2(s - i);
  };
  const dates = members.map((m) => m.as_of).sort();
  return {
    ok: true,
    summary: {
      sector,
      as_of: dates.at(-1) ?? null,
      members,
      leaders: ranked.slice(0, k),
      laggards: ranked.slice(ranked.length - k).reverse(),
      sector_returns_pct,
      index_returns_pct,
      relative_pct: { "1w": relative("1w"), "1m": relative("1m"), "3m": relative("3m") },
    },
  };
}
