/** Calendar months in the account's time zone (luxon handles zones and daylight saving). Pure. */
import { DateTime, IANAZone } from "luxon";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";

export function assertZone(zone: string): void {
  if (!IANAZone.isValidZone(zone)) {
    throw new TwError("invalid_timezone", `"${zone}" is not an IANA time zone (e.g. Australia/Sydney)`, EXIT.USAGE_OR_CONFIG);
  }
}

/**
 * The last few windows computed per zone, newest first: the quota and spend checks ask for the same
 * months many times a run (a simulated day asks for its simulated month and the wall-clock one).
 */
const recentWindows = new Map<string, { key: string; start: number; end: number }[]>();
const WINDOWS_KEPT = 4;

/** The calendar month containing `at` in `zone`: its key (YYYY-MM) and [start, end) in epoch ms. */
export function monthWindow(at: Date, zone: string): { key: string; start: number; end: number } {
  const ms = at.getTime();
  const recent = recentWindows.get(zone) ?? [];
  const hit = recent.find((w) => ms >= w.start && ms < w.end);
  if (hit) return { ...hit };
  const local = DateTime.fromJSDate(at, { zone }).startOf("month");
  const w = { key: local.toFormat("yyyy-MM"), start: local.toMillis(), end: local.plus({ months: 1 }).toMillis() };
  if (Number.isFinite(w.start) && Number.isFinite(w.end)) recentWindows.set(zone, [w, ...recent].slice(0, WINDOWS_KEPT));
  return { ...w };
}

export function toMs(at: string | Date): number {
  const ms = typeof at === "string" ? Date.parse(at) : at.getTime();
  if (!Number.isFinite(ms)) throw new TwError("invalid_time", `"${String(at)}" is not a valid time`, EXIT.INTERNAL_ERROR);
  return ms;
}

export const iso = (at: string | Date): string => new Date(toMs(at)).toISOString();

/** First index i in the ascending array with a[i] >= x. */
export function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
