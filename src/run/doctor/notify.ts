/**
 * Doctor: each notification channel ([notify]): configured (its secret variable set; where it sends
 * said without a secret), its last delivery delivered or failed with the reason (from
 * `<home>/notify/deliveries.jsonl`), and with --ping a test message to each and its answer (not
 * recorded: doctor writes nothing).
 */
import { channelsOf } from "../../notify/channels.js";
import { readDeliveries } from "../../notify/deliveries.js";
import { pingChannels } from "../../notify/notify.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

const PING_FIX = "check the channel's receiver and its [notify] keys; `tradewarden doctor --ping` sends a test message to each channel";

export async function notifyChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  if (!ctx.config) return [];
  const notify = ctx.config.notify;
  const channels = channelsOf(notify, ctx.env);
  if (channels.length === 0) return [pass("notify", "notify.channels", "no notification channels ([notify]): nothing is sent when a run needs you")];
  const deliveries = readDeliveries(ctx.home);
  const out: DoctorCheck[] = channels.map((ch) => {
    const id = `notify.${ch.name}`;
    const label = `${ch.name} (${ch.kind} → ${ch.where})`;
    if (ch.target.type === "unusable")
      return fail("notify", id, `${label}: cannot be used: ${ch.target.problem}`, "set the variable, or give the value in [notify]");
    const last = deliveries.findLast((d) => d.channel === ch.name);
    const details = { kind: ch.kind, events: ch.events, ...(last ? { last } : {}) };
    if (!last) return pass("notify", id, `${label}: configured; nothing sent yet (events: ${ch.events.join(", ")})`, details);
    if (last.ok) return pass("notify", id, `${label}: last delivery ok at ${last.at} (${last.event}, ${last.detail})`, details);
    return fail("notify", id, `${label}: last delivery failed at ${last.at} (${last.event}): ${last.detail}`, PING_FIX, details);
  });
  if (!ctx.ping) return out;
  const { deliveries: pinged } = await pingChannels({ home: ctx.home, notify, env: ctx.env, now: () => ctx.now });
  for (const d of pinged) {
    const id = `notify.${d.channel}.ping`;
    out.push(
      d.ok
        ? pass("notify", id, `${d.channel}: test message delivered (${d.detail})`)
        : fail("notify", id, `${d.channel}: test message failed: ${d.detail}`, PING_FIX),
    );
  }
  return out;
}
