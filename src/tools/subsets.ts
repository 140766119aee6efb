/**
 * Which tools a run offers (tw-tools/3): only those it can use. A tool the run can never use costs
 * its description on every request and invites calls that can only be refused.
 *
 * - paper: every tool.
 * - observe and watch place nothing: no `place_standing_order` (an approved standing order places an
 *   order in a later run). watch proposes no order at all, so no `check_orders` either.
 *   `submit_orders` stays in both: it is how every run ends. In observe its proposal is the run's
 *   product (recorded with the gate's verdicts, never placed); in watch only an empty list is accepted.
 * - a HALTED account can place nothing: no `check_orders`, no `place_standing_order`. (REDUCING
 *   allows sells, which both tools can carry: they stay, and the gate blocks a buy.)
 *
 * The offered names are recorded in the cassette's meta line (`tools`), so a replay offers exactly
 * the same; a cassette without them (older ones) offered the whole catalogue of its version.
 */
import type { RunMode, TradingState } from "../core/domain.js";

export interface RunTooling {
  mode: RunMode;
  tradingState: TradingState;
}

/** The tools a run never uses, by what it is. */
function unusable(run: RunTooling): Set<string> {
  const out = new Set<string>();
  if (run.mode !== "paper") out.add("place_standing_order");
  if (run.mode === "watch") out.add("check_orders");
  if (run.tradingState === "HALTED") {
    out.add("check_orders");
    out.add("place_standing_order");
  }
  return out;
}

/** The names of the tools a run offers, in catalogue order. */
export function offeredTools(all: readonly string[], run: RunTooling): string[] {
  const drop = unusable(run);
  return all.filter((name) => !drop.has(name));
}
