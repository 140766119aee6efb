/**
 * The clock of a run's trading session. On a real broker it is the wall clock. On the simulated
 * broker the session is a historical day, so the times the journal files orders under (and the
 * monthly order quota counts by) are that day's: noon in the account's time zone, plus the time
 * elapsed since the run began.
 */
import { DateTime } from "luxon";

export type SessionClock = (tradingDay: string) => () => Date;

export const wallClock: SessionClock = () => () => new Date();

export function simulatedSessionClock(timezone: string, wallNow: () => number = Date.now): SessionClock {
  return (tradingDay) => {
    const base = DateTime.fromISO(tradingDay, { zone: timezone }).set({ hour: 12 }).toMillis();
    if (!Number.isFinite(base)) throw new Error(`not a trading day: ${tradingDay}`);
    const t0 = wallNow();
    return () => new Date(base + (wallNow() - t0));
  };
}
