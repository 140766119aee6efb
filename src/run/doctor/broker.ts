/**
 * Doctor: the broker. The simulated one: its book and the next day it would trade. Alpaca: a paper
 * endpoint (checked before any request), keys present (names only), reachable, a paper account, not
 * blocked, and its clock.
 */
import { loopbackAllowedForTests } from "../../broker/loopback.js";
import { count, money } from "../../core/format.js";
import { ALPACA_KEY_ENV, createAlpacaBroker } from "../../broker/alpaca.js";
import { assertPaperAccount } from "../../broker/guard.js";
import { readSimState } from "../../broker/simulated-store.js";
import type { Config } from "../../config/types.js";
import type { MarketData } from "../../market/data.js";
import { TwError } from "../../core/errors.js";
import { homePaths } from "../../util/paths.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

/** The day the simulated broker trades next (null when the data has run out). */
export function simNextDay(home: string, config: Config, market: MarketData): { next: string | null; exists: boolean } {
  const state = readSimState(homePaths(home).sim);
  if (!state) return { next: market.calendar.onOrAfter(config.broker.sim.start_date ?? "2007-01-03") ?? null, exists: false };
  if (state.day_open) return { next: state.current_day ?? null, exists: true };
  if (state.current_day === null) return { next: state.start_date, exists: true };
  return { next: market.calendar.next(state.current_day) ?? null, exists: true };
}

function simCheck(ctx: DoctorContext, config: Config, market: MarketData): DoctorCheck {
  const state = readSimState(homePaths(ctx.home).sim);
  const { next } = simNextDay(ctx.home, config, market);
  if (!next)
    return fail(
      "broker",
      "broker.sim",
      "the simulated broker has played every day of the market data",
      "run `tradewarden sim reset` (and start a fresh journal) or import newer bars",
    );
  if (!state)
    return pass(
      "broker",
      "broker.sim",
      `simulated broker not created yet: the first run opens it with ${config.account.capital} ${config.account.base_currency} and trades ${next}`,
      { next_day: next },
    );
  const positions = Object.values(state.positions).filter((p) => p.quantity !== 0).length;
  return pass(
    "broker",
    "broker.sim",
    `simulated broker ${state.account_id}: cash ${money(state.cash, state.currency)}, ${count(positions)} position(s), ${count(state.played_days.length)} day(s) played, next trading day ${next}`,
    {
      account_id: state.account_id,
      cash: state.cash,
      positions: state.positions,
      next_day: next,
    },
  );
}

async function alpacaChecks(ctx: DoctorContext, config: Config): Promise<DoctorCheck[]> {
  const url = config.broker.alpaca.base_url;
  const allowLoopback = loopbackAllowedForTests();
  const out: DoctorCheck[] = [];
  let broker: ReturnType<typeof createAlpacaBroker>;
  try {
    // The adapter checks the endpoint first, then the keys, before any request.
    broker = createAlpacaBroker({ baseUrl: url, env: ctx.env, allowLoopback });
  } catch (e) {
    if (e instanceof TwError && e.code === "missing_api_key") {
      const missing = ALPACA_KEY_ENV.filter((k) => !ctx.env[k]?.trim());
      return [
        pass("broker", "broker.endpoint", `${url} is Alpaca's paper endpoint`),
        fail("broker", "broker.keys", `${missing.join(" and ")} not set`, "export your Alpaca paper keys as APCA_API_KEY_ID and APCA_API_SECRET_KEY"),
      ];
    }
    return [
      fail(
        "broker",
        "broker.endpoint",
        (e as Error).message,
        'set broker.alpaca.base_url = "https://paper-api.alpaca.markets" (live trading is not a mode of tradewarden)',
      ),
    ];
  }
  out.push(pass("broker", "broker.endpoint", `${url} is Alpaca's paper endpoint`));
  out.push(pass("broker", "broker.keys", `${ALPACA_KEY_ENV.join(" and ")} are set (values not shown)`));
  let account: Awaited<ReturnType<typeof broker.account>>;
  const notPaper = (message: string) =>
    fail("broker", "broker.paper_account", message, "use the keys of your Alpaca paper account (its number starts with PA)");
  try {
    account = await broker.account();
    out.push(pass("broker", "broker.reachable", `${url} answered GET /v2/account`));
  } catch (e) {
    // The adapter refuses a non-paper account as it reads it: the API was reached.
    if (e instanceof TwError && e.code === "not_paper")
      return [...out, pass("broker", "broker.reachable", `${url} answered GET /v2/account`), notPaper(e.message)];
    out.push(
      fail(
        "broker",
        "broker.reachable",
        `cannot read the account at ${url}: ${(e as Error).message}`,
        "check the network and the keys (a 401 means the keys are wrong or are live keys)",
      ),
    );
    return out;
  }
  try {
    assertPaperAccount(broker.endpoint(), account);
    out.push(pass("broker", "broker.paper_account", `account ${account.account_id} is a paper account (${account.currency}, status ${account.status})`));
  } catch (e) {
    out.push(notPaper((e as Error).message));
  }
  out.push(
    account.trading_blocked
      ? fail(
          "broker",
          "broker.not_blocked",
          `account ${account.account_id} is blocked from trading (status ${account.status})`,
          "see the account's status in Alpaca's dashboard; tradewarden places nothing until trading is unblocked",
        )
      : pass("broker", "broker.not_blocked", `account ${account.account_id} may trade`),
  );
  try {
    const c = await broker.clock();
    out.push(
      pass(
        "broker",
        "broker.clock",
        `market ${c.isOpen ? "open" : "closed"}; trading day ${c.tradingDay}${c.nextOpen && !c.isOpen ? `, next open ${c.nextOpen}` : ""}`,
        { ...c },
      ),
    );
  } catch (e) {
    out.push(
      fail("broker", "broker.clock", `cannot read the clock: ${(e as Error).message}`, "retry later; a run refuses to send a DAY order without the clock"),
    );
  }
  return out;
}

export async function brokerChecks(ctx: DoctorContext, market: MarketData): Promise<DoctorCheck[]> {
  const config = ctx.config;
  if (!config) return [];
  return config.broker.kind === "sim" ? [simCheck(ctx, config, market)] : alpacaChecks(ctx, config);
}
