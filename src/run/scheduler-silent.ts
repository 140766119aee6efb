/**
 * The silent scheduler: no tick beat for longer than two tick intervals while a schedule slot was
 * due. `tradewarden tick` (finding the previous heartbeat too old) and `doctor` both call this one
 * function; it says so on the given stream and is where the notification of a silent scheduler is sent.
 */
import type { NotifyConfig } from "../config/notify-schema.js";
import { notifySchedulerSilent } from "../notify/notify.js";

export interface SilentScheduler {
  home: string;
  /** The last heartbeat (ISO 8601); null when there never was one since install. */
  lastHeartbeat: string | null;
  minutesSilent: number;
  /** The slot that was due: "morning of 2026-12-02". */
  missed: string;
  /** The [notify] channels to tell (the tick passes them; doctor only reports, it sends nothing). */
  notify?: NotifyConfig;
}

export async function schedulerSilent(s: SilentScheduler, say: (line: string) => void): Promise<void> {
  say(`the scheduler was silent for ${s.minutesSilent} min (last heartbeat ${s.lastHeartbeat ?? "never"}; slot ${s.missed} was due) in ${s.home}`);
  if (!s.notify) return;
  const sent = await notifySchedulerSilent(
    { home: s.home, notify: s.notify, env: process.env },
    { minutesSilent: s.minutesSilent, lastHeartbeat: s.lastHeartbeat },
  );
  if (sent.warning) say(sent.warning);
}
