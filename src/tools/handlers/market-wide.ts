/**
 * Handlers of the market-wide tools (`get_market_overview`, `get_sector_summary`), bound to a run's
 * point-in-time view: the snapshot of the universe (bars strictly before the trading day) is built
 * once per run, on first use, and both tools read it. Its statistics are the market's memos of
 * them (market-stats.ts): screen_universe and the days before computed most of them.
 */
import type { Instrument } from "../../core/domain.js";
import type { MarketView } from "../../market/data.js";
import { type MarketSnapshot, marketSnapshot } from "../../market/market-stats.js";
import { marketOverview } from "../../market/overview.js";
import { sectorSummary } from "../../market/sector.js";
import type { getMarketOverview } from "../defs/get-market-overview.js";
import type { getSectorSummary } from "../defs/get-sector-summary.js";
import type { AnswerOf, HandlerOf } from "../define.js";

export interface MarketWideDeps {
  view: MarketView;
  universe: readonly Instrument[];
  tradingDay: string;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");

export function makeMarketWideHandlers(deps: MarketWideDeps): {
  get_market_overview: HandlerOf<typeof getMarketOverview>;
  get_sector_summary: HandlerOf<typeof getSectorSummary>;
} {
  let cache: MarketSnapshot | null = null;
  const snapshot = () => {
    cache ??= marketSnapshot(deps.universe, deps.view);
    return cache;
  };

  const get_market_overview: HandlerOf<typeof getMarketOverview> = (): AnswerOf<typeof getMarketOverview> => {
    const o = marketOverview(snapshot());
    if (o.as_of === null) return { ok: false, code: "data_unavailable", message: `no bars before ${deps.tradingDay} for any instrument of the universe` };
    const evidence_id = `market:overview:${o.as_of}`;
    return { ok: true, data: { evidence_id, trading_day: deps.tradingDay, ...o }, evidenceIds: [evidence_id] };
  };

  const get_sector_summary: HandlerOf<typeof getSectorSummary> = (args): AnswerOf<typeof getSectorSummary> => {
    const res = sectorSummary(snapshot(), String(args.sector));
    if (!res.ok) {
      return {
        ok: false,
        code: "unknown_sector",
        message: `"${String(args.sector)}" is not a sector of the universe; valid: ${res.sectors.join(", ")}`,
        details: { valid_sectors: res.sectors },
      };
    }
    const s = res.summary;
    const evidence_id = `sector:${slug(s.sector)}:${s.as_of ?? deps.tradingDay}`;
    return { ok: true, data: { evidence_id, trading_day: deps.tradingDay, ...s }, evidenceIds: [evidence_id] };
  };

  return { get_market_overview, get_sector_summary };
}
