/**
 * The run's features memo (src/run/run-features.ts): screen_universe and the market-wide tools of
 * one run compute each instrument's features once between them, and answer exactly what they
 * answer computing them each on their own.
 */
import { describe, expect, it } from "vitest";
import { MarketData } from "../../src/market/data.js";
import { computeFeatures } from "../../src/market/screen.js";
import { loadUniverseCsv } from "../../src/market/universe.js";
import { runFeatures } from "../../src/run/run-features.js";
import type { FeaturesOf } from "../../src/market/market-stats.js";
import { makeMarketWideHandlers } from "../../src/tools/handlers/market-wide.js";
import { makeScreenHandler } from "../../src/tools/handlers/screen-universe.js";
import type { HandlerResult, ToolCallContext } from "../../src/tools/types.js";
import { checked } from "../tools/checked.js";

let computed = 0;
/** computeFeatures, counted. */
const counted = (bars: Parameters<typeof computeFeatures>[0]) => {
  computed++;
  return computeFeatures(bars);
};

const market = MarketData.load();
const universe = loadUniverseCsv();
const tradingDay = "2012-06-01";
const ctx = { runId: "r", tradingDay, seenEvidence: new Set<string>(), pending: [] } as unknown as ToolCallContext;

/** A day's screen, overview and one sector summary, through handlers sharing `featuresOf` (each its own when absent). */
function answers(featuresOf?: FeaturesOf): HandlerResult[] {
  const view = market.asOf(tradingDay, { universe });
  const shared = featuresOf ? { featuresOf } : {};
  const wide = makeMarketWideHandlers({ view, universe, tradingDay, ...shared });
  const screen = makeScreenHandler({ view, universe, tradingDay, defaultLimit: 10, ...shared });
  const sector = universe.find((i) => i.sector && i.sector !== "Index")?.sector ?? "";
  return [
    checked("screen_universe", screen)({ sort_by: "return_63d_pct", limit: 50 }, ctx) as HandlerResult,
    checked("get_market_overview", wide.get_market_overview)({}, ctx) as HandlerResult,
    checked("get_sector_summary", wide.get_sector_summary)({ sector }, ctx) as HandlerResult,
  ];
}

describe("a run's features memo", () => {
  it("the screen and the market-wide tools answer the same with it as without it", () => {
    const alone = answers();
    const shared = answers(runFeatures());
    expect(alone.every((r) => r.ok)).toBe(true);
    expect(shared).toEqual(alone);
  });

  it("computes each instrument's features once for the screen, the overview and the sector summary together", () => {
    // Each tool computing its own (what they do without a memo), then the run's memo.
    computed = 0;
    answers((_symbol, bars) => counted(bars));
    const alone = computed;
    computed = 0;
    answers(runFeatures(counted));
    // Each instrument once, the index included (its trend in the overview and the sector summary).
    expect(computed).toBe(universe.length);
    expect(alone).toBeGreaterThan(computed);
  });

  it("tells windows of different bars apart", () => {
    const f = runFeatures();
    const bars = market.asOf(tradingDay).history(universe[0]!.symbol, 300);
    expect(f("X", bars)).toEqual(f("X", bars.slice(-253)));
    expect(f("X", bars.slice(0, -1))).not.toEqual(f("X", bars));
    expect(f("X", bars.slice(-30))).not.toEqual(f("X", bars.slice(-31)));
  });
});
