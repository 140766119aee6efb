/**
 * Doctor: the schedule. Not installed is not a problem (the daily run can be started by hand);
 * installed, the heartbeat must have beaten through every slot that was due (silent otherwise), and
 * the last slot must not have used all its attempts without a run that ended it.
 */
import { openJournal } from "../../journal/journal.js";
import { MarketData } from "../../market/data.js";
import { scheduleStatus } from "../../schedule/status.js";
import { schedulerNow } from "../../util/test-clock.js";
import { simTradingDay } from "../market-open.js";
import { schedulerSilent } from "../scheduler-silent.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

export async function scheduleChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  if (!ctx.config) return [];
  const config = ctx.config;
  // A journal that does not open is the home check's finding; the schedule is read without its runs.
  const runs = await openJournal(ctx.home, { timezone: config.account.timezone, readOnly: true, ...(ctx.notice ? { notice: ctx.notice } : {}) }).then(
    (j) => j.runs(),
    () => [],
  );
  const market = config.broker.kind === "sim" ? MarketData.load({ home: ctx.home }) : null;
  const s = scheduleStatus({
    home: ctx.home,
    schedule: config.schedule,
    accountTimezone: config.account.timezone,
    now: schedulerNow(),
    runs,
    ...(market ? { isTradingDay: (day: string) => simTradingDay(market, day) } : {}),
  });
  const details = { installed: s.installed?.kind ?? null, heartbeat: s.heartbeat, last: s.last.slice(-3), silent: s.silent };
  if (!s.installed) {
    return [
      pass(
        "schedule",
        "schedule.installed",
        "the schedule is not installed: runs start by hand (`tradewarden schedule install` runs them in the [schedule] slots)",
        details,
      ),
    ];
  }
  const kind = s.installed.kind === "systemd" ? "a systemd user timer" : "a crontab entry";
  const checks: DoctorCheck[] = [];
  if (s.silent) {
    await schedulerSilent(
      { home: ctx.home, lastHeartbeat: s.heartbeat?.at ?? null, minutesSilent: s.silent.minutes, missed: `${s.silent.slot} of ${s.silent.day}` },
      () => {},
    );
    const fix =
      s.installed.kind === "systemd"
        ? "see `systemctl --user status tradewarden-tick.timer` and `journalctl --user -u tradewarden-tick`; `tradewarden schedule install` sets it up again"
        : "see `crontab -l` and <home>/schedule/tick.log; `tradewarden schedule install` sets it up again";
    checks.push(
      fail(
        "schedule",
        "schedule.heartbeat",
        `installed (${kind}) but silent: no tick for ${s.silent.minutes} min while slot ${s.silent.slot} of ${s.silent.day} was due`,
        fix,
        details,
      ),
    );
  } else {
    const beat = s.heartbeat ? `last tick ${s.heartbeat.age_minutes} min ago` : "no tick yet";
    checks.push(pass("schedule", "schedule.heartbeat", `installed (${kind}); ${beat}`, details));
  }
  const last = s.last.filter((r) => r.kind === "attempt").at(-1);
  if (last && last.attempt >= s.attempts_per_slot && [1, 4, 130].includes(last.exit_code)) {
    checks.push(
      fail(
        "schedule",
        "schedule.attempts",
        `slot ${last.slot} of ${last.day} used all ${s.attempts_per_slot} attempts; the last ended with exit ${last.exit_code}${last.message ? `: ${last.message}` : ""}`,
        "see `tradewarden schedule status` and the run's log (`tradewarden journal`); fix the cause before the next slot",
        details,
      ),
    );
  } else if (last) {
    checks.push(pass("schedule", "schedule.attempts", `last attempt: slot ${last.slot} of ${last.day}, attempt ${last.attempt}, exit ${last.exit_code}`));
  }
  return checks;
}
