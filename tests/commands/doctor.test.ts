/**
 * `tradewarden doctor` through the CLI's entry (src/cli.tsx `main`, in this process: doctor needs no
 * process of its own): a healthy home, then each failure it knows, every one failing with its fix
 * and exit 1. Alpaca checks run against the loopback fake of
 * Alpaca's paper API; --ping against the loopback fake of OpenAI's API, with a canary key that must
 * never be printed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newSimState, writeSimState } from "../../src/broker/simulated-store.js";
import { acquireLock } from "../../src/journal/lock.js";
import { MarketData } from "../../src/market/data.js";
import { formatDoctor } from "../../src/commands/doctor.js";
import { type DoctorReport, runDoctor } from "../../src/run/doctor/index.js";
import { type FakeOpenAI, startFakeOpenAI } from "../agent/fake-openai-server.js";
import { LOOPBACK_BROKER_FOR_TESTS } from "../../src/broker/loopback.js";
import { FakeAlpaca } from "../broker/fake-alpaca.js";
import { childEnv, cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";

const CANARY = "sk-proj-CANARY-doctor-5e1d2c3b4a";
let openai: FakeOpenAI;
let alpaca: FakeAlpaca;
beforeAll(async () => {
  openai = await startFakeOpenAI();
  alpaca = new FakeAlpaca({ key: "PKDOCTOR", secret: "doctor-secret-value" });
  await alpaca.start();
});
afterAll(async () => {
  await openai.close();
  await alpaca.stop();
  cleanupHomes();
});

/** `doctor --json` (and, with `human`, the plain output too: same exit code), through the CLI's entry. */
async function doctor(
  home: string,
  args: string[] = [],
  env: Record<string, string> = {},
  human = false,
  allowLoopbackBroker = false,
): Promise<{ report: DoctorReport; exit: number | undefined; text: string }> {
  const opts = { env, allowLoopbackBroker };
  const json = await twIn(home, ["doctor", "--json", ...args], opts);
  const plain = human ? await twIn(home, ["doctor", ...args], opts) : null;
  expect(String(json.stderr)).toBe("");
  if (plain) expect(plain.exitCode).toBe(json.exitCode);
  return { report: JSON.parse(String(json.stdout)) as DoctorReport, exit: json.exitCode, text: String(plain?.stdout ?? "") };
}
/** The same checks in this process (the failure cases; the CLI path is covered above and below). */
async function doctorHere(
  home: string,
  env: Record<string, string> = {},
  allowLoopbackBroker = false,
): Promise<{ report: DoctorReport; exit: number; text: string }> {
  const g = globalThis as Record<symbol, unknown>;
  if (allowLoopbackBroker) g[LOOPBACK_BROKER_FOR_TESTS] = true;
  const report = await runDoctor({ home, env: childEnv(env), ping: false }).finally(() => {
    delete g[LOOPBACK_BROKER_FOR_TESTS];
  });
  return { report, exit: report.ok ? 0 : 1, text: formatDoctor(report) };
}
const check = (r: DoctorReport, id: string) => r.checks.find((c) => c.id === id);
const failed = (r: DoctorReport) => r.checks.filter((c) => !c.ok).map((c) => c.id);

