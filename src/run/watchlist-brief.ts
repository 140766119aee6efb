/** The watchlist as the task message shows it to a later run: one line per live entry, with what changed. */
import type { PriceSource } from "../core/domain.js";
import type { Journal } from "../journal/journal.js";
import { activeWatchItems } from "../journal/watchlist.js";
import { watchView } from "../tools/handlers/watchlist.js";
import type { MarketData } from "../market/data.js";

export function watchlistLines(journal: Journal, market: MarketData, prices: PriceSource, tradingDay: string): string[] {
  return activeWatchItems(journal.watchState(), tradingDay).map((item) => {
    const v = watchView(item, { market, prices, tradingDay });
    const change = v.change_since_added_pct === null ? "" : `, ${v.change_since_added_pct >= 0 ? "+" : ""}${v.change_since_added_pct}% since`;
    const alerts = v.alerts_triggered.map((a) => `alert ${a.alert} hit ${a.date} at ${a.close}`).join(", ");
    return `- ${v.symbol} (${v.id}, added ${v.added_day} at ${v.price_at_add ?? "?"}, now ${v.reference_price ?? "?"}${change}; ${v.trading_days_left} trading day(s) left${alerts ? `; ${alerts}` : ""}): ${v.reason}`;
  });
}
