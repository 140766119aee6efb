/**
 * `tradewarden simulate` end to end over 2008 on the bundled data, May and June with a 5%
 * drawdown limit (the momentum policy buys no more once the index falls below its SMA200, so the
 * trip comes early, on 2008-05-08; the halted days to June's end show the run goes on after it;
 * 42 days prove what May to October did, in a third of the time): the kill switch
 * trips and the summary, report.json and report.html say so; the home's own files are
 * byte-identical before and after; a simulated day passes `audit` and `replay`; the storage stays
 * under ~40 KB a day; the report renders in headless Chromium with the network off; list, compare
 * and report rebuild it.
 */
import { createHash } from "node:crypto";
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOffline } from "./browser.js";
import { cleanupHomes, expectExit, freshHome, jsonLines, twIn } from "./helpers.js";

function walk(dir: string, skip: string | null = null): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (skip && p === skip) continue;
    if (e.isDirectory()) out.push(...walk(p, skip));
    else out.push(p);
  }
  return out;
}

/** Every file of the home (but its simulations/) with its SHA-256. */
function fingerprint(home: string): Record<string, string> {
  return Object.fromEntries(walk(home, join(home, "simulations")).map((p) => [relative(home, p), createHash("sha256").update(readFileSync(p)).digest("hex")]));
}

const CONTRACT = [
  "total_return",
  "annualised_return",
  "index_return",
  "volatility",
  "sharpe",
  "sortino",
  "max_drawdown",
  "max_drawdown_days",
  "orders",
  "cost_usd",
  "days",
];