describe("a healthy home", () => {
  test("every section passes, ✔ per check, exit 0; --json says the same", async () => {
    const home = freshHome();
    const { report, exit, text } = await doctor(home, [], {}, true);
    expect(exit).toBe(0);
    expect(report.ok).toBe(true);
    expect([...new Set(report.checks.map((c) => c.section))]).toEqual(["home", "config", "broker", "model", "market", "research", "notify", "schedule"]);
    expect(failed(report)).toEqual([]);
    expect(check(report, "config.valid")?.details?.effective).toMatchObject({ model: { provider: "auto" }, broker: { kind: "sim" } });
    expect(check(report, "market.ALFA")).toMatchObject({ ok: true, details: { last: "2006-12-29", as_of_day: "2007-01-03" } });
    expect(text).toMatch(/^\s+✔ the home is not locked$/m);
    expect(text).not.toContain("✖");
    expect(text).toMatch(/all \d+ checks passed/);
  }, 60_000);

  test("after a run: the journal opens and verifies, the simulated book is shown", async () => {
    const home = freshHome();
    expectExit(await twIn(home, ["run", "--yes"]), 0);
    const { report, exit } = await doctor(home);
    expect(exit).toBe(0);
    expect(check(report, "home.journal")?.summary).toMatch(/opens and verifies \(1 run/);
    expect(check(report, "broker.sim")?.summary).toMatch(/1 day\(s\) played, next trading day 2007-01-04/);
  }, 60_000);
});

describe("each failure it knows: ✖ with a fix, exit 1", () => {
  test("home: not a writable folder; locked by a live process; a journal that does not open", async () => {
    const parent = freshHome();
    const notDir = join(parent, "a-file");
    writeFileSync(notDir, "");
    const a = await doctorHere(notDir);
    expect(a.exit).toBe(1);
    expect(check(a.report, "home.writable")).toMatchObject({ ok: false, fix: expect.stringContaining("--home") });

    const locked = freshHome();
    const lock = await acquireLock(locked, "run", { command: "doctor-test" });
    try {
      const b = await doctor(locked, [], {}, true);
      expect(b.exit).toBe(1);
      expect(check(b.report, "home.lock")).toMatchObject({
        ok: false,
        summary: expect.stringContaining(`pid ${process.pid}`),
        fix: expect.stringContaining("wait"),
      });
      expect(b.text).toMatch(/✖ the home is locked by pid \d+ \(doctor-test\)/);
      expect(b.text).toMatch(/\n {6}fix: wait for that tradewarden process/);
    } finally {
      await lock.release();
    }

    const corrupt = freshHome();
    writeFileSync(join(corrupt, "journal.json"), "{ not json");
    const c = await doctorHere(corrupt);
    expect(failed(c.report)).toEqual(["home.journal"]);
    expect(check(c.report, "home.journal")?.fix).toMatch(/backup/);
  }, 60_000);

  test("config: an invalid file names the key; the sections that need it are left out", async () => {
    const home = freshHome("[limits]\nmax_position_pct = 150\n");
    const { report, exit } = await doctorHere(home);
    expect(exit).toBe(1);
    expect(check(report, "config.valid")).toMatchObject({
      ok: false,
      summary: expect.stringContaining("limits.max_position_pct: must be in (0, 100], got 150"),
      fix: expect.stringContaining("config check"),
    });
    expect(report.checks.some((c) => c.section === "broker" || c.section === "market")).toBe(false);
  }, 60_000);

  test("broker (simulated): the data has run out", async () => {
    const home = freshHome();
    const market = MarketData.load({ home });
    const last = market.calendar.days.at(-1) as string;
    const state = newSimState(market, { start: last });
    writeSimState(join(home, "sim-broker.json"), { ...state, current_day: last, day_open: false, played_days: [last] });
    const { report } = await doctorHere(home);
    expect(check(report, "broker.sim")).toMatchObject({ ok: false, fix: expect.stringContaining("sim reset") });
    expect(check(report, "market.day")).toMatchObject({ ok: false });
  }, 60_000);

  test("market data: an instrument without bars, a stale one, one without an exchange rate", async () => {
    const home = freshHome('[universe]\nfiles = ["mine.csv"]\n[limits]\nmax_price_age_days = 4\n');
    writeFileSync(join(home, "mine.csv"), "symbol,currency\nALFA,USD\nNOPE,USD\nBRVO,EUR\n");
    const { report, exit } = await doctorHere(home);
    expect(exit).toBe(1);
    // the simulated broker trades 2007-01-03 first; the last bar before it is 2006-12-29 (5 days)
    expect(check(report, "market.ALFA")).toMatchObject({
      ok: false,
      summary: expect.stringContaining("5 days old"),
      fix: expect.stringContaining("import-alpaca"),
    });
    expect(check(report, "market.NOPE")).toMatchObject({
      ok: false,
      summary: expect.stringContaining("no daily bars"),
      fix: expect.stringContaining("data import"),
    });
    const fresh = freshHome('[universe]\nfiles = ["mine.csv"]\n');
    writeFileSync(join(fresh, "mine.csv"), "symbol,currency\nALFA,USD\nBRVO,EUR\n");
    const f = await doctorHere(fresh);
    expect(failed(f.report)).toEqual(["market.BRVO"]);
    expect(check(f.report, "market.BRVO")?.fix).toMatch(/EUR = <rate> under \[fx\]/);
  }, 60_000);

  test("model: a missing key, an unpriced model; the key is never printed", async () => {
    const home = freshHome('[model]\nprovider = "openai"\nid = "gpt-5-mini"\n');
    const a = await doctorHere(home);
    expect(failed(a.report)).toEqual(["model.key"]);
    expect(check(a.report, "model.key")?.fix).toMatch(/export OPENAI_API_KEY=/);
    const unpriced = freshHome('[model]\nprovider = "openai"\nid = "my-finetune"\napi_key_env = "MY_KEY"\n');
    const b = await doctorHere(unpriced, { MY_KEY: CANARY });
    expect(failed(b.report)).toEqual(["model.price"]);
    expect(check(b.report, "model.key")?.summary).toBe("MY_KEY is set (value not shown)");
    expect(check(b.report, "model.price")?.fix).toMatch(/\[model\.price\]/);
    expect(JSON.stringify(b.report) + b.text).not.toContain(CANARY);
  }, 60_000);

  test("model --ping: one token through the real client; a failure shows the API's answer without the key", async () => {
    const home = freshHome(`[model]\nprovider = "openai"\nid = "gpt-5-mini"\nbase_url = "${openai.url}"\nmax_retries = 0\n`);
    openai.setResponder(() => ({
      kind: "message",
      content: [{ type: "text", text: "pong" }],
      stop_reason: "max_tokens",
      usage: { input_tokens: 12, output_tokens: 1 },
    }));
    const before = openai.requests.length;
    const ok = await doctor(home, ["--ping"], { OPENAI_API_KEY: CANARY });
    expect(ok.exit).toBe(0);
    expect(check(ok.report, "model.ping")).toMatchObject({ ok: true, details: { stop_reason: "max_tokens", usage: { input_tokens: 12, output_tokens: 1 } } });
    expect(openai.requests.length - before).toBe(1);
    expect(openai.requests.at(-1)?.body).toMatchObject({ max_tokens: 1 });
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CANARY}`);
    // without --ping, no call
    await doctor(home, [], { OPENAI_API_KEY: CANARY });
    expect(openai.requests.length - before).toBe(1);
    // an error that echoes the key
    openai.setResponder(() => ({ kind: "status", status: 401, errorType: "invalid_request_error", message: `Incorrect API key provided: ${CANARY}` }));
    const bad = await doctor(home, ["--ping"], { OPENAI_API_KEY: CANARY }, true);
    openai.setResponder(undefined);
    expect(bad.exit).toBe(1);
    expect(check(bad.report, "model.ping")).toMatchObject({ ok: false, summary: expect.stringContaining("401"), fix: expect.stringContaining("key") });
    expect(JSON.stringify(bad.report) + bad.text + JSON.stringify(ok.report) + ok.text).not.toContain(CANARY);
  }, 60_000);
});

describe("broker (Alpaca paper, loopback fake)", () => {
  const alpacaHome = (url: string) => freshHome(`[broker]\nkind = "alpaca"\n[broker.alpaca]\nbase_url = "${url}"\n`);
  const KEYS = { APCA_API_KEY_ID: "PKDOCTOR", APCA_API_SECRET_KEY: "doctor-secret-value" };
  const brokerChecks = (r: DoctorReport) => r.checks.filter((c) => c.section === "broker").map((c) => [c.id, c.ok]);

  test("healthy: paper endpoint, keys, reachable, a paper account, not blocked, the clock", async () => {
    alpaca.reset();
    const { report, text } = await doctor(alpacaHome(alpaca.url), [], KEYS, true, true);
    expect(brokerChecks(report)).toEqual([
      ["broker.endpoint", true],
      ["broker.keys", true],
      ["broker.reachable", true],
      ["broker.paper_account", true],
      ["broker.not_blocked", true],
      ["broker.clock", true],
    ]);
    expect(check(report, "broker.clock")?.summary).toMatch(/market open; trading day 2024-03-04/);
    expect(text).not.toContain("doctor-secret-value");
  }, 60_000);

  test("failures: a live account number, a blocked account, missing keys, a loopback URL without the opt-in, nothing listening", async () => {
    alpaca.reset();
    alpaca.accountNumber = "A2LIVEACCT9";
    const home = alpacaHome(alpaca.url);
    const live = await doctor(home, [], KEYS, false, true);
    expect(live.exit).toBe(1);
    expect(brokerChecks(live.report)).toEqual([
      ["broker.endpoint", true],
      ["broker.keys", true],
      ["broker.reachable", true],
      ["broker.paper_account", false],
    ]);
    expect(check(live.report, "broker.paper_account")?.fix).toContain("paper account");
    alpaca.reset();
    alpaca.tradingBlocked = true;
    const blocked = await doctorHere(home, KEYS, true);
    expect(check(blocked.report, "broker.not_blocked")).toMatchObject({ ok: false, fix: expect.stringContaining("dashboard") });
    alpaca.reset();
    const noKeys = await doctorHere(home, {}, true);
    expect(brokerChecks(noKeys.report)).toEqual([
      ["broker.endpoint", true],
      ["broker.keys", false],
    ]);
    const requestsBefore = alpaca.requests.length;
    const noOptIn = await doctorHere(home, { ...KEYS, TRADEWARDEN_ALLOW_LOOPBACK_BROKER: "1" }); // the old env switch allows nothing
    expect(brokerChecks(noOptIn.report)).toEqual([["broker.endpoint", false]]);
    expect(check(noOptIn.report, "broker.endpoint")?.fix).toContain("https://paper-api.alpaca.markets");
    expect(alpaca.requests.length).toBe(requestsBefore); // refused before any request
    const down = await doctorHere(alpacaHome("http://127.0.0.1:9"), KEYS, true);
    expect(check(down.report, "broker.reachable")).toMatchObject({ ok: false, fix: expect.stringContaining("network") });
  }, 60_000);
});

describe("research", () => {
  test("the bundled corpus by default; Tavily needs its key (never printed); none says search_news is disabled", async () => {
    const embedded = await doctorHere(freshHome());
    expect(check(embedded.report, "research.provider")).toMatchObject({
      ok: true,
      summary: expect.stringMatching(/^the bundled news corpus: \d+ items, dated \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d$/),
    });
    const tavily = freshHome('[research]\nprovider = "tavily"\n');
    const noKey = await doctorHere(tavily);
    expect(noKey.exit).toBe(1);
    expect(check(noKey.report, "research.key")).toMatchObject({ ok: false, fix: expect.stringContaining("TAVILY_API_KEY") });
    const withKey = await doctorHere(tavily, { TAVILY_API_KEY: "tvly-CANARY-doctor" });
    expect(check(withKey.report, "research.key")).toMatchObject({ ok: true });
    expect(JSON.stringify(withKey.report) + withKey.text).not.toContain("tvly-CANARY-doctor");
    const none = await doctorHere(freshHome('[research]\nprovider = "none"\n'));
    expect(check(none.report, "research.provider")?.summary).toMatch(/search_news is disabled/);
  }, 60_000);
});
