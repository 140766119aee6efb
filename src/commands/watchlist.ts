/**
 * `tradewarden watchlist [--json]`: the live watchlist — what the agent keeps an eye on, each entry
 * with its reason, the run and day that added it and at what price, its last day and its price
 * alerts. Read only, from the journal; "live" is as of the trading day the next run would trade.
 */
import { openJournal } from "../journal/journal.js";
import { noticeTo } from "../journal/load.js";
import { activeWatchItems, type WatchItem } from "../journal/watchlist.js";
import { EXIT } from "../core/exit-codes.js";
import { price } from "../printers/format.js";
import { createAccountServices } from "../run/services.js";
import type { CommandIO } from "./io.js";
import { reportError } from "./init.js";

function describe(items: readonly WatchItem[], asOf: string | null, tickOf: (symbol: string) => number | undefined): string {
  if (items.length === 0) return `the watchlist is empty${asOf ? ` (as of ${asOf})` : ""}\n`;
  const lines = [`watchlist as of ${asOf}: ${items.length} entr${items.length === 1 ? "y" : "ies"}`];
  for (const i of items) {
    const tick = tickOf(i.symbol);
    const added = i.price_at_add === null ? "no price then" : `at ${price(i.price_at_add, tick)}`;
    const alerts = [
      i.alert_above !== undefined ? `above ${price(i.alert_above, tick)}` : "",
      i.alert_below !== undefined ? `below ${price(i.alert_below, tick)}` : "",
    ].filter(Boolean);
    lines.push(
      `${i.id}  ${i.symbol}  added ${i.added_day} ${added} (run ${i.run_id}), until ${i.expires_on}${alerts.length > 0 ? `; alerts ${alerts.join(", ")}` : ""}`,
      `    ${i.reason}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export async function cmdWatchlist(opts: { home: string; json: boolean; timezone: string }, io: CommandIO): Promise<number> {
  try {
    const journal = await openJournal(opts.home, { timezone: opts.timezone, readOnly: true, notice: noticeTo(io.stderr) });
    let items: WatchItem[] = [];
    let asOf: string | null = null;
    let tickOf = (_s: string): number | undefined => undefined;
    // A fresh home has no watchlist; opening the broker for its day would write a simulated book.
    if (journal.isInitialised() && journal.watchState().items.size > 0) {
      const svc = await createAccountServices(opts.home, io.env, { readOnly: true, requireInitialised: true, notice: noticeTo(io.stderr) });
      asOf = (await svc.peekSession()).tradingDay;
      items = activeWatchItems(svc.journal.watchState(), asOf);
      const ticks = new Map(svc.universe.map((u) => [u.symbol, u.tick]));
      tickOf = (s) => ticks.get(s) ?? undefined;
    }
    io.stdout(opts.json ? `${JSON.stringify({ as_of_trading_day: asOf, items }, null, 2)}\n` : describe(items, asOf, tickOf));
    return EXIT.OK;
  } catch (e) {
    return reportError(e, io);
  }
}
