/**
 * What `schedule status` (and doctor's schedule check) know of the schedule, as one JSON-ready
 * shape: installed or not, the slots, the next slot in the market's and the account's time zone,
 * the heartbeat and its age (silent when a slot was due without a tick), the last attempts and
 * skips, and the journal's runs split into scheduled and manual.
 */
import { DateTime } from "luxon";
import type { ScheduleConfig } from "../config/schedule.js";
import type { RunRecord } from "../journal/types.js";
import { localTime, silentThrough, windowsAfter } from "./slots.js";
import { type InstallRecord, readHeartbeat, readInstall, readLog, type ScheduleLogRecord, slotState } from "./store.js";

export interface ScheduleStatus {
  installed: InstallRecord | null;
  timezone: string;
  account_timezone: string;
  mode: ScheduleConfig["mode"];
  attempts_per_slot: number;
  slots: ScheduleConfig["slots"];
  now: string;
  next_slot: { slot: string; day: string; opens: string; market_time: string; account_time: string } | null;
  heartbeat: { at: string; age_minutes: number; did: string } | null;
  /** A slot that was due while no tick beat since the last heartbeat (or since install), if any. */
  silent: { slot: string; day: string; since: string; minutes: number } | null;
  last: ScheduleLogRecord[];
  unreadable_lines: number;
  runs: { scheduled: number; manual: number; recent: Array<Pick<RunRecord, "run_id" | "trading_day" | "outcome" | "exit_code"> & { trigger: string }> };
}

export interface StatusInputs {
  home: string;
  schedule: ScheduleConfig;
  accountTimezone: string;
  now: Date;
  runs: readonly RunRecord[];
  /** The market calendar, where known (the simulated broker's). */
  isTradingDay?: (day: string) => boolean;
}

export function scheduleStatus(i: StatusInputs): ScheduleStatus {
  const cfg = i.schedule;
  const { records, unreadable } = readLog(i.home);
  const installed = readInstall(i.home);
  const beat = readHeartbeat(i.home);
  const open = windowsAfter(i.now, cfg, 20, i.isTradingDay).find((w) => {
    const st = slotState(records, w, cfg.attempts);
    return st.done === null && !st.exhausted;
  });
  const since = beat ? new Date(beat.at) : installed ? new Date(installed.installed_at) : null;
  const missed = installed && since ? silentThrough(since, i.now, cfg, i.isTradingDay) : null;
  const minutesSince = (at: Date) => Math.max(0, Math.floor((i.now.getTime() - at.getTime()) / 60_000));
  return {
    installed,
    timezone: cfg.timezone,
    account_timezone: i.accountTimezone,
    mode: cfg.mode,
    attempts_per_slot: cfg.attempts,
    slots: cfg.slots,
    now: i.now.toISOString(),
    next_slot: open
      ? {
          slot: open.slot,
          day: open.day,
          opens: open.opens.toISOString(),
          market_time: localTime(open.opens, cfg.timezone),
          account_time: localTime(open.opens, i.accountTimezone),
        }
      : null,
    heartbeat: beat ? { at: beat.at, age_minutes: minutesSince(new Date(beat.at)), did: beat.did } : null,
    silent: missed && since ? { slot: missed.slot, day: missed.day, since: since.toISOString(), minutes: minutesSince(since) } : null,
    last: records.slice(-10),
    unreadable_lines: unreadable,
    runs: {
      scheduled: i.runs.filter((r) => r.trigger === "scheduled").length,
      manual: i.runs.filter((r) => r.trigger !== "scheduled").length,
      recent: i.runs
        .slice(-8)
        .map((r) => ({ run_id: r.run_id, trading_day: r.trading_day, outcome: r.outcome, exit_code: r.exit_code, trigger: r.trigger ?? "manual" })),
    },
  };
}

/** The slot's window in another time zone, for a person ("10:30–11:30" → "16:30–17:30"). */
export function windowIn(hhmm: readonly [string, string], from: string, to: string, on: Date): string {
  const day = DateTime.fromJSDate(on, { zone: from }).toISODate() ?? "";
  const conv = (t: string) => DateTime.fromISO(`${day}T${t}`, { zone: from }).setZone(to).toFormat("HH:mm");
  return `${conv(hhmm[0])}–${conv(hhmm[1])}`;
}
