/**
 * The operator's kill-switch trip outside a run: the journal records it exactly as the approval
 * screen's trip does (`operator tripped the kill switch: <reason>`, at the current value and peak),
 * the account is HALTED, and the next run that can trade sells what is held. The trip names the
 * journal's last run, so the liquidation orders of that run and later ones are listed against it.
 */
import { createInterface } from "node:readline/promises";
import { dayAndClock, money, pct, quantity } from "../core/format.js";
import { killSwitchFacts } from "../run/killswitch.js";
import { tripKillSwitch } from "../run/killswitch-trip.js";
import { notifyTrip } from "../run/notify-run.js";
import type { AccountServices } from "../run/services.js";
import type { CommandIO } from "./io.js";

/** Trips the kill switch unless already HALTED (recorded by run/killswitch-trip.ts); returns what to tell the person. */
export async function tripByOperator(svc: AccountServices, reason: string): Promise<{ tripped: boolean; message: string }> {
  const facts = await killSwitchFacts(svc);
  const cur = facts.base_currency;
  if (facts.trading_state === "HALTED") {
    const t = facts.trip;
    return {
      tripped: false,
      message: `trading is already HALTED${t ? ` (tripped on ${dayAndClock(svc.journal.run(t.run_id)?.trading_day ?? facts.as_of_trading_day, t.at)}: ${t.reason})` : ""}; nothing changed\nto resume: tradewarden killswitch reset --yes --reason "…" (or tradewarden killswitch on a terminal)\n`,
    };
  }
  const trip = await tripKillSwitch(svc, { reason });
  const held = svc.journal.liquidationStatus().remaining;
  const lines = [
    `kill switch tripped by the operator before ${dayAndClock(facts.as_of_trading_day, trip.at)}: trading is HALTED`,
    `reason: ${reason}`,
    `value ${money(trip.value, cur)}, peak ${money(trip.peak, cur)}, drawdown ${pct(trip.drawdown_pct)} (limit ${facts.max_drawdown_pct}%)`,
    held.length > 0
      ? `still held: ${held.map((h) => `${quantity(h.quantity)} ${h.symbol}`).join(", ")}; the next run that can trade sells it`
      : "nothing held: nothing to sell",
    'to resume: tradewarden killswitch reset --yes --reason "…" (or tradewarden killswitch on a terminal)',
  ];
  return { tripped: true, message: `${lines.join("\n")}\n` };
}

/** Tells the [notify] channels of the operator's trip just recorded; a failed channel is said on stderr, never fails the trip. */
export async function announceTrip(home: string, svc: AccountServices, io: CommandIO): Promise<void> {
  if (svc.config.notify.channels.length === 0) return;
  const trip = (await killSwitchFacts(svc)).trip;
  if (!trip) return;
  const r = await notifyTrip({ home, env: io.env, notify: svc.config.notify, currency: svc.config.account.base_currency }, trip);
  for (const d of r.deliveries) if (!d.ok) io.stderr(`tradewarden: notification to ${d.channel} failed: ${d.detail} (recorded; see tradewarden doctor)\n`);
  if (r.warning) io.stderr(`tradewarden: ${r.warning}\n`);
}

/** On a terminal: asks the person to type `word`; "yes" only for exactly that word, "interrupted" on Ctrl+C. */
export async function confirmByTyping(word: string): Promise<"yes" | "no" | "interrupted"> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const ac = new AbortController();
  rl.on("SIGINT", () => ac.abort());
  try {
    const answer = await rl.question(`this halts trading and sells every holding at the next run that can trade; type ${word} to confirm: `, {
      signal: ac.signal,
    });
    return answer.trim() === word ? "yes" : "no";
  } catch {
    process.stderr.write("\n");
    return "interrupted";
  } finally {
    rl.close();
  }
}
