/**
 * Notifications against loopback receivers of every channel kind (a generic webhook, ntfy, Slack,
 * Discord: node:http servers; a command writing its stdin to a file): each event delivered with its
 * wire form and words checked; a canary secret (in the config and in the environment) never in a
 * message or in the delivery log; a failing or hanging receiver costs at most the timeout, is a
 * failed delivery, and doctor shows it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseConfigText, validateConfigDocument } from "../../src/config/load.js";
import type { NotifyConfig } from "../../src/config/notify-schema.js";
import { deliveriesPath } from "../../src/notify/deliveries.js";
import { type Notice, NotifyMessageSchema } from "../../src/notify/message.js";
import { notify, notifySchedulerSilent } from "../../src/notify/notify.js";
import { runDoctor } from "../../src/run/doctor/index.js";
import { commandReceiver, notifyToml, type Receiver, startReceiver } from "./receivers.js";

const CANARY = "canary-9f3e1d7c5b";
const homes: string[] = [];
const receivers: Receiver[] = [];

function configOf(toml: string): NotifyConfig {
  const parsed = parseConfigText(toml, "tradewarden.toml");
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join("\n"));
  const v = validateConfigDocument(parsed.doc, "tradewarden.toml", null);
  if (!v.ok) throw new Error(v.errors.map((e) => e.message).join("\n"));
  return v.config.notify;
}

function freshHome(toml?: string): string {
  const home = mkdtempSync(join(tmpdir(), "tw-notify-"));
  homes.push(home);
  if (toml) writeFileSync(join(home, "tradewarden.toml"), toml);
  return home;
}

async function receiver(mode: "ok" | "fail" | "hang" = "ok"): Promise<Receiver> {
  const r = await startReceiver(mode);
  receivers.push(r);
  return r;
}

afterAll(async () => {
  for (const r of receivers) await r.close();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const NOTICES: Notice[] = [
  {
    event: "approval_needed",
    run_id: "20070108T150000Z-abc123",
    trading_day: "2007-01-08",
    orders: [{ symbol: "ALFA", side: "BUY", quantity: 1200, limit_price: 101.25 }],
    approve_command: "tradewarden approve 20070108T150000Z-abc123",
    expires: { trading_day: "2007-01-08", at: "2007-01-08T21:00:00.000Z", rule: "at the close of the 2007-01-08 session" },
  },
  {
    event: "executed",
    run_id: "r-2",
    trading_day: "2007-01-09",
    orders_sent: 2,
    fills: [{ symbol: "ALFA", side: "BUY", quantity: 1200, avg_price: 101.2 }],
    message: "2 orders placed",
  },
  {
    event: "killswitch_tripped",
    run_id: "r-3",
    by: "drawdown",
    reason: "drawdown 21% from peak",
    value: 79000,
    peak: 100000,
    drawdown_pct: 21,
    currency: "USD",
  },
  { event: "reconcile_failed", run_id: "r-4", trading_day: "2007-01-10", differences: 2, reason: "reconciliation failed: 2 differences" },
  { event: "run_failed", run_id: "r-5", trading_day: "2007-01-11", outcome: "broker_unavailable", exit_code: 4, reason: "the broker did not answer" },
];

/** What a person reads in each event's message. */
const SAYS: Record<string, string[]> = {
  approval_needed: ["await your approval", "BUY 1,200 ALFA limit 101.25", "approve: tradewarden approve 20070108T150000Z-abc123", "expires: at the close"],
  executed: ["run executed, 2 orders sent, 1 filled", "BUY 1,200 ALFA at 101.20"],
  killswitch_tripped: ["KILL SWITCH TRIPPED", "value 79,000.00 USD, peak 100,000.00 USD, drawdown 21.00%"],
  reconcile_failed: ["reconciliation failed (2007-01-10)", "2 differences"],
  run_failed: ["run failed with exit 4 (broker_unavailable)", "the broker did not answer"],
  scheduler_silent: ["silent for 95 min", "last heartbeat: 2007-01-08T14:00:00.000Z"],
};

