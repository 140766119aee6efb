/**
 * The `screen_universe` handler: features of every allowlisted instrument from the run's
 * point-in-time view (bars strictly before the trading day), then filter, sort and cut.
 */
import { createHash } from "node:crypto";
import type { Instrument } from "../../core/domain.js";
import type { screenUniverse } from "../defs/screen-universe.js";
import type { AnswerOf, HandlerOf } from "../define.js";
import type { MarketView } from "../../market/data.js";
import { SERIES_STATS } from "../../market/market-stats.js";
import { runScreen, type ScreenCandidate, type ScreenFeature, type ScreenFilter } from "../../market/screen.js";

export interface ScreenToolDeps {
  view: MarketView;
  universe: readonly Instrument[];
  tradingDay: string;
  defaultLimit: number;
}

export function makeScreenHandler(deps: ScreenToolDeps): HandlerOf<typeof screenUniverse> {
  let cache: ScreenCandidate[] | null = null;
  const candidates = (): ScreenCandidate[] => {
    if (cache) return cache;
    cache = [];
    // The market's memo of each instrument's statistics, shared with the market-wide tools and across days.
    for (const inst of deps.universe) {
      const stats = deps.view.memoised(SERIES_STATS, inst.symbol);
      if (!stats) continue;
      cache.push({ symbol: inst.symbol.toUpperCase(), as_of: stats.as_of, last_close: stats.last_close, features: stats.features });
    }
    return cache;
  };
  const info = new Map(deps.universe.map((i) => [i.symbol.toUpperCase(), i]));

  return (args): AnswerOf<typeof screenUniverse> => {
    const filters = (Array.isArray(args.filters) ? args.filters : []) as ScreenFilter[];
    const issues = filters.flatMap((f, i) => {
      if (f.min === undefined && f.max === undefined) return [{ path: `$.filters[${i}]`, message: "needs min, max or both" }];
      if (f.min !== undefined && f.max !== undefined && f.min > f.max) return [{ path: `$.filters[${i}]`, message: `min ${f.min} is above max ${f.max}` }];
      return [];
    });
    if (issues.length > 0) {
      return { ok: false, code: "invalid_tool_arguments", message: `filters: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`, issues };
    }
    const sector = typeof args.sector === "string" ? args.sector.trim().toLowerCase() : undefined;
    const symbols = Array.isArray(args.symbols) ? new Set((args.symbols as string[]).map((s) => s.toUpperCase())) : undefined;
    const unknown = symbols ? [...symbols].filter((s) => !info.has(s)) : [];
    if (unknown.length > 0) return { ok: false, code: "unknown_symbol", message: `not in the allowlisted universe: ${unknown.join(", ")}` };
    const pool = candidates().filter(
      (c) => (!sector || (info.get(c.symbol)?.sector ?? "Unclassified").toLowerCase() === sector) && (!symbols || symbols.has(c.symbol)),
    );
    const sortBy = (typeof args.sort_by === "string" ? args.sort_by : "return_63d_pct") as ScreenFeature;
    const order = args.order === "asc" ? "asc" : "desc";
    const limit = typeof args.limit === "number" ? args.limit : deps.defaultLimit;
    const out = runScreen(pool, { filters, sortBy, order, limit });
    const page = out.matched.slice(0, limit);
    const asOf =
      pool
        .map((c) => c.as_of)
        .sort()
        .at(-1) ?? "";
    const evidence_id = `screen:${deps.tradingDay}:${createHash("sha256")
      .update(JSON.stringify([filters, sortBy, order, sector, [...(symbols ?? [])]]))
      .digest("hex")
      .slice(0, 8)}`;
    return {
      ok: true,
      data: {
        evidence_id,
        as_of: asOf || null,
        trading_day: deps.tradingDay,
        sort: { by: sortBy, order },
        universe_size: pool.length,
        matched: out.matched.length,
        returned: page.length,
        results: page.map((c, i) => {
          const inst = info.get(c.symbol);
          return {
            rank: i + 1,
            symbol: c.symbol,
            name: inst?.name ?? c.symbol,
            sector: inst?.sector ?? "Unclassified",
            last_close: c.last_close,
            as_of: c.as_of,
            ...c.features,
          };
        }),
        insufficient_history: out.insufficient.slice(0, 20),
      },
      evidenceIds: [evidence_id],
    };
  };
}
