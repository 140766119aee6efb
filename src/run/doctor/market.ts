/**
 * Doctor: market data — for each instrument of the universe, the bars before the day the broker
 * would trade next (the simulated broker's next day, or today on a real one), and how old the last
 * one is. A missing price, a missing exchange rate or a bar older than `limits.max_price_age_days`
 * (7 calendar days when unset) fails.
 */
import { DateTime } from "luxon";
import { count } from "../../core/format.js";
import { fxToBaseOf } from "../../config/fx.js";
import type { MarketData } from "../../market/data.js";
import { simNextDay } from "./broker.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

const DEFAULT_STALE_DAYS = 7;

const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

export function marketChecks(ctx: DoctorContext, market: MarketData): DoctorCheck[] {
  const config = ctx.config;
  if (!config) return [];
  const day =
    config.broker.kind === "sim" ? simNextDay(ctx.home, config, market).next : DateTime.fromJSDate(ctx.now).setZone(config.account.timezone).toISODate();
  if (!day) return [fail("market", "market.day", "no trading day left in the market data", "run `tradewarden sim reset` or import newer bars")];
  const maxAge = config.limits.max_price_age_days ?? DEFAULT_STALE_DAYS;
  const view = market.asOf(day, { universe: ctx.universe, baseCurrency: config.account.base_currency, fxToBase: fxToBaseOf(config) });
  return ctx.universe.map((inst) => {
    const id = `market.${inst.symbol}`;
    const bars = view.history(inst.symbol);
    const last = bars.at(-1);
    if (!last) {
      return fail(
        "market",
        id,
        `${inst.symbol}: no daily bars before ${day}`,
        `import its bars: tradewarden data import --csv FILE --symbol ${inst.symbol} (or data import-alpaca --symbols ${inst.symbol})`,
      );
    }
    const age = daysBetween(last.date, day);
    const details = { bars: bars.length, first: bars[0]?.date, last: last.date, age_days: age, as_of_day: day };
    if (age > maxAge) {
      return fail(
        "market",
        id,
        `${inst.symbol}: the last bar (${last.date}) is ${age} days old on ${day} (limit ${maxAge})`,
        `refresh it: tradewarden data import-alpaca --symbols ${inst.symbol} --from ${last.date} --to <yesterday>`,
        details,
      );
    }
    if (!view.referencePrice(inst.symbol)) {
      return fail(
        "market",
        id,
        `${inst.symbol}: priced in ${view.currencyOf(inst.symbol)} with no exchange rate to ${config.account.base_currency}`,
        `set ${view.currencyOf(inst.symbol)} = <rate> under [fx] in tradewarden.toml`,
        details,
      );
    }
    return pass("market", id, `${inst.symbol}: ${count(bars.length)} bars ${bars[0]?.date} … ${last.date} (${age} day(s) before ${day})`, details);
  });
}