describe("each event to a receiver of each kind", () => {
  let webhook: Receiver;
  let ntfy: Receiver;
  let slack: Receiver;
  let discord: Receiver;
  let cmd: ReturnType<typeof commandReceiver>;
  let config: NotifyConfig;
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    [webhook, ntfy, slack, discord] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    cmd = commandReceiver();
    env = { ...process.env, TW_TEST_SLACK_URL: `${slack.url}/slack/${CANARY}-env` };
    config = configOf(notifyToml({ webhook: webhook.url, ntfy: ntfy.url, slack: slack.url, discord: discord.url, command: cmd.argv }, CANARY));
    home = freshHome();
    for (const n of NOTICES) {
      const r = await notify({ home, notify: config, env }, n);
      expect(r.deliveries.map((d) => [d.channel, d.ok])).toEqual([
        ["webhook-1", true],
        ["ntfy-2", true],
        ["slack-3", true],
        ["discord-4", true],
        ["command-5", true],
      ]);
    }
    await notifySchedulerSilent({ home, notify: config, env }, { minutesSilent: 95.7, lastHeartbeat: new Date("2007-01-08T14:00:00Z") });
  }, 60_000);

  const events = [...NOTICES.map((n) => n.event), "scheduler_silent"];

  test("generic webhook: the message object as JSON, with the configured headers", () => {
    expect(webhook.received.map((r) => r.path)).toEqual(events.map(() => `/hook/${CANARY}`));
    webhook.received.forEach((r, i) => {
      const m: unknown = JSON.parse(r.body);
      expect(Value.Check(NotifyMessageSchema, m)).toBe(true);
      expect(m).toMatchObject({ format: "tradewarden.notify/1", event: events[i] });
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers.authorization).toBe(`Bearer ${CANARY}-h`);
      expect(r.headers["x-source"]).toBe("tradewarden-test");
      for (const s of SAYS[events[i] as string] ?? []) expect(`${(m as { title: string }).title}\n${(m as { text: string }).text}`).toContain(s);
    });
    const approval = JSON.parse(webhook.received[0]?.body ?? "{}");
    expect(approval.approve_command).toBe("tradewarden approve 20070108T150000Z-abc123");
    expect(approval.expires.at).toBe("2007-01-08T21:00:00.000Z");
  });

  test("ntfy: the text as the body, Title / Priority / Tags headers, the token as a Bearer token", () => {
    expect(ntfy.received.map((r) => r.path)).toEqual(events.map(() => "/tw-alerts"));
    ntfy.received.forEach((r, i) => {
      expect(r.headers.authorization).toBe(`Bearer ${CANARY}-tok`);
      expect(String(r.headers.tags)).toMatch(/,tradewarden$/);
      for (const s of SAYS[events[i] as string] ?? []) expect(`${r.headers.title}\n${r.body}`).toContain(s);
    });
    expect(ntfy.received.map((r) => r.headers.priority)).toEqual(["4", "3", "5", "4", "4", "4"]);
    expect(ntfy.received[2]?.headers.tags).toBe("rotating_light,tradewarden");
  });

  test("Slack {text} and Discord {content}, to the URL from the environment and from the file", () => {
    expect(slack.received.map((r) => r.path)).toEqual(events.map(() => `/slack/${CANARY}-env`));
    expect(discord.received.map((r) => r.path)).toEqual(events.map(() => `/discord/${CANARY}`));
    events.forEach((e, i) => {
      const text = JSON.parse(slack.received[i]?.body ?? "{}");
      const content = JSON.parse(discord.received[i]?.body ?? "{}");
      expect(Object.keys(text)).toEqual(["text"]);
      expect(Object.keys(content)).toEqual(["content"]);
      for (const s of SAYS[e] ?? []) {
        expect(text.text).toContain(s);
        expect(content.content).toContain(s);
      }
    });
  });

  test("command: the message as JSON on stdin", () => {
    const got = cmd.messages();
    expect(got.map((m) => m.event)).toEqual(events);
    for (const m of got) expect(Value.Check(NotifyMessageSchema, m)).toBe(true);
  });

  test("the canary secret is in no message and not in the delivery log; every delivery is recorded", () => {
    const bodies = [webhook, ntfy, slack, discord].flatMap((r) => r.received.map((x) => x.body));
    const all = [...bodies, ...cmd.messages().map((m) => JSON.stringify(m)), ...ntfy.received.map((r) => String(r.headers.title))];
    for (const b of all) expect(b).not.toContain(CANARY);
    const log = readFileSync(deliveriesPath(home), "utf8");
    expect(log).not.toContain(CANARY);
    expect(log.trim().split("\n")).toHaveLength(events.length * 5);
  });
});

