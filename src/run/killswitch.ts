/**
 * The kill switch outside a run: the facts of a halt (for the reset screen and scripts) and the
 * manual reset, which makes the current value the new peak and leaves the account REDUCING for the
 * configured number of runs. The reset itself is the journal's; this joins it to current prices.
 */
import { userInfo } from "node:os";
import type { TradingState } from "../core/domain.js";
import { drawdownPct } from "../gate/evaluate.js";
import { fxToBaseOf } from "../config/fx.js";
import type { LiquidationStatus, ResetRecord, TripRecord } from "../journal/types.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { AccountServices } from "./services.js";
import { accountValue } from "./valuation.js";

export interface KillSwitchFacts {
  trading_state: TradingState;
  trip: TripRecord | null;
  liquidation: LiquidationStatus;
  /** The day whose reference prices value the account (the next trading day's view). */
  as_of_trading_day: string;
  current_value: number;
  peak: number | null;
  drawdown_pct: number | null;
  max_drawdown_pct: number;
  reducing_runs_after_reset: number;
  reducing_runs_left: number;
  /** Held symbols without a price: the value leaves them out and a reset is refused. */
  unpriced: string[];
  base_currency: string;
  resets: ResetRecord[];
}

export async function killSwitchFacts(svc: AccountServices): Promise<KillSwitchFacts> {
  const { journal, config } = svc;
  if (!journal.isInitialised())
    throw new TwError("not_initialised", "the journal is not initialised yet: run `tradewarden run` or `tradewarden init` first", EXIT.USAGE_OR_CONFIG);
  const session = await svc.peekSession();
  const view = svc.market.asOf(session.tradingDay, { universe: svc.universe, baseCurrency: config.account.base_currency, fxToBase: fxToBaseOf(config) });
  const { value, unpriced } = accountValue(journal, view);
  const peak = journal.peak();
  return {
    trading_state: journal.tradingState(),
    trip: journal.tripHistory().at(-1) ?? null,
    liquidation: journal.liquidationStatus(),
    as_of_trading_day: session.tradingDay,
    current_value: value,
    peak,
    drawdown_pct: peak === null ? null : drawdownPct(value, peak),
    max_drawdown_pct: config.limits.max_drawdown_pct,
    reducing_runs_after_reset: config.limits.reducing_runs_after_reset,
    reducing_runs_left: journal.reducingRunsLeft(),
    unpriced,
    base_currency: journal.baseCurrency(),
    resets: journal.resetHistory(),
  };
}

export function operatorName(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return userInfo().username || env.USER || "operator";
  } catch {
    return env.USER || "operator";
  }
}

/** Resets a halt. Refuses when not halted, without a reason, or when a holding cannot be valued. */
export async function resetKillSwitch(svc: AccountServices, args: { who: string; reason: string; at?: Date }): Promise<ResetRecord> {
  const facts = await killSwitchFacts(svc);
  if (facts.trading_state !== "HALTED")
    throw new TwError("not_halted", `trading is ${facts.trading_state}, not HALTED: there is nothing to reset`, EXIT.USAGE_OR_CONFIG);
  if (!args.reason.trim()) throw new TwError("reset_reason_required", "a reset needs a reason (--reason)", EXIT.USAGE_OR_CONFIG);
  if (facts.unpriced.length > 0) {
    throw new TwError(
      "data_unavailable",
      `cannot value ${facts.unpriced.join(", ")} before ${facts.as_of_trading_day}; the reset needs the current value`,
      EXIT.BROKER_OR_DATA_UNAVAILABLE,
    );
  }
  return svc.journal.reset({
    at: args.at ?? new Date(),
    who: args.who,
    reason: args.reason.trim(),
    value: facts.current_value,
    reducing_runs: facts.reducing_runs_after_reset,
  });
}
