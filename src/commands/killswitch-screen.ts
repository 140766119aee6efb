/** The kill-switch reset screen on a terminal: the facts from src/run/killswitch, the reset through it. */
import { type KillSwitchFacts, killSwitchFacts, operatorName, resetKillSwitch } from "../run/killswitch.js";
import type { AccountServices } from "../run/services.js";
import type { KillSwitchFacts as ScreenFacts } from "../screens/KillSwitchScreen.js";
import { mountKillSwitch } from "../screens/run-app.js";
import { tripKillSwitch } from "../run/killswitch-trip.js";

export function screenFacts(f: KillSwitchFacts, svc?: Pick<AccountServices, "journal">): ScreenFacts {
  const l = f.liquidation;
  const sold = l.orders.some((o) => o.filled_quantity > 0);
  const status: ScreenFacts["liquidation"]["status"] = !l.halted ? "none" : l.complete ? "complete" : sold ? "partial" : "pending";
  const detail =
    l.remaining.length > 0
      ? `still held: ${l.remaining.map((r) => `${r.quantity} ${r.symbol}`).join(", ")}; the next run that can trade sells it`
      : l.halted
        ? "nothing left to sell"
        : undefined;
  const out: ScreenFacts = {
    trading_state: f.trading_state,
    base_currency: f.base_currency,
    liquidation: { status, ...(detail ? { detail } : {}), orders: l.orders.map((o) => ({ ...o })) },
    current_value: f.current_value,
    reducing_runs_after_reset: f.reducing_runs_after_reset,
    reducing_runs_left: f.reducing_runs_left,
    limit_pct: f.max_drawdown_pct,
  };
  if (f.trip) {
    out.tripped_at = f.trip.at;
    out.run_id = f.trip.run_id;
    out.value_at_trip = f.trip.value;
    out.peak = f.trip.peak;
    out.drawdown_pct = f.trip.drawdown_pct;
    out.reason = f.trip.reason;
    const day = svc?.journal.run(f.trip.run_id)?.trading_day;
    if (day) out.trading_day = day;
  } else if (f.peak !== null) {
    out.peak = f.peak;
    if (f.drawdown_pct !== null) out.drawdown_pct = f.drawdown_pct;
  }
  return out;
}

/** Shows the screen; resolves with whether a reset or a trip was recorded and whether Ctrl+C left it. */
export async function runKillSwitchScreen(svc: AccountServices, env: NodeJS.ProcessEnv): Promise<{ reset: boolean; tripped: boolean; interrupted: boolean }> {
  const facts = await killSwitchFacts(svc);
  let didReset = false;
  let tripped = false;
  let interrupted = false;
  const mounted = mountKillSwitch(
    {
      facts: screenFacts(facts, svc),
      onReset: async ({ reason }) => {
        await resetKillSwitch(svc, { who: operatorName(env), reason });
        didReset = true;
        // What the screen shows next is the journal's, read back after the reset.
        return screenFacts(await killSwitchFacts(svc), svc);
      },
      onTrip: async ({ reason }) => {
        await tripKillSwitch(svc, { reason });
        tripped = true;
        return screenFacts(await killSwitchFacts(svc), svc);
      },
      onExit: () => {},
      onInterrupt: () => {
        interrupted = true;
      },
    },
    { env, alternateScreen: true },
  );
  await mounted.waitUntilExit();
  return { reset: didReset, tripped, interrupted };
}
