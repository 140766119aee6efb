/**
 * The Alpaca paper path through the whole CLI: `tradewarden run --yes --json` with
 * `broker.kind = "alpaca"` and `broker.alpaca.base_url` pointing at a loopback fake of Alpaca's paper
 * REST v2 (tests/broker/fake-alpaca.ts), allowed only because test code sets the test-only loopback
 * symbol (src/broker/loopback.ts); the environment cannot allow it. The scripted momentum model (no ANTHROPIC_API_KEY) trades two imported, up-trending symbols; the fake
 * fills every order in full at its limit and reports the fills back as positions.
 *
 * Each command runs in this process (src/cli.tsx `main`) with every outgoing connection attempt it
 * makes (undici's fetch and net sockets) logged from the diagnostics channels, so "nothing was sent
 * anywhere" is observed, not assumed. The signals at start-up need a process of their own: those
 * runs are real children.
 */
import dc from "node:diagnostics_channel";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.js";
import { FakeAlpaca } from "../broker/fake-alpaca.js";
import { ALLOW_LOOPBACK_HOOK, BIN, childEnv, ofType, ROOT, runOutput, TEST_FAULT_HOOK, twIn } from "../e2e/helpers.js";
import { pausedAt } from "../e2e/pause.js";
import { LAST_BAR, risingBarsCsv } from "./alpaca-bars.js";

const KEY = "PKRUNTESTKEY0123456789";
const SECRET = "runSeCrEt-9876543210-zyxwvutsrqponmlkji";
const SYMBOLS = ["AAA", "BBB"] as const;
/** The fake's clock says Monday 2024-03-04 (open); the bars end the trading day before (LAST_BAR). */
const TRADING_DAY = "2024-03-04";

const fake = new FakeAlpaca({ key: KEY, secret: SECRET });
const temps: string[] = [];
/** A home with AAA and BBB imported through the CLI, made once; each test copies it (importing touches no broker). */
let template = "";
beforeAll(async () => {
  await fake.start();
  template = await importedHome();
}, 60_000);
afterAll(async () => {
  await fake.stop();
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
afterEach(() => fake.reset());

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
}

interface Cli {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** Outgoing connection attempts the command made (undici and net), one line each. */
  connections: string[];
}

/**
 * `tradewarden --home <home> ...args` in this process (src/cli.tsx `main`, with the test-only loopback
 * opt-in unless `allowLoopback` is false), never rejects. Every outgoing connection attempt made while
 * it runs (undici's fetch and net sockets) is logged from the diagnostics channels; this file's fake
 * only accepts connections, so every line is the command's.
 */
async function tw(home: string, args: readonly string[], extraEnv: Record<string, string> = {}, allowLoopback = true, faults?: string): Promise<Cli> {
  const connections: string[] = [];
  const onFetch = (m: unknown) => connections.push(`fetch ${String((m as { connectParams?: { host?: string } })?.connectParams?.host)}`);
  const onSocket = () => connections.push("socket");
  dc.subscribe("undici:client:beforeConnect", onFetch);
  dc.subscribe("net.client.socket", onSocket);
  try {
    // childEnv (inside twIn) drops ANTHROPIC_API_KEY and TRADEWARDEN_HOME from this process's environment.
    const env = { APCA_API_KEY_ID: KEY, APCA_API_SECRET_KEY: SECRET, NO_COLOR: "1", ...extraEnv };
    const r = await twIn(home, args, { env, allowLoopbackBroker: allowLoopback, ...(faults ? { faults } : {}) });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, connections };
  } finally {
    dc.unsubscribe("undici:client:beforeConnect", onFetch);
    dc.unsubscribe("net.client.socket", onSocket);
  }
}

function expectExit(r: Cli, code: number): void {
  if (r.exitCode !== code)
    throw new Error(`expected exit ${code}, got ${String(r.exitCode)}\n--- stdout ---\n${r.stdout.slice(-4000)}\n--- stderr ---\n${r.stderr.slice(-4000)}`);
}

/** A home with a universe of AAA and BBB and their bars imported through the CLI (no config yet). */
async function importedHome(): Promise<string> {
  const home = tempDir("tw-alpaca-template-");
  writeFileSync(join(home, "universe.csv"), `symbol,currency,exchange,name\n${SYMBOLS.map((s) => `${s},USD,SIM,${s} test instrument`).join("\n")}\n`);
  for (const [i, s] of SYMBOLS.entries()) {
    const csv = join(home, `${s}-bars.csv`);
    writeFileSync(csv, risingBarsCsv(40 + 30 * i));
    const r = await tw(home, ["data", "import", "--csv", csv, "--symbol", s]);
    expectExit(r, 0);
    expect(r.stdout).toContain(`to ${LAST_BAR}`);
  }
  return home;
}

