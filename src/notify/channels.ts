/**
 * The configured channels made ready to send: each `[[notify.channels]]` entry with its secrets read
 * (from the file or from the environment variable it names, registered with the redactor either way)
 * and where it sends, said without a secret (a host, a program's name). A channel that cannot be used
 * (its variable is not set) says why instead.
 */
import type { ChannelKind, NotifyChannelConfig, NotifyConfig, NotifyEvent } from "../config/notify-schema.js";
import { channelName } from "../config/notify-schema.js";
import { redactor } from "../core/redact.js";

type Target = { type: "http"; url: string; headers: Record<string, string>; token: string | null; topic: string | null } | { type: "command"; argv: string[] };

export interface Channel {
  name: string;
  kind: ChannelKind;
  events: readonly NotifyEvent[];
  /** Where it sends, without a secret: a host, or the program's name. */
  where: string;
  /** What it sends to, or why it cannot be used. */
  target: Target | { type: "unusable"; problem: string };
}

const NTFY_DEFAULT = "https://ntfy.sh";

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return "?";
  }
};

/** A secret from the file or from the variable it names (registered with the redactor); a problem when the variable is unset. */
function secretOf(value: string | null, envName: string | null, env: NodeJS.ProcessEnv, what: "URL" | "token"): { value: string | null } | { problem: string } {
  if (value !== null) return { value };
  if (envName === null) return { value: null };
  const v = env[envName]?.trim();
  if (!v) return { problem: `${envName} is not set (it holds the channel's ${what})` };
  redactor.register(envName, v);
  return { value: v };
}

function targetOf(c: NotifyChannelConfig, env: NodeJS.ProcessEnv): Channel["target"] {
  if (c.kind === "command") return { type: "command", argv: c.command ?? [] };
  if (c.kind === "ntfy") {
    const token = secretOf(c.token, c.token_env, env, "token");
    if ("problem" in token) return { type: "unusable", problem: token.problem };
    const server = (c.server ?? NTFY_DEFAULT).replace(/\/+$/, "");
    return { type: "http", url: `${server}/${c.topic ?? ""}`, headers: {}, token: token.value, topic: c.topic };
  }
  const url = secretOf(c.url, c.url_env, env, "URL");
  if ("problem" in url) return { type: "unusable", problem: url.problem };
  if (url.value === null) return { type: "unusable", problem: "no url" };
  if (!/^https?:\/\//i.test(url.value)) return { type: "unusable", problem: `${c.url_env ?? "url"} is not an http:// or https:// URL` };
  return { type: "http", url: url.value, headers: c.kind === "webhook" ? c.headers : {}, token: null, topic: null };
}

function whereOf(c: NotifyChannelConfig, target: Channel["target"]): string {
  if (c.kind === "command") return (c.command ?? [])[0] ?? "?";
  if (c.kind === "ntfy") return hostOf(c.server ?? NTFY_DEFAULT);
  return target.type === "http" ? hostOf(target.url) : (c.url_env ?? "?");
}

/** Every configured channel, ready to send (or saying why it cannot). */
export function channelsOf(notify: NotifyConfig, env: NodeJS.ProcessEnv): Channel[] {
  return notify.channels.map((c, i) => {
    const name = channelName(c, i);
    const target = targetOf(c, env);
    return { name, kind: c.kind, events: c.events, where: whereOf(c, target), target };
  });
}
