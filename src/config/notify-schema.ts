/**
 * `[notify]`: where tradewarden tells a person what happened while nobody sat at the terminal (a
 * proposal awaiting approval, a run executed, a kill-switch trip, a reconciliation failure, a failed
 * run, a silent scheduler). Each `[[notify.channels]]` entry is one channel of one kind; the keys a
 * kind takes are checked by `notifyIssues` (one schema for every kind keeps the messages plain). A
 * webhook URL, an ntfy topic and a token are secrets: the schema never quotes them in an error.
 * Pure data: no I/O.
 */
import { type Static, Type } from "@sinclair/typebox";
import { redactor } from "../core/redact.js";

/** The events a channel can be sent; a test ping (`doctor --ping`) goes to every channel. */
export const NOTIFY_EVENTS = ["approval_needed", "executed", "killswitch_tripped", "reconcile_failed", "run_failed", "scheduler_silent"] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

const CHANNEL_KINDS = ["webhook", "ntfy", "slack", "discord", "command"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** An environment variable name (the same rule as [model] api_key_env). */
const ENV_NAME_PATTERN = "^[A-Z][A-Z0-9_]*$";

const Nullable = (description: string, extra: Record<string, unknown> = {}) =>
  Type.Unsafe<string | null>({ type: ["string", "null"], default: null, description, ...extra });
const EnvName = (description: string) => Nullable(description, { pattern: ENV_NAME_PATTERN });

const NotifyChannelSchema = Type.Object(
  {
    kind: Type.Unsafe<ChannelKind>({
      enum: [...CHANNEL_KINDS],
      description:
        "webhook: POST the message as JSON; ntfy: an ntfy topic; slack / discord: an incoming webhook; command: a program given the message as JSON on stdin.",
    }),
    name: Nullable("What doctor and the delivery log call the channel (default: its kind and place, e.g. slack-1).", { minLength: 1, maxLength: 40 }),
    url: Nullable("webhook, slack, discord: the URL to POST to (a secret: never printed). Or url_env."),
    url_env: EnvName("webhook, slack, discord: the environment variable holding the URL, instead of url."),
    headers: Type.Record(Type.String({ minLength: 1, pattern: "^[A-Za-z0-9-]+$" }), Type.String(), {
      default: {},
      description: "webhook: extra request headers (an Authorization value is a secret: never printed).",
    }),
    server: Nullable("ntfy: the server (default https://ntfy.sh)."),
    topic: Nullable("ntfy: the topic (on a public server, anyone who knows it can read it: never printed)."),
    token: Nullable("ntfy: an access token, sent as a Bearer token (a secret). Or token_env."),
    token_env: EnvName("ntfy: the environment variable holding the access token, instead of token."),
    command: Type.Unsafe<string[] | null>({
      type: ["array", "null"],
      items: { type: "string", minLength: 1 },
      minItems: 1,
      default: null,
      description: 'command: the program and its arguments (no shell), e.g. ["notify-send-json"]; the message arrives as JSON on stdin.',
    }),
    events: Type.Array(Type.Unsafe<NotifyEvent>({ enum: [...NOTIFY_EVENTS] }), {
      uniqueItems: true,
      default: [...NOTIFY_EVENTS],
      description: "The events this channel is sent (default: all).",
    }),
  },
  { additionalProperties: false },
);
export type NotifyChannelConfig = Static<typeof NotifyChannelSchema>;

export const NotifySchema = Type.Object(
  {
    timeout_s: Type.Number({
      exclusiveMinimum: 0,
      maximum: 60,
      default: 5,
      description: "Each channel has this many seconds to take a message; a slower or failing channel never holds up or fails the run.",
    }),
    channels: Type.Array(NotifyChannelSchema, { default: [], maxItems: 20, description: "The channels, one [[notify.channels]] table each." }),
  },
  { description: "Notifications: what a run did, sent to webhooks, ntfy, Slack, Discord or a command.", additionalProperties: false, default: {} },
);
export type NotifyConfig = Static<typeof NotifySchema>;

const URL_KINDS: readonly ChannelKind[] = ["webhook", "slack", "discord"];
/** The keys each kind takes besides kind, name and events. */
const KEYS_OF: Record<ChannelKind, readonly string[]> = {
  webhook: ["url", "url_env", "headers"],
  slack: ["url", "url_env"],
  discord: ["url", "url_env"],
  ntfy: ["server", "topic", "token", "token_env"],
  command: ["command"],
};
const KIND_KEYS = ["url", "url_env", "headers", "server", "topic", "token", "token_env", "command"] as const;

/** An http(s) URL, said without quoting the value (it may be a secret). */
function urlProblem(value: string): string | null {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:" ? null : "must be an http:// or https:// URL (the value is not shown: it is a secret)";
  } catch {
    return "must be a URL (the value is not shown: it is a secret)";
  }
}