test("a receiver that fails (500) or hangs: the send ends at the timeout, each failure is recorded and doctor shows it", async () => {
  const [failing, hanging, fine] = await Promise.all([receiver("fail"), receiver("hang"), receiver()]);
  const toml = [
    "[notify]",
    "timeout_s = 0.5",
    "[[notify.channels]]",
    'name = "down"',
    'kind = "webhook"',
    `url = "${failing.url}/x"`,
    "[[notify.channels]]",
    'name = "stuck"',
    'kind = "slack"',
    `url = "${hanging.url}/y"`,
    "[[notify.channels]]",
    'name = "phone"',
    'kind = "ntfy"',
    `server = "${fine.url}"`,
    'topic = "alerts"',
    'events = ["run_failed"]',
    "",
  ].join("\n");
  const home = freshHome(toml);
  const r = await notify({ home, notify: configOf(toml), env: {} }, NOTICES[4] as Notice);
  // The hanging receiver has the request and never answered: the send did not wait for it.
  expect(hanging.received).toHaveLength(1);
  expect(r.deliveries).toEqual([
    expect.objectContaining({ channel: "down", ok: false, detail: "HTTP 500: receiver is down" }),
    expect.objectContaining({ channel: "stuck", ok: false, detail: "no answer within 0.5 s" }),
    expect.objectContaining({ channel: "phone", ok: true, detail: "HTTP 200" }),
  ]);
  // A channel only gets the events it names.
  const again = await notify({ home, notify: configOf(toml), env: {} }, NOTICES[1] as Notice);
  expect(again.deliveries.map((d) => d.channel)).toEqual(["down", "stuck"]);

  const report = await runDoctor({ home, env: {}, ping: false });
  const checks = report.checks.filter((c) => c.section === "notify");
  expect(checks.map((c) => [c.id, c.ok])).toEqual([
    ["notify.down", false],
    ["notify.stuck", false],
    ["notify.phone", true],
  ]);
  expect(checks[0]?.summary).toMatch(/^down \(webhook → 127\.0\.0\.1:\d+\): last delivery failed at .* \(executed\): HTTP 500: receiver is down$/);
  expect(checks[1]?.summary).toContain("(executed): no answer within 0.5 s");
  expect(checks[2]?.summary).toContain("last delivery ok at");
}, 30_000);

test("doctor --ping sends each channel a test message (whatever its events) and says each answer", async () => {
  const [ok, failing] = await Promise.all([receiver(), receiver("fail")]);
  const cmd = commandReceiver();
  const toml = [
    "[[notify.channels]]",
    'kind = "discord"',
    `url = "${ok.url}/d"`,
    'events = ["killswitch_tripped"]',
    "[[notify.channels]]",
    'kind = "webhook"',
    `url = "${failing.url}/w"`,
    "[[notify.channels]]",
    'kind = "command"',
    `command = ${JSON.stringify(cmd.argv)}`,
    "[[notify.channels]]",
    'kind = "slack"',
    'url_env = "TW_UNSET_SLACK_URL"',
    "",
  ].join("\n");
  const home = freshHome(toml);
  const report = await runDoctor({ home, env: {}, ping: true });
  const checks = Object.fromEntries(report.checks.filter((c) => c.section === "notify").map((c) => [c.id, c]));
  expect(checks["notify.discord-1"]?.summary).toContain("configured; nothing sent yet (events: killswitch_tripped)");
  expect(checks["notify.slack-4"]).toMatchObject({
    ok: false,
    summary: "slack-4 (slack → TW_UNSET_SLACK_URL): cannot be used: TW_UNSET_SLACK_URL is not set (it holds the channel's URL)",
  });
  expect(checks["notify.discord-1.ping"]).toMatchObject({ ok: true, summary: "discord-1: test message delivered (HTTP 200)" });
  expect(checks["notify.webhook-2.ping"]).toMatchObject({ ok: false, summary: "webhook-2: test message failed: HTTP 500: receiver is down" });
  expect(checks["notify.command-3.ping"]).toMatchObject({ ok: true });
  expect(checks["notify.slack-4.ping"]).toMatchObject({ ok: false });
  expect(JSON.parse(ok.received[0]?.body ?? "{}").content).toContain("tradewarden: test message");
  expect(cmd.messages().map((m) => m.event)).toEqual(["test"]);
}, 30_000);
