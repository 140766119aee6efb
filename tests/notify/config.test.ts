/**
 * `[notify]` is validated like every key: each kind takes its own keys, a missing or doubled key is
 * named, and a malformed URL is refused without quoting it (it is a secret). Secrets written in the
 * file are known to the redactor once the config loads.
 */
import { expect, test } from "vitest";
import { parseConfigText, validateConfigDocument } from "../../src/config/load.js";
import { redact } from "../../src/core/redact.js";

function issues(toml: string): string[] {
  const parsed = parseConfigText(toml, "tradewarden.toml");
  if (!parsed.ok) return parsed.errors.map((e) => e.message);
  const v = validateConfigDocument(parsed.doc, "tradewarden.toml", null);
  return v.ok ? [] : v.errors.map((e) => e.message);
}

test("the defaults: no channels, a 5 s timeout; every event by default", () => {
  const v = validateConfigDocument({ notify: { channels: [{ kind: "command", command: ["x"] }] } }, "t", null);
  expect(v.ok && v.config.notify.timeout_s).toBe(5);
  expect(v.ok && v.config.notify.channels[0]?.events).toEqual([
    "approval_needed",
    "executed",
    "killswitch_tripped",
    "reconcile_failed",
    "run_failed",
    "scheduler_silent",
  ]);
  expect(issues("")).toEqual([]);
});

test("each kind's keys, named plainly", () => {
  expect(issues('[[notify.channels]]\nkind = "slack"\n')).toEqual([
    "tradewarden.toml: notify.channels[0]: a slack channel needs exactly one of url or url_env",
  ]);
  expect(issues('[[notify.channels]]\nkind = "slack"\nurl = "https://hooks.example/a1"\nurl_env = "SLACK_URL"\ntopic = "abc"\n')).toEqual([
    "tradewarden.toml: notify.channels[0].topic: not a key of a slack channel",
    "tradewarden.toml: notify.channels[0]: a slack channel needs exactly one of url or url_env",
  ]);
  expect(issues('[[notify.channels]]\nkind = "ntfy"\n')).toEqual(["tradewarden.toml: notify.channels[0].topic: missing required key"]);
  expect(issues('[[notify.channels]]\nkind = "ntfy"\ntopic = "a b"\ntoken = "tk-123456"\ntoken_env = "NTFY_TOKEN"\n')).toEqual([
    "tradewarden.toml: notify.channels[0].topic: must be 1 to 64 letters, digits, - or _ (the value is not shown)",
    "tradewarden.toml: notify.channels[0]: an ntfy channel takes token or token_env, not both",
  ]);
  expect(issues('[[notify.channels]]\nkind = "command"\n')[0]).toContain("notify.channels[0].command: missing required key");
  expect(issues('[[notify.channels]]\nkind = "pager"\n')[0]).toContain(
    'notify.channels[0].kind: must be one of "webhook", "ntfy", "slack", "discord", "command", got "pager"',
  );
  expect(issues('[[notify.channels]]\nkind = "command"\ncommand = ["x"]\nevents = ["lunch"]\n')[0]).toContain("notify.channels[0].events[0]: must be one of");
  expect(issues('[[notify.channels]]\nkind = "command"\ncommand = ["x"]\nevents = []\n')[0]).toContain("must name at least one event");
  expect(issues("[notify]\ntimeout_s = 120\n")).toEqual(["tradewarden.toml: notify.timeout_s: must be in (0, 60], got 120"]);
  expect(
    issues('[[notify.channels]]\nkind = "command"\ncommand = ["x"]\n[[notify.channels]]\nkind = "command"\ncommand = ["y"]\nname = "command-1"\n'),
  ).toEqual(["tradewarden.toml: notify.channels[1].name: must be unique: command-1 names another channel"]);
});

test("a malformed URL is refused without quoting it; a good one is a secret to the redactor once loaded", () => {
  const bad = issues('[[notify.channels]]\nkind = "discord"\nurl = "ftp://secret-path-0042"\n');
  expect(bad).toEqual(["tradewarden.toml: notify.channels[0].url: must be an http:// or https:// URL (the value is not shown: it is a secret)"]);
  const url = "https://discord.example/api/webhooks/123/tok-8c1d2e3f";
  expect(issues(`[[notify.channels]]\nkind = "discord"\nurl = "${url}"\n[[notify.channels]]\nkind = "ntfy"\ntopic = "t1"\ntoken = "tk_4a5b6c7d8e"\n`)).toEqual(
    [],
  );
  expect(redact(`posting to ${url} with tk_4a5b6c7d8e`)).toBe("posting to [redacted notify discord-1 url] with [redacted notify ntfy-2 token]");
});
