/**
 * Whether the market trades in a schedule slot, asked before a scheduled run starts (so a holiday
 * or a closed market costs no model call). On the simulated broker: the market data's trading
 * calendar (the bundled and imported bars) says whether the market's date is a trading day; past
 * the data's last day it knows weekends only. On Alpaca paper: the broker's clock says whether the
 * market is open now (a holiday or an early close included). A clock that cannot be read is not a
 * closed market: the run is started and fails with its own exit code (4), as an attempt.
 */
import { requireConfig } from "../config/require.js";
import { MarketData } from "../market/data.js";
import { createBroker } from "./services.js";

export type MarketOpen = { open: true; basis: string } | { open: false; reason: string };

/** The simulated calendar's answer for a market date: a trading day in the data, or a weekday past its end. */
export function simTradingDay(market: MarketData, day: string): boolean {
  const cal = market.calendar;
  if (cal.last !== undefined && day > cal.last) return true;
  return cal.isTradingDay(day);
}

export async function marketOpenFor(home: string, day: string, env: NodeJS.ProcessEnv): Promise<MarketOpen> {
  const { config, universe } = requireConfig(home);
  const market = MarketData.load({ home });
  if (config.broker.kind === "sim") {
    return simTradingDay(market, day)
      ? { open: true, basis: `${day} is a trading day of the simulated calendar` }
      : { open: false, reason: `${day} is not a trading day of the simulated calendar (a holiday or a day without market data)` };
  }
  const { broker } = createBroker(home, config, market, universe, env, { persistNew: false });
  try {
    const clock = await broker.clock();
    return clock.isOpen
      ? { open: true, basis: "the broker's clock says the market is open" }
      : { open: false, reason: `the broker's clock says the market is closed${clock.nextOpen ? ` (next open ${clock.nextOpen})` : ""}` };
  } catch (e) {
    return { open: true, basis: `the broker's clock did not answer (${(e as Error).message}); the run decides` };
  }
}
