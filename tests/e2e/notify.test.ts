/**
 * Notifications through the real CLI: a run without a terminal sends the proposal awaiting approval
 * with the exact approve command; that command (--yes) sends the run executed; `run --yes` sends the
 * run executed; `killswitch trip` sends the trip. Every channel kind against a loopback receiver; a
 * canary secret (in the config and in the environment) is in no message, no output and not in the
 * delivery log. A failing and a hanging receiver change neither the run's exit code nor its outcome,
 * and doctor shows each failure.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { commandReceiver, notifyToml, type Receiver, startReceiver } from "../notify/receivers.js";
import { cleanupHomes, expectExit, freshHome, text, tw, twIn } from "./helpers.js";

const CANARY = "canary-e2e-51c0ffee";
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
  cleanupHomes();
});

async function allKinds() {
  const [webhook, ntfy, slack, discord] = await Promise.all([startReceiver(), startReceiver(), startReceiver(), startReceiver()]);
  receivers.push(webhook, ntfy, slack, discord);
  const cmd = commandReceiver();
  const toml = notifyToml({ webhook: webhook.url, ntfy: ntfy.url, slack: slack.url, discord: discord.url, command: cmd.argv }, CANARY);
  const env = { TW_TEST_SLACK_URL: `${slack.url}/slack/${CANARY}-env` };
  const events = () => webhook.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  /** Every channel got the same events, in order. */
  const agree = () => {
    const e = events().map((m) => m.event);
    expect(cmd.messages().map((m) => m.event)).toEqual(e);
    for (const r of [ntfy, slack, discord]) expect(r.received).toHaveLength(e.length);
    return e;
  };
  const everything = () => [webhook, ntfy, slack, discord].flatMap((r) => r.received.map((x) => `${x.body}\n${String(x.headers.title ?? "")}`));
  return { toml, env, events, agree, everything, cmd };
}

test("run without a terminal → awaiting approval with the approve command; approve --yes → executed; killswitch trip → trip", async () => {
  const k = await allKinds();
  const home = freshHome(k.toml);
  const outputs: string[] = [];
  const run = await twIn(home, ["run"], { env: k.env });
  outputs.push(text(run));
  expectExit(run, 6);
  expect(k.agree()).toEqual(["approval_needed"]);
  const awaiting = k.events()[0] as { run_id: string; approve_command: string; text: string; orders: unknown[]; expires: { rule: string } };
  expect(awaiting.approve_command).toBe(`tradewarden --home ${home} approve ${awaiting.run_id}`);
  expect(awaiting.text).toContain(`approve: ${awaiting.approve_command}`);
  expect(awaiting.orders.length).toBeGreaterThan(0);
  expect(awaiting.expires.rule).toContain("session ends");
  expect(String(run.stdout)).toContain(awaiting.run_id);

  const approve = await twIn(home, ["approve", awaiting.run_id, "--yes"], { env: k.env });
  outputs.push(text(approve));
  expectExit(approve, 0);
  expect(k.agree()).toEqual(["approval_needed", "executed"]);
  const executed = k.events()[1] as { orders_sent: number; fills: unknown[]; title: string };
  expect(executed.orders_sent).toBe(awaiting.orders.length);
  expect(executed.title).toContain(`run executed, ${executed.orders_sent} order`);

  const trip = await twIn(home, ["killswitch", "trip", "--reason", "bad news on ALFA"], { env: k.env });
  outputs.push(text(trip));
  expectExit(trip, 0);
  expect(k.agree()).toEqual(["approval_needed", "executed", "killswitch_tripped"]);
  const tripped = k.events()[2] as { by: string; reason: string; title: string };
  expect(tripped).toMatchObject({ by: "operator", reason: "operator tripped the kill switch: bad news on ALFA" });
  expect(tripped.title).toContain("KILL SWITCH TRIPPED by the operator");

  const doctor = await twIn(home, ["doctor"], { env: k.env });
  outputs.push(text(doctor));
  expect(String(doctor.stdout)).toMatch(/✔ webhook-1 \(webhook → 127\.0\.0\.1:\d+\): last delivery ok at .* \(killswitch_tripped, HTTP 200\)/);
  expect(String(doctor.stdout)).toContain("✔ command-5 (command → ");

  const log = readFileSync(join(home, "notify", "deliveries.jsonl"), "utf8");
  for (const t of [...k.everything(), ...k.cmd.messages().map((m) => JSON.stringify(m)), ...outputs, log]) expect(t).not.toContain(CANARY);
}, 180_000);

test("run --yes → executed; a failing and a hanging channel leave the run's exit code alone and doctor shows them", async () => {
  const [ok, failing, hanging] = await Promise.all([startReceiver(), startReceiver("fail"), startReceiver("hang")]);
  receivers.push(ok, failing, hanging);
  const toml = [
    "[notify]",
    "timeout_s = 1",
    "[[notify.channels]]",
    'name = "ops"',
    'kind = "webhook"',
    `url = "${ok.url}/ops"`,
    "[[notify.channels]]",
    'name = "down"',
    'kind = "discord"',
    `url = "${failing.url}/${CANARY}"`,
    "[[notify.channels]]",
    'name = "stuck"',
    'kind = "slack"',
    `url = "${hanging.url}/${CANARY}"`,
    "",
  ].join("\n");
  const home = freshHome(toml);
  // A process of its own: a hanging channel must not keep the process from ending with the run's exit code.
  const run = await tw(home, ["run", "--yes"]);
  expectExit(run, 0);
  const m = JSON.parse(ok.received[0]?.body ?? "{}");
  expect(m).toMatchObject({ event: "executed" });
  expect(m.orders_sent).toBeGreaterThan(0);
  expect(hanging.received).toHaveLength(1); // it got the request and never answered
  expect(String(run.stderr)).toContain("notification to down failed: HTTP 500: receiver is down (recorded; see tradewarden doctor)");
  expect(String(run.stderr)).toContain("notification to stuck failed: no answer within 1 s");

  const doctor = await twIn(home, ["doctor"]);
  const out = String(doctor.stdout);
  expect(out).toMatch(/✖ down \(discord → 127\.0\.0\.1:\d+\): last delivery failed at .* \(executed\): HTTP 500: receiver is down/);
  expect(out).toMatch(/✖ stuck \(slack → 127\.0\.0\.1:\d+\): last delivery failed at .* \(executed\): no answer within 1 s/);
  expect(out).toContain("✔ ops (webhook → ");
  for (const t of [text(run), text(doctor), readFileSync(join(home, "notify", "deliveries.jsonl"), "utf8")]) expect(t).not.toContain(CANARY);
}, 120_000);
