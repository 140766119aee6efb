/**
 * The schedule's clock, pure: which slot's window is open at an instant (on the market's weekdays,
 * in the market's time zone), the windows still ahead, and whether the scheduler has been silent
 * while a slot was due. Trading days beyond weekdays (holidays) are the market calendar's to say:
 * `isTradingDay` when the caller knows it.
 */
import { DateTime } from "luxon";
import { minuteOfDay, type ScheduleConfig, TICK_MINUTES } from "../config/schedule.js";

/** One slot on one market day: its window as instants. */
export interface SlotWindow {
  slot: string;
  /** The market's date (YYYY-MM-DD). */
  day: string;
  /** `${day} ${slot}`: what attempts are counted by. */
  key: string;
  opens: Date;
  closes: Date;
}

type DayFilter = (day: string) => boolean;
const weekday = (d: DateTime) => d.weekday <= 5;

function windowsOn(date: DateTime, cfg: ScheduleConfig): SlotWindow[] {
  const day = date.toISODate() ?? "";
  return cfg.slots
    .map((s) => {
      const at = (hhmm: string) =>
        date
          .startOf("day")
          .plus({ minutes: minuteOfDay(hhmm) })
          .toJSDate();
      return { slot: s.name, day, key: `${day} ${s.name}`, opens: at(s.start), closes: at(s.end) };
    })
    .sort((a, b) => a.opens.getTime() - b.opens.getTime());
}

/** The slot whose window holds `now` on a market weekday, if any. */
export function slotAt(now: Date, cfg: ScheduleConfig): SlotWindow | null {
  const local = DateTime.fromJSDate(now, { zone: cfg.timezone });
  if (!weekday(local)) return null;
  return windowsOn(local, cfg).find((w) => w.opens <= now && now < w.closes) ?? null;
}

/** The windows that close after `from`, in order, on weekdays that `isTradingDay` allows (at most `count`, within 3 weeks). */
export function windowsAfter(from: Date, cfg: ScheduleConfig, count: number, isTradingDay: DayFilter = () => true): SlotWindow[] {
  const out: SlotWindow[] = [];
  let date = DateTime.fromJSDate(from, { zone: cfg.timezone }).startOf("day");
  for (let i = 0; i < 21 && out.length < count; i++, date = date.plus({ days: 1 })) {
    if (!weekday(date) || !isTradingDay(date.toISODate() ?? "")) continue;
    for (const w of windowsOn(date, cfg)) if (w.closes > from && out.length < count) out.push(w);
  }
  return out;
}

/** How long after a heartbeat the next one is owed: two tick intervals (one tick may be late or skipped). */
const HEARTBEAT_GRACE_MS = 2 * TICK_MINUTES * 60_000;

/**
 * The first slot window that was due while no tick beat: open for a tick's length between the
 * heartbeat's grace and `now`. Null when the scheduler has kept time (nights, weekends and
 * holidays are not silence: no slot was due).
 */
export function silentThrough(heartbeatAt: Date, now: Date, cfg: ScheduleConfig, isTradingDay?: DayFilter): SlotWindow | null {
  const owed = new Date(heartbeatAt.getTime() + HEARTBEAT_GRACE_MS);
  if (owed >= now) return null;
  for (const w of windowsAfter(owed, cfg, 40, isTradingDay)) {
    if (w.opens >= now) return null;
    const missedFrom = Math.max(w.opens.getTime(), owed.getTime());
    if (missedFrom + TICK_MINUTES * 60_000 <= Math.min(now.getTime(), w.closes.getTime())) return w;
  }
  return null;
}

/** An instant as a person reads it in a time zone: "2026-12-02 10:30 EST". */
export function localTime(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone }).toFormat("yyyy-LL-dd HH:mm ZZZZ");
}