/** A fresh copy of the imported home with the alpaca config. */
function alpacaHome(baseUrl: string, waitS = 5): string {
  const home = tempDir("tw-alpaca-");
  cpSync(template, home, { recursive: true });
  writeConfig(home, baseUrl, waitS);
  return home;
}

/** Short executor waits: the fake fills at once, and a run that wrongly reaches a resting order ends quickly. */
function writeConfig(home: string, baseUrl: string, waitS = 5): void {
  writeFileSync(
    join(home, "tradewarden.toml"),
    `[universe]\nfiles = ["universe.csv"]\n\n[broker]\nkind = "alpaca"\n\n[broker.alpaca]\nbase_url = "${baseUrl}"\n\n[executor]\nwait_s = ${waitS}\nsettle_s = 2\npoll_ms = 50\n`,
  );
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

interface JournalDump {
  orders: { client_order_id?: string; symbol: string; side: string; quantity: number; status?: string }[];
  fills: unknown[];
  state: { holdings: Record<string, { quantity: number }> };
}

async function journal(home: string): Promise<JournalDump> {
  const r = await tw(home, ["journal", "--json"]);
  expectExit(r, 0);
  return JSON.parse(r.stdout) as JournalDump;
}

const held = (h: Record<string, { quantity: number }>) =>
  Object.fromEntries(
    Object.entries(h)
      .filter(([, p]) => p.quantity !== 0)
      .map(([s, p]) => [s, p.quantity])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );

describe("run --yes --json against a loopback fake Alpaca paper API", () => {
  it("places and books the momentum orders once each, records no secret, and the next run reconciles", async () => {
    for (const s of SYMBOLS) fake.fillAtLimit.add(s);
    const home = alpacaHome(fake.url);
    expect(fake.requests).toHaveLength(0); // importing bars does not touch the broker

    const r = await tw(home, ["run", "--yes", "--json"]);
    expectExit(r, 0);
    expect(r.stderr).toBe("");
    const { events, envelope } = runOutput(r.stdout);
    const started = ofType(events, "run.started")[0];
    expect(started).toMatchObject({ trading_day: TRADING_DAY, broker: { kind: "alpaca", account_id: "PA2TESTACCT9", endpoint: fake.url } });
    expect(ofType(events, "reconcile.ok")).toEqual([expect.objectContaining({ positions: 0 })]);

    // Both symbols bought, each placed and filled in full at its limit.
    const placed = ofType(events, "order.placed");
    const filled = ofType(events, "order.filled");
    expect(placed.map((e) => [e.symbol, e.side]).sort()).toEqual([
      ["AAA", "BUY"],
      ["BBB", "BUY"],
    ]);
    expect(filled.map((e) => e.client_order_id).sort()).toEqual(placed.map((e) => e.client_order_id).sort());
    for (const f of filled) {
      expect(f.filled_quantity).toBe(f.quantity);
      expect(f.avg_price).toBeCloseTo(f.limit_price, 6);
      expect(f.commission).toBe(0); // Alpaca charges none
    }

    // The fake saw exactly one POST per client order id, each carrying the key headers, and the
    // body it got is the order the run reported.
    const ids = placed.map((e) => e.client_order_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(fake.posts()).toHaveLength(ids.length);
    for (const e of placed) {
      const posts = fake.posts(e.client_order_id);
      expect(posts, e.client_order_id).toHaveLength(1);
      const post = posts[0]!;
      expect(post.headers["apca-api-key-id"]).toBe(KEY);
      expect(post.headers["apca-api-secret-key"]).toBe(SECRET);
      expect(JSON.parse(post.body)).toEqual({
        symbol: e.symbol,
        qty: String(e.quantity),
        side: "buy",
        type: "limit",
        time_in_force: "day",
        limit_price: String(e.limit_price),
        client_order_id: e.client_order_id,
      });
    }
    // Every request carried the keys in headers (the fake answers 401 otherwise), never in the URL.
    for (const q of fake.requests) {
      expect(q.headers["apca-api-key-id"]).toBe(KEY);
      expect(`${q.path}?${q.query}`).not.toContain(SECRET);
    }
    // The connection logger works: the run did connect (to the fake, and only to it).
    expect(r.connections.length).toBeGreaterThan(0);
    for (const c of r.connections.filter((l) => l.startsWith("fetch "))) expect(c).toBe(`fetch ${new URL(fake.url).host}`);

    const safety = envelope.safety as Record<string, unknown>;
    expect(envelope.outcome).toBe("executed");
    expect(safety.broker_endpoint_kind).toBe("alpaca_paper");
    expect(safety.broker_endpoint).toBe(fake.url);
    expect(safety.secrets_read).toEqual(["APCA_API_KEY_ID", "APCA_API_SECRET_KEY"]);

    // Neither key value is in any artifact of the run, nor anywhere else in the home (journal included).
    const runFiles = filesUnder(join(home, "runs"));
    expect(runFiles.some((f) => f.endsWith("events.jsonl"))).toBe(true);
    for (const f of filesUnder(home)) {
      const text = readFileSync(f, "utf8");
      expect(text, f).not.toContain(SECRET);
      expect(text, f).not.toContain(KEY);
    }

    // The journal's holdings are the broker's positions.
    const positions = Object.fromEntries(fake.currentPositions().map((p) => [p.symbol, Number(p.qty)]));
    expect(Object.keys(positions).sort()).toEqual([...SYMBOLS]);
    const j = await journal(home);
    expect(held(j.state.holdings)).toEqual(positions);
    expect(j.orders).toHaveLength(ids.length);

    // A second run on the same session reconciles (the fake's positions reflect the fills) and
    // holds: momentum never adds to a holding. Nothing new is posted.
    const postsBefore = fake.posts().length;
    const again = await tw(home, ["run", "--yes", "--json"]);
    expect(again.exitCode, again.stdout.slice(-3000)).not.toBe(3);
    expectExit(again, 0);
    const second = runOutput(again.stdout);
    expect(ofType(second.events, "reconcile.failed")).toEqual([]);
    expect(ofType(second.events, "reconcile.ok")).toEqual([expect.objectContaining({ positions: SYMBOLS.length })]);
    expect(ofType(second.events, "order.placed")).toEqual([]);
    expect(second.envelope.outcome).toBe("hold");
    expect(fake.posts()).toHaveLength(postsBefore);
    expect(held((await journal(home)).state.holdings)).toEqual(positions);
  }, 120_000);

  it("refuses a non-paper base_url (exit 2), a wrong port on the paper host, and a loopback one without the test-only opt-in (even with the old env switch), before any request anywhere", async () => {
    const home = alpacaHome(fake.url);
    const cases: { name: string; baseUrl: string; env: Record<string, string>; loopback: boolean; message: RegExp }[] = [
      {
        name: "the live endpoint",
        baseUrl: "https://api.alpaca.markets",
        env: {},
        loopback: true,
        message: /refusing a non-paper broker endpoint \(alpaca https:\/\/api\.alpaca\.markets\)/,
      },
      { name: "the paper host on :8443", baseUrl: "https://paper-api.alpaca.markets:8443", env: {}, loopback: false, message: /non-paper broker endpoint/ },
      { name: "the paper host on :80", baseUrl: "https://paper-api.alpaca.markets:80", env: {}, loopback: false, message: /non-paper broker endpoint/ },
      {
        name: "the loopback fake with only TRADEWARDEN_ALLOW_LOOPBACK_BROKER=1",
        baseUrl: fake.url,
        env: { TRADEWARDEN_ALLOW_LOOPBACK_BROKER: "1" },
        loopback: false,
        message: /non-paper broker endpoint/,
      },
    ];
    for (const c of cases) {
      writeConfig(home, c.baseUrl);
      const r = await tw(home, ["run", "--yes", "--json"], c.env, c.loopback);
      expect(r.exitCode, `${c.name}\n${r.stdout}\n${r.stderr}`).toBe(2);
      expect(`${r.stdout}\n${r.stderr}`, c.name).toMatch(c.message);
      expect(`${r.stdout}\n${r.stderr}`, c.name).not.toContain(SECRET);
      // No connection was even attempted, to any host, and the fake heard nothing.
      expect(r.connections, c.name).toEqual([]);
      expect(fake.requests, c.name).toHaveLength(0);
    }
    // Nothing was run or ordered.
    expect(filesUnder(join(home, "runs"))).toEqual([]);
    const j = await journal(home);
    expect(j.orders).toEqual([]);
    expect(j.fills).toEqual([]);
  }, 120_000);

  it("refuses an account whose number is not a paper account's (PA…): nothing is placed", async () => {
    for (const s of SYMBOLS) fake.fillAtLimit.add(s);
    fake.accountNumber = "A2LIVEACCT9";
    const home = alpacaHome(fake.url);
    const r = await tw(home, ["run", "--yes", "--json"]);
    expect(r.exitCode, r.stdout.slice(-3000)).not.toBe(0);
    expectExit(r, 2);
    const { events, envelope } = runOutput(r.stdout);
    expect(ofType(events, "preflight.failed")).toEqual([expect.objectContaining({ code: "not_paper" })]);
    expect(events.some((e: RunEvent) => e.type.startsWith("order."))).toBe(false);
    expect(envelope.outcome).toBe("broker_unavailable");
    // Only the account was read; no order, position or clock request followed.
    expect(fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /v2/account"]);
    expect(fake.posts()).toHaveLength(0);
    expect(fake.orders).toHaveLength(0);
    expect((await journal(home)).orders).toEqual([]);
  }, 120_000);
  it("every order POST dropped, or answered 500 or 429, without the broker creating it: exit 4 (broker_unavailable), never exit 0; nothing re-sent, nothing booked", async () => {
    for (const mode of ["drop", 500, 429] as const) {
      fake.reset();
      for (const s of SYMBOLS) fake.fillAtLimit.add(s);
      // The executor's wait bounds how long a lookup that keeps finding nothing is retried; half a
      // second (ten polls) proves "not received, not re-sent" as well as five.
      const home = alpacaHome(fake.url, 0.5);
      fake.failPosts = mode;
      const r = await tw(home, ["run", "--yes", "--json"]);
      expectExit(r, 4);
      const { events, envelope } = runOutput(r.stdout);
      expect(envelope.outcome, String(mode)).toBe("broker_unavailable");
      expect(ofType(events, "run.finished")).toEqual([expect.objectContaining({ outcome: "broker_unavailable", exit_code: 4 })]);
      expect(ofType(events, "order.placed")).toEqual([]);
      // Each order was sent once (never re-sent after the unknown outcome) and nothing exists at the broker.
      expect(
        fake
          .posts()
          .map((q) => JSON.parse(q.body).symbol)
          .sort(),
      ).toEqual([...SYMBOLS]);
      expect(fake.orders).toEqual([]);
      expect(held((await journal(home)).state.holdings)).toEqual({});
    }
  }, 240_000);
  it("a SIGTERM or SIGINT at start-up (the CLI loaded, its own handlers not yet installed; the stop claimed): exit 130, no POST, no order", async () => {
    for (const s of SYMBOLS) fake.fillAtLimit.add(s);
    const home = alpacaHome(fake.url);
    // The stop claimed: the run signals itself there, in-process (the same handlers, adapter and fake).
    const claimed = await tw(home, ["run", "--yes", "--json"], {}, true, "run.claimed=int");
    expectExit(claimed, 130);
    expect(claimed.stderr).toContain("SIGINT: stopping the run");
    expect(fake.posts()).toHaveLength(0);
    expect(fake.orders).toHaveLength(0);
    // The CLI loaded, its handlers not yet installed: a signal only a process of its own can get.
    const point = "cli.loaded";
    const go = join(home, `go-${point}`);
    const child = execa(process.execPath, ["--import", ALLOW_LOOPBACK_HOOK, "--import", TEST_FAULT_HOOK, BIN, "--home", home, "run", "--yes", "--json"], {
      cwd: ROOT,
      env: childEnv({ APCA_API_KEY_ID: KEY, APCA_API_SECRET_KEY: SECRET, TRADEWARDEN_TEST_FAULT: `${point}=pause`, TRADEWARDEN_TEST_FAULT_GO: go }),
      extendEnv: false,
      reject: false,
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    await pausedAt(child, point);
    child.kill("SIGTERM");
    writeFileSync(go, "");
    const r = await child;
    expect(r.signal, point).toBeUndefined();
    expect(r.exitCode, `${point}: ${String(r.stdout).slice(-2000)}`).toBe(130);
    expect(fake.posts(), point).toHaveLength(0);
    expect(fake.orders, point).toHaveLength(0);
  }, 120_000);
});
