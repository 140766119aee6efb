/**
 * `tradewarden sim status` and `tradewarden sim reset [--start DATE]`: the simulated paper
 * broker's book and clock. The simulation is separate from the journal: a reset does not touch the
 * journal, so the next run's reconciliation reports the difference unless the journal is fresh too.
 */
import { existsSync } from "node:fs";
import { count, money, price, quantity } from "../core/format.js";
import { DEFAULT_SIM_CONFIG } from "../broker/simulated-options.js";
import { newSimState, readSimState, type SimState, writeSimState } from "../broker/simulated-store.js";
import type { SimBrokerConfig } from "../config/types.js";
import { isIsoDay } from "../market/calendar.js";
import { MarketData } from "../market/data.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import type { CommandIO } from "./io.js";

export interface SimCommandOptions {
  home: string;
  config?: SimBrokerConfig;
  /** Market data (default: bundled + the home's imported bars). */
  market?: MarketData;
  json?: boolean;
}

function loadMarket(opts: SimCommandOptions): MarketData {
  return opts.market ?? MarketData.load({ home: opts.home });
}

function fail(io: CommandIO, e: unknown): number {
  if (e instanceof TwError) {
    io.stderr(`error: ${e.message}\n`);
    return e.exitCode;
  }
  io.stderr(`error: ${(e as Error).message}\n`);
  return EXIT.INTERNAL_ERROR;
}

export function cmdSimStatus(opts: SimCommandOptions, io: CommandIO): number {
  try {
    const path = homePaths(opts.home).sim;
    const market = loadMarket(opts);
    const state = readSimState(path);
    if (!state) {
      const start = market.calendar.onOrAfter(opts.config?.start_date ?? DEFAULT_SIM_CONFIG.start_date ?? "2007-01-03");
      if (opts.json) io.stdout(`${JSON.stringify({ exists: false, path, next_day: start ?? null })}\n`);
      else io.stdout(`no simulated broker yet at ${path}; the first run creates it and trades on ${start ?? "(no data)"}\n`);
      return EXIT.OK;
    }
    const next = nextDayOf(state, market);
    const openOrders = state.orders.filter((o) => ["accepted", "partially_filled", "pending_cancel"].includes(o.status));
    const remaining = next ? market.calendar.days.length - market.calendar.countBefore(next) : 0;
    if (opts.json) {
      io.stdout(
        `${JSON.stringify({
          exists: true,
          path,
          account_id: state.account_id,
          paper: true,
          currency: state.currency,
          cash: state.cash,
          starting_cash: state.starting_cash,
          start_date: state.start_date,
          current_day: state.current_day,
          day_open: state.day_open,
          days_played: state.played_days.length,
          next_day: next ?? null,
          days_remaining: remaining,
          positions: state.positions,
          open_orders: openOrders.length,
          orders: state.orders.length,
          fills: state.fills.length,
        })}\n`,
      );
      return EXIT.OK;
    }
    const lines = [
      `simulated paper broker  ${state.account_id}  (${path})`,
      `cash            ${money(state.cash, state.currency)} (started with ${money(state.starting_cash, state.currency)})`,
      `started on      ${state.start_date}`,
      state.day_open ? `trading day     ${state.current_day} (open)` : `last day played ${state.current_day ?? "none yet"}`,
      `days played     ${state.played_days.length}`,
      `next day        ${next ?? "none: the data has run out; run `tradewarden sim reset`"}${next ? ` (${count(remaining)} left in the data)` : ""}`,
      `orders          ${state.orders.length} (${openOrders.length} open), fills ${state.fills.length}`,
    ];
    const positions = Object.entries(state.positions).sort(([a], [b]) => (a < b ? -1 : 1));
    if (positions.length === 0) lines.push("positions       none");
    else {
      lines.push("positions");
      for (const [symbol, p] of positions)
        lines.push(`  ${symbol.padEnd(8)} ${quantity(p.quantity).padStart(8)}  avg cost ${price(p.quantity ? p.cost / p.quantity : 0)}`);
    }
    io.stdout(`${lines.join("\n")}\n`);
    return EXIT.OK;
  } catch (e) {
    return fail(io, e);
  }
}

export interface SimResetOptions extends SimCommandOptions {
  /** First trading day (YYYY-MM-DD); the next trading day on or after it is used. */
  start?: string | null;
  cash?: number;
}

export function cmdSimReset(opts: SimResetOptions, io: CommandIO): number {
  if (opts.start && !isIsoDay(opts.start)) {
    io.stderr(`error: --start ${opts.start} is not a date (YYYY-MM-DD)\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  try {
    const path = homePaths(opts.home).sim;
    const market = loadMarket(opts);
    const existed = existsSync(path);
    const state = newSimState(market, {
      start: opts.start ?? opts.config?.start_date ?? null,
      ...(opts.cash !== undefined ? { cash: opts.cash } : {}),
    });
    writeSimState(path, state);
    io.stdout(
      `${existed ? "reset" : "created"} the simulated paper broker ${state.account_id}: cash ${money(state.cash, state.currency)}, first trading day ${state.start_date}\n`,
    );
    if (existed) io.stdout("the journal was not changed: start a fresh journal too, or the next run's reconciliation will report the differences\n");
    return EXIT.OK;
  } catch (e) {
    return fail(io, e);
  }
}

function nextDayOf(state: SimState, market: MarketData): string | undefined {
  if (state.day_open) return state.current_day ?? undefined;
  if (state.current_day === null) return state.start_date;
  return market.calendar.next(state.current_day);
}