describe("a simulation over the 2008 crash", () => {
  let home = "";
  let sim = "";
  let before: Record<string, string> = {};
  let out = "";
  let exitCode: number | undefined;

  beforeAll(async () => {
    home = freshHome();
    // The home has an account of its own: one daily run.
    expectExit(await twIn(home, ["run", "--yes"]), 0);
    before = fingerprint(home);
    const r = await twIn(home, ["simulate", "--from", "2008-05-01", "--to", "2008-06-30", "--name", "crash", "--set", "limits.max_drawdown_pct=5"]);
    out = String(r.stdout);
    exitCode = r.exitCode;
    sim = join(home, "simulations", "crash");
  }, 300_000);
  afterAll(() => cleanupHomes());

  it("trips the kill switch in the crash, exits 0 (a trip is a result) and says so in the summary", () => {
    expect(exitCode, out.slice(-3000)).toBe(0);
    expect(out).toMatch(/simulation crash: completed, 42 of 42 trading day\(s\) 2008-05-01 → 2008-06-30/);
    // Said through the one formatter: thousands separators and the currency, not "peak 121593.00".
    expect(out).toMatch(
      /KILL SWITCH TRIPPED on 2008-\d\d-\d\d: drawdown \d\.\d\d% from peak \d{1,3}(,\d{3})+\.\d\d USD reached the 5% limit \(value \d{1,3}(,\d{3})+\.\d\d USD\)/,
    );
    expect(out).toMatch(/SPX bought and held -7\.6\d%/);
  });

  it("report.json: the public contract, plain fractions, and the trip", () => {
    const r = JSON.parse(readFileSync(join(sim, "report.json"), "utf8")) as Record<string, unknown> & {
      trips: { day: string; drawdown: number }[];
      blocked_by_rule: Record<string, number>;
      kill_switch: { tripped: boolean; limit: number };
    };
    for (const k of CONTRACT) expect(typeof r[k], k).toBe("number");
    expect(r.days).toBe(42);
    expect(r.kill_switch).toEqual({ tripped: true, limit: 0.05 });
    expect(r.trips).toHaveLength(1);
    expect(r.trips[0]?.day).toMatch(/^2008-/);
    expect(r.trips[0]?.drawdown).toBeGreaterThanOrEqual(0.05);
    expect(r.trips[0]?.drawdown).toBeLessThan(0.1);
    expect(r.max_drawdown).toBeGreaterThan(0.05);
    expect(r.max_drawdown).toBeLessThan(1); // a fraction, not a percentage
    // The index fell ~7.6% over the same days (SPX close 2008-04-30 → 2008-06-30); a fraction.
    expect(r.index_return).toBeCloseTo(1280.0 / 1385.59 - 1, 2);
    expect(typeof r.blocked_by_rule).toBe("object");
    expect(r.cost_usd).toBe(0);
    expect(r.orders).toBeGreaterThan(0);
  });

  it("leaves the home's own files byte-identical (journal, simulated broker, runs)", () => {
    expect(Object.keys(before)).toContain("journal.json");
    expect(fingerprint(home)).toEqual(before);
  });

  it("keeps a simulated day's artifacts compact (≤ 40 KB a day on disk) and audit and replay work on them", async () => {
    const bytes = walk(sim).reduce((a, p) => a + statSync(p).blocks * 512, 0);
    expect(bytes / 42).toBeLessThan(40 * 1024);
    const days = jsonLines(readFileSync(join(sim, "days.jsonl"), "utf8"));
    const traded = days.find((d) => d.outcome === "executed");
    const runId = String(traded?.run_id);
    expect(readdirSync(join(sim, "runs", runId))).toEqual(["artifacts.json.br"]);
    const audit = await twIn(sim, ["audit", runId]);
    expectExit(audit, 0);
    expect(String(audit.stdout)).toMatch(/^audit ok/);
    const replay = await twIn(sim, ["replay", runId]);
    expectExit(replay, 0);
    expect(String(replay.stdout)).toMatch(/model call\(s\) replayed with identical requests; outcome submitted/);
  });

  it("report.html renders in headless Chromium with the network off: no console error, the charts drew, the trip is shown", async () => {
    const html = readFileSync(join(sim, "report.html"), "utf8");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    const shot = join(tmpdir(), "tradewarden-simulation-report.png");
    const page = await openOffline(join(sim, "report.html"), shot);
    expect(page.consoleErrors).toEqual([]);
    expect(page.requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"))).toEqual([]);
    expect(page.canvasInk).toHaveLength(4); // value vs index, drawdown, exposure, orders per month
    for (const ink of page.canvasInk) expect(ink).toBeGreaterThan(2000);
    expect(page.text).toMatch(/Kill switch tripped 1 time\(s\)/);
    expect(page.text).toMatch(/Sortino/);
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    console.log(`report screenshot: ${shot}`);
  }, 60_000);

  it("list, compare and report: the simulation in a table, side by side with another, its report rebuilt identically", async () => {
    expectExit(await twIn(home, ["simulate", "--from", "2009-03-02", "--to", "2009-03-13", "--name", "spring", "--set", "limits.max_drawdown_pct=10"]), 0);
    const list = await twIn(home, ["simulate", "list"]);
    expectExit(list, 0);
    expect(String(list.stdout)).toMatch(/crash\s+completed\s+2008-05-01→2008-06-30\s+42\/42\s+scripted:momentum/);
    expect(String(list.stdout)).toMatch(/spring\s+completed/);
    const compare = await twIn(home, ["simulate", "compare", "crash", "spring"]);
    expectExit(compare, 0);
    expect(String(compare.stdout)).toMatch(/^\s+crash\s+spring/);
    expect(String(compare.stdout)).toMatch(/trips\s+1 \(2008-\d\d-\d\d\)\s+0/);
    const saved = readFileSync(join(sim, "report.json"), "utf8");
    const rebuilt = await twIn(home, ["simulate", "report", "crash"]);
    expectExit(rebuilt, 0);
    expect(readFileSync(join(sim, "report.json"), "utf8")).toBe(saved);
    expect(readFileSync(join(home, "simulations", "spring", "tradewarden.toml"), "utf8")).toMatch(/max_drawdown_pct = 10/);

    // One simulation whose record is damaged hides no other: it is listed as unreadable, named on stderr, exit 1.
    cpSync(join(home, "simulations", "spring"), join(home, "simulations", "broken"), { recursive: true });
    writeFileSync(join(home, "simulations", "broken", "simulation.json"), '{"format":');
    const damaged = await twIn(home, ["simulate", "list"]);
    expectExit(damaged, 1);
    expect(String(damaged.stdout)).toMatch(/crash\s+completed/);
    expect(String(damaged.stdout)).toMatch(/spring\s+completed/);
    expect(String(damaged.stdout)).toMatch(/broken\s+unreadable/);
    expect(String(damaged.stderr)).toMatch(/tradewarden simulate list: broken: .*simulation\.json cannot be read/);
    const damagedJson = await twIn(home, ["simulate", "list", "--json"]);
    expectExit(damagedJson, 1);
    expect((JSON.parse(String(damagedJson.stdout)) as { name: string; status: string }[]).map((r) => `${r.name} ${r.status}`).sort()).toEqual([
      "broken unreadable",
      "crash completed",
      "spring completed",
    ]);
  }, 120_000);
});
