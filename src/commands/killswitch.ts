/**
 * `tradewarden killswitch` (the reset screen on a terminal; the facts as text or JSON otherwise),
 * `tradewarden killswitch reset --yes --reason "…"` for scripts, and `tradewarden killswitch trip
 * --reason "…"`: an operator's halt outside an approval.
 */
import { noticeTo } from "../journal/load.js";
import { acquireLock } from "../journal/lock.js";
import { EXIT } from "../core/exit-codes.js";
import { dayAndClock, money, pct, quantity, wallClock } from "../core/format.js";
import { type KillSwitchFacts, killSwitchFacts, operatorName, resetKillSwitch } from "../run/killswitch.js";
import { createAccountServices } from "../run/services.js";
import { TwError } from "../core/errors.js";
import { prepareInkForTerminal } from "../util/terminal-env.js";
import type { CommandIO } from "./io.js";
import { announceTrip, confirmByTyping, tripByOperator } from "./killswitch-trip.js";

/** The facts in plain lines; `tripDay` is the trading day the trip belongs to (its run's). */
export function describeFacts(f: KillSwitchFacts, tripDay: string = f.as_of_trading_day): string {
  const lines: string[] = [];
  lines.push(`trading state: ${f.trading_state}`);
  if (f.trip) {
    lines.push(`tripped on ${dayAndClock(tripDay, f.trip.at)} in run ${f.trip.run_id}: ${f.trip.reason}`);
    lines.push(
      `  at the trip: value ${money(f.trip.value, f.base_currency)}, peak ${money(f.trip.peak, f.base_currency)}, drawdown ${pct(f.trip.drawdown_pct)}`,
    );
  }
  lines.push(
    `now (prices before ${f.as_of_trading_day}): value ${money(f.current_value, f.base_currency)}, peak ${f.peak === null ? "—" : money(f.peak, f.base_currency)}, drawdown ${f.drawdown_pct === null ? "—" : pct(f.drawdown_pct)} (limit ${f.max_drawdown_pct}%)`,
  );
  if (f.trading_state === "HALTED") {
    const l = f.liquidation;
    lines.push(
      l.complete
        ? "liquidation: complete (nothing left to sell)"
        : `liquidation: ${l.remaining.map((r) => `${quantity(r.quantity)} ${r.symbol}`).join(", ")} still held; the next run that can trade sells it`,
    );
    lines.push(
      `a reset makes ${money(f.current_value, f.base_currency)} the new peak and leaves the account REDUCING (sells only) for ${f.reducing_runs_after_reset} run(s)`,
    );
  } else if (f.trading_state === "REDUCING") {
    lines.push(`REDUCING: sells only for ${f.reducing_runs_left} more run(s)`);
  }
  if (f.trading_state !== "HALTED") lines.push('nothing to reset; to halt trading now: tradewarden killswitch trip --reason "…"');
  if (f.unpriced.length > 0) lines.push(`no price for ${f.unpriced.join(", ")}: the value leaves them out`);
  return `${lines.join("\n")}\n`;
}

export async function cmdKillSwitchShow(opts: { home: string; json: boolean; interactive: boolean }, io: CommandIO): Promise<number> {
  if (opts.interactive && !opts.json) {
    // The reset screen writes the journal: take the lock for as long as it is open.
    const lock = await acquireLock(opts.home, "reset");
    try {
      const svc = await createAccountServices(opts.home, io.env, { notice: noticeTo(io.stderr) });
      prepareInkForTerminal();
      const { runKillSwitchScreen } = await import("./killswitch-screen.js");
      const { reset, tripped, interrupted } = await runKillSwitchScreen(svc, io.env);
      if (tripped) await announceTrip(opts.home, svc, io);
      io.stdout(
        reset
          ? "kill switch reset recorded in the journal\n"
          : tripped
            ? "kill switch tripped: recorded in the journal\n"
            : interrupted
              ? "interrupted: no change\n"
              : "no change\n",
      );
      return interrupted ? EXIT.INTERRUPTED : EXIT.OK;
    } finally {
      await lock.release();
    }
  }
  const svc = await createAccountServices(opts.home, io.env, { readOnly: true, requireInitialised: true, notice: noticeTo(io.stderr) });
  const facts = await killSwitchFacts(svc);
  io.stdout(
    opts.json
      ? `${JSON.stringify(facts, null, 2)}\n`
      : describeFacts(facts, (facts.trip && svc.journal.run(facts.trip.run_id)?.trading_day) || facts.as_of_trading_day),
  );
  return EXIT.OK;
}

export async function cmdKillSwitchReset(opts: { home: string; yes: boolean; reason?: string; who?: string }, io: CommandIO): Promise<number> {
  if (!opts.yes) {
    io.stderr("tradewarden killswitch reset: resetting the kill switch resumes trading; confirm with --yes (or use `tradewarden killswitch` on a terminal)\n");
    return EXIT.USAGE_OR_CONFIG;
  }
  if (!opts.reason?.trim()) {
    io.stderr('tradewarden killswitch reset: a reason is required: --reason "…"\n');
    return EXIT.USAGE_OR_CONFIG;
  }
  const lock = await acquireLock(opts.home, "reset");
  try {
    const svc = await createAccountServices(opts.home, io.env, { requireInitialised: true, notice: noticeTo(io.stderr) });
    const reset = await resetKillSwitch(svc, { who: opts.who ?? operatorName(io.env), reason: opts.reason });
    const session = (await killSwitchFacts(svc)).as_of_trading_day;
    io.stdout(
      `kill switch reset by ${reset.who} before trading day ${session} (at ${wallClock(reset.at)}): new peak ${money(reset.new_peak, svc.journal.baseCurrency())}; REDUCING (sells only) for ${reset.reducing_runs} run(s)\nreason: ${reset.reason}\n`,
    );
    return EXIT.OK;
  } catch (e) {
    if (e instanceof TwError) {
      io.stderr(`tradewarden killswitch reset: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  } finally {
    await lock.release();
  }
}

const TRIP_WORD = "TRIP";

/**
 * Halts trading now, recorded as the approval screen's operator trip. A reason is required; on a
 * terminal, `--yes` or typing the confirmation word. Already HALTED: says so and changes nothing.
 */
export async function cmdKillSwitchTrip(opts: { home: string; yes: boolean; reason?: string; interactive: boolean }, io: CommandIO): Promise<number> {
  const reason = opts.reason?.trim();
  if (!reason) {
    io.stderr('tradewarden killswitch trip: a reason is required: --reason "…"\n');
    return EXIT.USAGE_OR_CONFIG;
  }
  if (opts.interactive && !opts.yes) {
    const answer = await confirmByTyping(TRIP_WORD);
    if (answer === "interrupted") {
      io.stdout("interrupted: no change\n");
      return EXIT.INTERRUPTED;
    }
    if (answer === "no") {
      io.stderr(`tradewarden killswitch trip: not confirmed (type ${TRIP_WORD}, or pass --yes); no change\n`);
      return EXIT.USAGE_OR_CONFIG;
    }
  }
  const lock = await acquireLock(opts.home, "reset");
  try {
    const svc = await createAccountServices(opts.home, io.env, { requireInitialised: true, notice: noticeTo(io.stderr) });
    const r = await tripByOperator(svc, reason);
    io.stdout(r.message);
    if (r.tripped) await announceTrip(opts.home, svc, io);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof TwError) {
      io.stderr(`tradewarden killswitch trip: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  } finally {
    await lock.release();
  }
}
