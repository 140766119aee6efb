/**
 * How old a cited evidence item is, in trading days: the one computation behind the approval
 * screen's "stale (N trading days)" and check_orders' `stale_evidence`. Pure: the run layer
 * supplies the calendar (src/market/calendar.ts satisfies `SessionCalendar`) and the trading day.
 */
import { type Static, Type } from "@sinclair/typebox";

/** What the age needs of a trading calendar: its sorted days and a count of the days before a day. */
export interface SessionCalendar {
  readonly days: readonly string[];
  countBefore(day: string): number;
}

/** One cited item's age: the day it is dated (`published` or `as_of`) and the trading days since. */
const EvidenceAgeSchema = Type.Object(
  {
    evidence_id: Type.String(),
    day: Type.String({ description: "The item's date: a news item's `published`, a price or portfolio item's `as_of`." }),
    age_trading_days: Type.Integer({ minimum: 0, description: "Trading days after `day` up to and including the run's trading day." }),
    stale: Type.Boolean({ description: "Older than research.stale_evidence_days." }),
  },
  { additionalProperties: false },
);
export type EvidenceAge = Static<typeof EvidenceAgeSchema>;

/** A stale cited item as check_orders lists it on the order (its age, without the flag). */
export const StaleEvidenceSchema = Type.Omit(EvidenceAgeSchema, ["stale"], {
  additionalProperties: false,
  description: "A cited item older than research.stale_evidence_days: information, not a block.",
});
export type StaleEvidence = Static<typeof StaleEvidenceSchema>;

const DAY_RE = /^(\d{4}-\d{2}-\d{2})/;

/** An evidence item's date (YYYY-MM-DD): `published` (news) or else `as_of` (prices, portfolio); undefined if it has neither. */
export function evidenceDay(item: unknown): string | undefined {
  if (item === null || typeof item !== "object") return undefined;
  for (const key of ["published", "as_of"]) {
    const v = (item as Record<string, unknown>)[key];
    const m = typeof v === "string" ? DAY_RE.exec(v) : null;
    if (m) return m[1];
  }
  return undefined;
}

/** Monday–Friday days in [from, to) (ISO dates): the estimate outside the calendar's range. */
function weekdaysBetween(from: string, to: string): number {
  let n = 0;
  const d = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || Number.isNaN(end.getTime())) return 0;
  for (; d < end; d.setUTCDate(d.getUTCDate() + 1)) {
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6) n++;
  }
  return n;
}

/** The day after an ISO date. */
function dayAfter(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Trading days after `from` up to and including `to` (0 when `from` is on or after `to`): a price
 * as of the previous session is 1 day old, news of the Saturday before a Monday run 1 day old too.
 * The calendar counts within its range; beyond it (news older than the data, a live day past the
 * last bar) Monday–Friday days are counted.
 */
export function tradingDaysBetween(cal: SessionCalendar, from: string, to: string): number {
  if (from >= to) return 0;
  const first = cal.days[0];
  const last = cal.days[cal.days.length - 1];
  if (first === undefined || last === undefined) return weekdaysBetween(dayAfter(from), dayAfter(to));
  // Calendar days d with from < d <= to (countBefore clamps outside the range by itself).
  const upTo = (x: string): number => cal.countBefore(dayAfter(x));
  let n = upTo(to) - upTo(from);
  if (from < first) n += weekdaysBetween(dayAfter(from), to < first ? dayAfter(to) : first);
  if (to > last) n += weekdaysBetween(dayAfter(from > last ? from : last), dayAfter(to));
  return n;
}

/**
 * The age of every cited id whose item carries a date, in citation order (ids repeated once).
 * An item older than `staleAfter` trading days is stale.
 */
export function evidenceAges(
  ids: readonly string[],
  items: Readonly<Record<string, unknown>>,
  cal: SessionCalendar,
  tradingDay: string,
  staleAfter: number,
): EvidenceAge[] {
  const out: EvidenceAge[] = [];
  for (const id of new Set(ids)) {
    const day = evidenceDay(items[id]);
    if (day === undefined) continue;
    const age = tradingDaysBetween(cal, day, tradingDay);
    out.push({ evidence_id: id, day, age_trading_days: age, stale: age > staleAfter });
  }
  return out;
}

/** The cited items older than `staleAfter` trading days, with their ages (check_orders' `stale_evidence`). */
export function staleEvidence(
  ids: readonly string[],
  items: Readonly<Record<string, unknown>>,
  cal: SessionCalendar,
  tradingDay: string,
  staleAfter: number,
): StaleEvidence[] {
  return evidenceAges(ids, items, cal, tradingDay, staleAfter)
    .filter((a) => a.stale)
    .map((a) => ({ evidence_id: a.evidence_id, day: a.day, age_trading_days: a.age_trading_days }));
}
