/**
 * Which days a simulation trades: exactly `from` (a trading day of the market data with at least
 * MIN_HISTORY_DAYS trading days before it) through the last trading day on or before `to`
 * (default: the data's last day). Anything else is a usage error (exit 2) that names a valid day.
 * Pure over the calendar.
 */
import { isIsoDay, type TradingCalendar } from "../market/calendar.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";

/** Trading days of history a simulation needs before its first day (the model's price history). */
export const MIN_HISTORY_DAYS = 20;

const usage = (code: string, message: string) => new TwError(code, message, EXIT.USAGE_OR_CONFIG);

/** `--from` and `--to` are calendar days (checked before anything reads them: a config takes `--from` as its start date). */
export function checkDayArgs(from: string, to?: string): void {
  if (!isIsoDay(from)) throw usage("invalid_date", `--from ${from} is not a date (YYYY-MM-DD)`);
  if (to !== undefined && !isIsoDay(to)) throw usage("invalid_date", `--to ${to} is not a date (YYYY-MM-DD)`);
}

export function planDays(calendar: TradingCalendar, from: string, to?: string): string[] {
  checkDayArgs(from, to);
  const first = calendar.first;
  const last = calendar.last;
  if (!first || !last) throw usage("no_market_data", "there is no market data to simulate over");
  const earliest = calendar.days[MIN_HISTORY_DAYS];
  if (!earliest) throw usage("not_enough_history", `the market data has fewer than ${MIN_HISTORY_DAYS + 1} trading days`);
  if (!calendar.isTradingDay(from)) {
    const next = calendar.onOrAfter(from);
    const hint =
      from < first
        ? `the data starts on ${first}; the first day with enough history is ${earliest}`
        : next
          ? `the next trading day is ${next}`
          : `the data ends on ${last}`;
    throw usage("not_a_trading_day", `--from ${from} is not a trading day in the market data (${hint})`);
  }
  const history = calendar.countBefore(from);
  if (history < MIN_HISTORY_DAYS) {
    throw usage(
      "not_enough_history",
      `--from ${from} has ${history} trading day(s) of history before it; a simulation needs ${MIN_HISTORY_DAYS} (the first such day is ${earliest})`,
    );
  }
  const end = to ?? last;
  if (end < from) throw usage("invalid_range", `--to ${end} is before --from ${from}`);
  if (end > last) throw usage("beyond_data", `--to ${end} is after the market data's last day ${last}`);
  const startIndex = history;
  const endIndex = calendar.countBefore(end) + (calendar.isTradingDay(end) ? 1 : 0);
  return calendar.days.slice(startIndex, endIndex);
}
