/**
 * Each channel's wire form of a message. Slack: `{"text": …}`; Discord: `{"content": …}` (its
 * 2,000-character limit kept); ntfy: the text as the POST body with Title, Priority and Tags headers
 * and the token as a Bearer token; the generic webhook: the message object as JSON; a command: the
 * message as JSON on stdin. Pure.
 */
import type { ChannelKind } from "../config/notify-schema.js";
import type { NotifyMessage, Priority } from "./message.js";

export interface HttpRequest {
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = { "content-type": "application/json", "user-agent": "tradewarden-notify" };
const DISCORD_MAX = 2000;

const NTFY_PRIORITY: Record<Priority, string> = { low: "2", default: "3", high: "4", urgent: "5" };
const NTFY_TAGS: Record<NotifyMessage["event"], string> = {
  approval_needed: "bell",
  executed: "white_check_mark",
  killswitch_tripped: "rotating_light",
  reconcile_failed: "warning",
  run_failed: "x",
  scheduler_silent: "hourglass",
  test: "test_tube",
};

/** A header value is Latin-1 only: anything else goes as RFC 2047 (ntfy decodes it). */
function headerText(s: string): string {
  return /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, "utf8").toString("base64")}?=`;
}

/** The message as JSON, one line (the generic webhook's body and a command's stdin). */
export const messageJson = (m: NotifyMessage): string => JSON.stringify(m);

/** The HTTP request a channel of `kind` sends for `m` (the URL is the channel's own). */
export function httpRequestOf(
  kind: Exclude<ChannelKind, "command">,
  m: NotifyMessage,
  extra: { headers: Record<string, string>; token: string | null },
): HttpRequest {
  switch (kind) {
    case "webhook":
      return { headers: { ...JSON_TYPE, ...extra.headers }, body: messageJson(m) };
    case "slack":
      return { headers: JSON_TYPE, body: JSON.stringify({ text: `*${m.title}*\n${m.text}` }) };
    case "discord": {
      const content = `**${m.title}**\n${m.text}`;
      return { headers: JSON_TYPE, body: JSON.stringify({ content: content.length > DISCORD_MAX ? `${content.slice(0, DISCORD_MAX - 1)}…` : content }) };
    }
    case "ntfy":
      return {
        headers: {
          "content-type": "text/plain; charset=utf-8",
          "user-agent": "tradewarden-notify",
          title: headerText(m.title),
          priority: NTFY_PRIORITY[m.priority],
          tags: `${NTFY_TAGS[m.event]},tradewarden`,
          ...(extra.token ? { authorization: `Bearer ${extra.token}` } : {}),
        },
        body: m.text,
      };
  }
}
