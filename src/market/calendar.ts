/** A trading calendar: the sorted set of days on which the market data has bars. */
export class TradingCalendar {
  readonly days: readonly string[];
  private readonly index: Map<string, number>;

  constructor(days: Iterable<string>) {
    this.days = [...new Set(days)].sort();
    this.index = new Map(this.days.map((d, i) => [d, i]));
  }

  get first(): string | undefined {
    return this.days[0];
  }

  get last(): string | undefined {
    return this.days[this.days.length - 1];
  }

  isTradingDay(day: string): boolean {
    return this.index.has(day);
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
    const exact = this.index.get(day);
    if (exact !== undefined) return strict ? exact + 1 : exact;
    let lo = 0;
    let hi = this.days.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.days[mid]! < day) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD. */
export function isIsoDay(s: string): boolean {
  const m = ISO_DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}
