/**
 * Notifications, the entry points: `notify` sends a notice to every channel that takes its event and
 * records each delivery in the home; `notifySchedulerSilent` is the scheduler's; `pingChannels` sends
 * a test message to every channel (doctor --ping) without recording it. Bounded by `[notify]
 * timeout_s` and never throws: a channel that fails or hangs is a delivery that says so.
 */
import type { NotifyConfig } from "../config/notify-schema.js";
import { type Channel, channelsOf } from "./channels.js";
import { type Delivery, recordDeliveries } from "./deliveries.js";
import type { Notice } from "./message.js";
import { sendAll } from "./send.js";
import { messageOf } from "./text.js";

export interface NotifyTarget {
  home: string;
  notify: NotifyConfig;
  env: NodeJS.ProcessEnv;
  now?: () => Date;
}

export interface NotifyResult {
  deliveries: Delivery[];
  /** Why the deliveries could not be recorded in the home, when they could not. */
  warning: string | null;
}

const wants = (ch: Channel, notice: Notice): boolean => notice.event === "test" || ch.events.includes(notice.event);

async function send(t: NotifyTarget, notice: Notice, record: boolean): Promise<NotifyResult> {
  const channels = channelsOf(t.notify, t.env).filter((ch) => wants(ch, notice));
  if (channels.length === 0) return { deliveries: [], warning: null };
  const message = messageOf(notice, (t.now ?? (() => new Date()))());
  const deliveries = await sendAll(channels, message, t.env, t.notify.timeout_s * 1000);
  return { deliveries, warning: record ? recordDeliveries(t.home, deliveries) : null };
}

/** Sends `notice` to every channel that takes its event, records each delivery in the home. Never throws. */
export function notify(t: NotifyTarget, notice: Notice): Promise<NotifyResult> {
  return send(t, notice, true);
}

/**
 * The scheduler has not been heard from: `minutesSilent` minutes since its last heartbeat
 * (`lastHeartbeat`, null when there never was one). Sent to every channel that takes
 * `scheduler_silent`, recorded like every delivery. Never throws.
 */
export function notifySchedulerSilent(t: NotifyTarget, silent: { minutesSilent: number; lastHeartbeat: Date | string | null }): Promise<NotifyResult> {
  const last = silent.lastHeartbeat instanceof Date ? silent.lastHeartbeat.toISOString() : silent.lastHeartbeat;
  return send(t, { event: "scheduler_silent", minutes_silent: Math.max(0, Math.floor(silent.minutesSilent)), last_heartbeat: last }, true);
}

/** A test message to every channel, whatever its events (doctor --ping); not recorded (doctor writes nothing). */
export function pingChannels(t: NotifyTarget): Promise<NotifyResult> {
  return send(t, { event: "test", reason: "a test message from tradewarden doctor --ping" }, false);
}
