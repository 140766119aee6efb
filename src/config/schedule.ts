/**
 * `[schedule]`: when `tradewarden tick` starts the daily run by itself. Slots are windows of the
 * market's clock on its trading days; a tick inside a slot's window that finds the slot not yet
 * done starts the run (at most `attempts` times per slot and day). The schema is the one definition;
 * `scheduleIssues` adds the rules a schema cannot state (a window that ends after it starts, long
 * enough for a tick to land in it, windows that do not overlap, names used once).
 */
import { type Static, Type } from "@sinclair/typebox";

/** How often the installed timer runs `tradewarden tick`, minutes: a slot shorter than this could be missed. */
export const TICK_MINUTES = 15;

const HHMM = "^([01]\\d|2[0-3]):[0-5]\\d$";

const SlotSchema = Type.Object(
  {
    name: Type.String({ pattern: "^[a-z][a-z0-9_-]{0,31}$", description: "The slot's name (lower case), as attempts and status show it." }),
    start: Type.String({ pattern: HHMM, description: "The window opens at this time of the market's clock (HH:MM, 24 h)." }),
    end: Type.String({ pattern: HHMM, description: "The window closes at this time (HH:MM, exclusive): no attempt starts at or after it." }),
  },
  { additionalProperties: false },
);
type Slot = Static<typeof SlotSchema>;

export const ScheduleSchema = Type.Object(
  {
    timezone: Type.String({
      format: "iana-timezone",
      default: "America/New_York",
      description: "The market's time zone: the slots are times of its clock, on its trading days.",
    }),
    slots: Type.Array(SlotSchema, {
      minItems: 1,
      maxItems: 12,
      default: [{ name: "morning", start: "10:30", end: "11:30" }],
      description: "The windows in which a scheduled run starts, at most one run per slot and trading day.",
    }),
    attempts: Type.Integer({
      minimum: 1,
      maximum: 10,
      default: 3,
      description: "Attempts per slot and day: a run that ends with a retryable exit code (1, 4, 130) is tried again at the next tick in the window.",
    }),
    mode: Type.Unsafe<"supervised" | "yes">({
      enum: ["supervised", "yes"],
      default: "supervised",
      description:
        "supervised: the run proposes and waits for `tradewarden approve` (exit 6); yes: the run approves exactly what the final gate approves (as `run --yes`).",
    }),
  },
  { description: "When `tradewarden tick` starts the daily run by itself.", additionalProperties: false, default: {} },
);
export type ScheduleConfig = Static<typeof ScheduleSchema>;

/** Minutes after midnight of an "HH:MM" the schema has checked. */
export function minuteOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** The rules over several keys, each as { path, rule } (the loader adds the file). */
export function scheduleIssues(s: ScheduleConfig): { path: string; rule: string }[] {
  const issues: { path: string; rule: string }[] = [];
  const seen = new Map<string, number>();
  s.slots.forEach((slot: Slot, i) => {
    const at = `schedule.slots[${i}]`;
    const [from, to] = [minuteOfDay(slot.start), minuteOfDay(slot.end)];
    if (to <= from) issues.push({ path: `${at}.end`, rule: `must be after start (${slot.start}), got ${slot.end}` });
    else if (to - from < TICK_MINUTES)
      issues.push({
        path: `${at}.end`,
        rule: `the window ${slot.start}–${slot.end} is shorter than the tick interval (${TICK_MINUTES} min): a tick could miss it`,
      });
    const dup = seen.get(slot.name);
    if (dup !== undefined) issues.push({ path: `${at}.name`, rule: `"${slot.name}" is already the name of slots[${dup}]` });
    else seen.set(slot.name, i);
    s.slots.forEach((other, j) => {
      if (j >= i || to <= from) return;
      if (from < minuteOfDay(other.end) && minuteOfDay(other.start) < to)
        issues.push({ path: at, rule: `${slot.start}–${slot.end} overlaps slots[${j}] (${other.start}–${other.end})` });
    });
  });
  return issues;
}
