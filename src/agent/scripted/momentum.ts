/**
 * The momentum policy turn by turn: open with the market overview (when offered), the account and
 * one screen of the allowlist on its entry rule (screen_universe, when offered: ./momentum-screen.ts),
 * read the histories of the holdings and the screen's strongest matches (in one turn; the universe
 * listed and its first 12 read when the screen is not offered or fails), search the news
 * for the candidates, dry-run them through check_orders, then submit what the gate approved. In a
 * falling market (market-regime.ts) it buys nothing new and says so.
 */
import { watchAction } from "../scripted-watch.js";
import type { Action } from "./actions.js";
import type { Step } from "./conversation.js";
import { researchAndSubmit } from "./flow.js";
import { momentumOrders, STOP_DRAWDOWN_PCT } from "./momentum-orders.js";
import { momentumOpening } from "./momentum-screen.js";
import type { ScriptedOptions } from "./scripts.js";

export const MOMENTUM_RULE = `Exit rule: below SMA50 or >${STOP_DRAWDOWN_PCT}% under the 6-month high; entry: positive 3-month return with close > SMA20 > SMA50.`;

/** The momentum policy's next turn (in watch mode its candidates go on the watchlist instead). */
export function momentumAction(steps: Step[], limits: ScriptedOptions["limits"], watch = false, offered: ReadonlySet<string> = new Set()): Action {
  const first = momentumOpening(steps, offered);
  if (first) return first;

  const momentum = momentumOrders(steps, limits);
  if (watch) return watchAction(steps, momentum.orders);
  return researchAndSubmit(steps, momentum, { label: "Momentum", rule: MOMENTUM_RULE });
}