/** One channel's issues: keys of another kind, a missing or doubled key, a malformed URL or topic. */
function channelIssues(c: NotifyChannelConfig, at: string): { path: string; rule: string }[] {
  const out: { path: string; rule: string }[] = [];
  const set = (k: (typeof KIND_KEYS)[number]) => (k === "headers" ? Object.keys(c.headers).length > 0 : c[k] !== null);
  for (const k of KIND_KEYS) if (set(k) && !KEYS_OF[c.kind].includes(k)) out.push({ path: `${at}.${k}`, rule: `not a key of a ${c.kind} channel` });
  if (URL_KINDS.includes(c.kind)) {
    if ((c.url === null) === (c.url_env === null)) out.push({ path: at, rule: `a ${c.kind} channel needs exactly one of url or url_env` });
    const p = c.url === null ? null : urlProblem(c.url);
    if (p) out.push({ path: `${at}.url`, rule: p });
  }
  if (c.kind === "ntfy") {
    if (c.topic === null) out.push({ path: `${at}.topic`, rule: "missing required key" });
    else if (!/^[A-Za-z0-9_-]{1,64}$/.test(c.topic))
      out.push({ path: `${at}.topic`, rule: "must be 1 to 64 letters, digits, - or _ (the value is not shown)" });
    const p = c.server === null ? null : urlProblem(c.server);
    if (p) out.push({ path: `${at}.server`, rule: p.replace(" (the value is not shown: it is a secret)", "") });
    if (c.token !== null && c.token_env !== null) out.push({ path: at, rule: "an ntfy channel takes token or token_env, not both" });
  }
  if (c.kind === "command" && c.command === null)
    out.push({ path: `${at}.command`, rule: 'missing required key (the program and its arguments, e.g. ["my-notifier", "--json"])' });
  if (c.events.length === 0) out.push({ path: `${at}.events`, rule: "must name at least one event (leave it out for all)" });
  return out;
}

/** The channel's name: as configured, else its kind and its place (slack-1). */
export function channelName(c: NotifyChannelConfig, index: number): string {
  return c.name ?? `${c.kind}-${index + 1}`;
}

/** The checks the schema cannot say plainly: each channel's keys for its kind, unique names. */
export function notifyIssues(notify: NotifyConfig): { path: string; rule: string }[] {
  const out = notify.channels.flatMap((c, i) => channelIssues(c, `notify.channels[${i}]`));
  const seen = new Set<string>();
  notify.channels.forEach((c, i) => {
    const name = channelName(c, i);
    if (seen.has(name)) out.push({ path: `notify.channels[${i}].name`, rule: `must be unique: ${name} names another channel` });
    seen.add(name);
  });
  return out;
}

/** A header whose value is a credential (never printed): Authorization and anything naming a token, key, secret or auth. */
const isSecretHeader = (name: string): boolean => /authorization|token|key|secret|auth|signature/i.test(name);

/**
 * Every secret written in `[notify]` (webhook URLs, ntfy tokens, credential headers) is known to the
 * redactor as soon as the config loads: no printer, journal or error can show it. (An ntfy topic is
 * never printed either, but is not registered: a topic that is a common word would blank that word out
 * of every text.)
 */
export function registerNotifySecrets(notify: NotifyConfig): void {
  notify.channels.forEach((c, i) => {
    const name = `notify ${channelName(c, i)}`;
    redactor.register(`${name} url`, c.url ?? undefined);
    redactor.register(`${name} token`, c.token ?? undefined);
    for (const [h, v] of Object.entries(c.headers)) if (isSecretHeader(h)) redactor.register(`${name} ${h}`, v);
  });
}
