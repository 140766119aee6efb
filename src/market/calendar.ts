/** A trading calendar: the sorted set of days on which the market data has bars. */
export class TradingCalendar {
  readonly days: readonly string[];

  /** Any days, in any order, repeats allowed. An array already strictly ascending is taken as is (copied). */
  constructor(days: Iterable<string>) {
    this.days = Array.isArray(days) && isStrictlyAscending(days) ? days.slice() : [...new Set(days)].sort();
  }

  /**
   * The calendar of several day lists (each a series' dates): their sorted union. Lists that are
   * already ascending (the usual case: every bar file is) are merged in linear time, and a list that
   * adds no new day costs one walk; anything else falls back to sorting the set of all days.
   */
  static union(lists: Iterable<readonly string[]>): TradingCalendar {
    const all = [...lists];
    const merged = unionOfAscending(all);
    if (merged) return new TradingCalendar(merged);
    const set = new Set<string>();
    for (const l of all) for (const d of l) set.add(d);
    return new TradingCalendar(set);
  }

  get first(): string | undefined {
    return this.days[0];
  }

  get last(): string | undefined {
    return this.days[this.days.length - 1];
  }

  isTradingDay(day: string): boolean {
    return this.days[this.firstIndexAtOrAfter(day, false)] === day;
  }

  /** The first trading day strictly after `day`. */
  next(day: string): string | undefined {
    return this.days[this.firstIndexAtOrAfter(day, true)];
  }

  /** The first trading day on or after `day`. */
  onOrAfter(day: string): string | undefined {
    return this.days[this.firstIndexAtOrAfter(day, false)];
  }

  /** The last trading day strictly before `day`. */
  previous(day: string): string | undefined {
    const i = this.firstIndexAtOrAfter(day, false);
    return i > 0 ? this.days[i - 1] : undefined;
  }

  /** How many trading days lie strictly before `day`. */
  countBefore(day: string): number {
    return this.firstIndexAtOrAfter(day, false);
  }

  private firstIndexAtOrAfter(day: string, strict: boolean): number {
    const days = this.days;
    let lo = 0;
    let hi = days.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (days[mid]! < day) lo = mid + 1;
      else hi = mid;
    }
    return strict && lo < days.length && days[lo] === day ? lo + 1 : lo;
  }
}

function isStrictlyAscending(days: readonly unknown[]): days is string[] {
  for (let i = 0; i < days.length; i++) {
    const d = days[i];
    if (typeof d !== "string") return false;
    if (i > 0 && !((days[i - 1] as string) < d)) return false;
  }
  return true;
}

/** Sorted union of ascending lists (repeats inside a list allowed); undefined if a list is out of order. */
function unionOfAscending(lists: readonly (readonly string[])[]): string[] | undefined {
  let longest: readonly string[] = [];
  for (const l of lists) if (l.length > longest.length) longest = l;
  let acc: string[] = [];
  for (let i = 0; i < longest.length; i++) {
    const d = longest[i]!;
    const last = acc[acc.length - 1];
    if (last === undefined || last < d) acc.push(d);
    else if (last !== d) return undefined;
  }
  for (const l of lists) {
    if (l === longest) continue;
    // Walk l against acc: typically every day of l is already there.
    let i = 0;
    let j = 0;
    let extra = false;
    for (; j < l.length; j++) {
      const d = l[j]!;
      if (j > 0 && d < l[j - 1]!) return undefined;
      if (acc[i] === d) {
        i++;
        continue;
      }
      while (i < acc.length && acc[i]! < d) i++;
      if (acc[i] === d) i++;
      else {
        extra = true;
        break;
      }
    }
    if (!extra) continue;
    for (let k = j + 1; k < l.length; k++) if (l[k]! < l[k - 1]!) return undefined;
    const out: string[] = [];
    i = 0;
    j = 0;
    while (i < acc.length || j < l.length) {
      const a = acc[i];
      const b = l[j];
      let d: string;
      if (b === undefined || (a !== undefined && a < b)) {
        d = a!;
        i++;
      } else if (a === undefined || b < a) {
        d = b;
        j++;
      } else {
        d = a;
        i++;
        j++;
      }
      if (out.length === 0 || out[out.length - 1]! < d) out.push(d);
    }
    acc = out;
  }
  return acc;
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD. */
export function isIsoDay(s: string): boolean {
  const m = ISO_DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}
