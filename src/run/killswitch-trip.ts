/**
 * An operator's trip of the kill switch outside a run (the kill-switch screen's `K` and the
 * headless `killswitch trip --reason`): recorded in the journal as the approval screen's operator
 * trip is (`operator tripped the kill switch: …`), valued at current prices, against the latest run
 * (the next run that can trade sells what is held, as after any trip). Refused when already halted,
 * without a reason, before any run, or when a holding cannot be valued. The one place a trip outside
 * a run is recorded.
 */
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { TripRecord } from "../journal/types.js";
import { killSwitchFacts } from "./killswitch.js";
import type { AccountServices } from "./services.js";

/** The journal's words for an operator's trip (run/phases/killswitch.ts records the approval screen's the same way). */
const OPERATOR_TRIP = "operator tripped the kill switch: ";

export async function tripKillSwitch(svc: AccountServices, args: { reason: string; at?: Date }): Promise<TripRecord> {
  const facts = await killSwitchFacts(svc);
  if (facts.trading_state === "HALTED") throw new TwError("already_halted", "trading is already HALTED: there is nothing to trip", EXIT.USAGE_OR_CONFIG);
  const reason = args.reason.trim();
  if (!reason) throw new TwError("trip_reason_required", "a trip needs a reason", EXIT.USAGE_OR_CONFIG);
  const last = svc.journal.runs().at(-1);
  if (!last) throw new TwError("no_run_yet", "no run in the journal yet: there is nothing to halt (run `tradewarden run` first)", EXIT.USAGE_OR_CONFIG);
  if (facts.unpriced.length > 0) {
    throw new TwError(
      "data_unavailable",
      `cannot value ${facts.unpriced.join(", ")} before ${facts.as_of_trading_day}; the trip records the current value`,
      EXIT.BROKER_OR_DATA_UNAVAILABLE,
    );
  }
  return svc.journal.trip({
    run_id: last.run_id,
    at: args.at ?? new Date(),
    value: facts.current_value,
    peak: facts.peak ?? facts.current_value,
    drawdown_pct: facts.drawdown_pct ?? 0,
    reason: `${OPERATOR_TRIP}${reason}`,
  });
}
