/** What the journal-backed tools (watchlist, standing orders) are handed for one run. */
import type { Instrument, PriceSource } from "../core/domain.js";
import type { MarketData } from "../market/data.js";
import type { Journal } from "./journal.js";

export interface JournalToolDeps {
  journal: Journal;
  market: MarketData;
  prices: PriceSource;
  universe: readonly Instrument[];
  runId: string;
  tradingDay: string;
  now: () => Date;
}
