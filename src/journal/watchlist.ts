/**
 * The watchlist collection of the journal: instruments the agent keeps an eye on, each with a
 * reason, a relative expiry in trading days and optional price alerts. Stored as `watch` events in
 * the journal's log; this module holds the records, the pure fold and the queries.
 */
import type { Static } from "@sinclair/typebox";
import type { WatchEvent as WatchEventSchema, WatchItem as WatchItemSchema } from "./schemas.js";

export type WatchItem = Static<typeof WatchItemSchema>;
export type WatchEvent = Static<typeof WatchEventSchema>;

export interface WatchState {
  items: Map<string, WatchItem>;
  seq: number;
}

export const MAX_LIVE_WATCH_ITEMS = 30;

export function emptyWatchState(): WatchState {
  return { items: new Map(), seq: 0 };
}

export function applyWatch(s: WatchState, ev: WatchEvent): void {
  if (ev.kind === "add") {
    s.items.set(ev.item.id, { ...ev.item });
    const m = /^w-(\d+)$/.exec(ev.item.id);
    if (m) s.seq = Math.max(s.seq, Number(m[1]));
    return;
  }
  const item = s.items.get(ev.id);
  if (item && item.status === "live") {
    item.status = "removed";
    item.removed_at = ev.at;
    item.removed_by_run = ev.run_id;
    item.removed_reason = ev.reason;
  }
}

/** Items shown on `tradingDay`: live and not past their last day, oldest first. */
export function activeWatchItems(s: WatchState, tradingDay: string): WatchItem[] {
  return [...s.items.values()].filter((i) => i.status === "live" && i.expires_on >= tradingDay).map((i) => ({ ...i }));
}

/** The trading day `n` trading days after `day` on `calendar` (ascending); past its end, weekdays. */
export function addTradingDays(calendar: readonly string[], day: string, n: number): string {
  const start = lowerBoundDay(calendar, day);
  const target = calendar[start] === day ? start + n : start + n - 1;
  if (target < calendar.length) return calendar[target] as string;
  const last = calendar[calendar.length - 1];
  let d = last !== undefined && last > day ? last : day;
  for (let left = target - (calendar.length - 1); left > 0; left--) d = nextWeekday(d);
  return d;
}

/** Trading days on `calendar` strictly after `from`, up to and including `to`. */
export function tradingDaysBetween(calendar: readonly string[], from: string, to: string): number {
  const atOrBefore = (d: string) => lowerBoundDay(calendar, d) + (calendar[lowerBoundDay(calendar, d)] === d ? 1 : 0);
  return Math.max(0, atOrBefore(to) - atOrBefore(from));
}

function nextWeekday(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
  return d.toISOString().slice(0, 10);
}

function lowerBoundDay(days: readonly string[], day: string): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((days[mid] as string) < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
