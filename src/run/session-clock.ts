/**
 * The clock of a run's trading session. On a real broker it is the wall clock. On the simulated
 * broker the session is a historical day, so the times the journal files orders under (and the
 * monthly order quota counts by) are that day's: noon in the account's time zone, plus the time
 * elapsed since the run began.
 */

export type SessionClock = (tradingDay: string) => () => Date;

export const wallClock: SessionClock = () => () => new Date();

/** One formatter per zone: building one is most of what reading a zone's offset costs. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The formatter's plain form, "M/D/YYYY, HH:MM:SS" (en-US, h23): read without building its parts. */
const PLAIN = /^(\d{1,2})\/(\d{1,2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/** The zone's offset from UTC at the instant `t` (ms): its wall time there, read as UTC, minus `t`. */
function offsetAt(zone: string, t: number): number {
  const f = formatterOf(zone);
  const m = PLAIN.exec(f.format(t));
  let wall: number;
  if (m) wall = Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), Number(m[4]), Number(m[5]), Number(m[6]));
  else {
    // Any other form (a year before 1000, an era): by its parts, as named.
    const parts: Record<string, number> = {};
    for (const p of f.formatToParts(t)) if (p.type !== "literal") parts[p.type] = Number(p.value);
    wall = Date.UTC(parts.year ?? Number.NaN, (parts.month ?? Number.NaN) - 1, parts.day, parts.hour, parts.minute, parts.second);
  }
  return wall - (t - (((t % 1000) + 1000) % 1000));
}

/**
 * The instant (ms since the epoch) of noon on `day` (YYYY-MM-DD) in the IANA zone `zone`; NaN for
 * a day or zone that is not one. Noon is never skipped or repeated by a daylight-saving change, so
 * the zone's offset at the first guess, checked once, is the day's.
 */
export function noonIn(day: string, zone: string): number {
  // A run asks for its day's noon several times: the last answer is kept.
  if (last.day === day && last.zone === zone) return last.at;
  const at = computeNoon(day, zone);
  last = { day, zone, at };
  return at;
}

let last = { day: "", zone: "", at: Number.NaN };

function computeNoon(day: string, zone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return Number.NaN;
  const local = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
  if (new Date(local).toISOString().slice(0, 10) !== day) return Number.NaN;
  try {
    const guess = local - offsetAt(zone, local);
    return local - offsetAt(zone, guess);
  } catch {
    return Number.NaN;
  }
}

export function simulatedSessionClock(timezone: string, wallNow: () => number = Date.now): SessionClock {
  return (tradingDay) => {
    const base = noonIn(tradingDay, timezone);
    if (!Number.isFinite(base)) throw new Error(`not a trading day: ${tradingDay}`);
    const t0 = wallNow();
    return () => new Date(base + (wallNow() - t0));
  };
}
