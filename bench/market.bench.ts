import { bench, describe } from "vitest";
import { MarketData } from "../src/market/data.js";
import { summarizeHistory } from "../src/market/summary.js";
import { makeMarketToolHandlers } from "../src/tools/handlers/market.js";
import { loadUniverseCsv } from "../src/market/universe.js";

const market = MarketData.load({});
const universe = loadUniverseCsv();
const tradingDay = "2008-10-10";
const view = market.asOf(tradingDay);
const spx = market.seriesOf("SPX")!.bars;
const tools = makeMarketToolHandlers({ market, universe, tradingDay });
const ctx = { runId: "bench", tradingDay, seenEvidence: new Set<string>(), pending: [] };

// Budget: a price-history summary under 1 ms median.
describe("price history", () => {
  bench("summarizeHistory (SPX, full 20-year series, cut at the trading day)", () => {
    summarizeHistory("SPX", spx, tradingDay);
  });
  bench("get_price_history handler (view + summary)", () => {
    tools.get_price_history({ symbol: "ALFA" }, ctx);
  });
  bench("list_universe handler (20 reference prices)", () => {
    tools.list_universe({}, ctx);
  });
  bench("referencePrice", () => {
    view.referencePrice("BRVO");
  });
});
