/**
 * `tradewarden simulate` options and failures, on short periods: exactly --from (2003 on a fresh
 * home), clear refusals (exit 2) that create nothing, --set and --config saved with the
 * simulation, JSONL, and Ctrl+C in a real terminal: the live line, then exit 130 with the report
 * written for the days done.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as pty from "node-pty";
import { afterAll, describe, expect, it } from "vitest";
import { openJournal } from "../../src/journal/journal.js";
import { BIN, childEnv, cleanupHomes, expectExit, freshHome, jsonLines, ROOT, text, twIn } from "./helpers.js";

afterAll(() => cleanupHomes());

/** A finished (or stopped) simulation's journal holds every day's run and verifies; its broker book is one snapshot with the days played. */
async function expectBooksOf(dir: string, days: number): Promise<void> {
  const journal = await openJournal(dir, { timezone: "America/New_York", readOnly: true });
  expect(journal.runs()).toHaveLength(days);
  expect(journal.verify()).toEqual([]);
  expect(existsSync(join(dir, "sim-broker.json.log"))).toBe(false);
  expect((JSON.parse(readFileSync(join(dir, "sim-broker.json"), "utf8")) as { played_days: string[] }).played_days).toHaveLength(days);
}

describe("simulate: options", () => {
  it("--from 2003-01-02 on a fresh home starts exactly there (JSONL: a header, one line per day, a summary) and leaves the home's account alone", async () => {
    const home = freshHome();
    const r = await twIn(home, ["simulate", "--from", "2003-01-02", "--to", "2003-01-08", "--name", "early", "--json"]);
    expectExit(r, 0);
    const lines = jsonLines(String(r.stdout));
    expect(lines[0]).toMatchObject({
      type: "simulation",
      name: "early",
      from: "2003-01-02",
      to: "2003-01-08",
      days: 5,
      model: { provider: "scripted", id: "scripted:momentum" },
    });
    expect(lines.filter((l) => l.type === "day").map((l) => l.trading_day)).toEqual(["2003-01-02", "2003-01-03", "2003-01-06", "2003-01-07", "2003-01-08"]);
    expect(lines.at(-1)).toMatchObject({ summary: { name: "early", status: "completed", runs: 5, exit_code: 0, kill_switch_tripped: false } });
    expect(readdirSync(home)).toEqual(["simulations"]);
    const days = jsonLines(readFileSync(join(home, "simulations/early/days.jsonl"), "utf8"));
    expect(days[0]).toMatchObject({ day: "2003-01-02" });
    await expectBooksOf(join(home, "simulations/early"), 5);
  }, 60_000);

  it("refuses a malformed --from, a --from that is not a trading day, a bad --set, a base currency with no exchange rate, an unknown --model and an existing --name (exit 2, nothing created)", async () => {
    const home = freshHome();
    const weekend = await twIn(home, ["simulate", "--from", "2003-01-04", "--to", "2003-02-01"]);
    expectExit(weekend, 2);
    expect(text(weekend)).toMatch(/--from 2003-01-04 is not a trading day in the market data \(the next trading day is 2003-01-06\)/);
    // A malformed --from is named as the option (not as the config's start date it would become).
    for (const bad of ["2003-1-6", "20030106", "2003-02-30"]) {
      const r = await twIn(home, ["simulate", "--from", bad, "--to", "2003-02-01"]);
      expectExit(r, 2);
      expect(text(r)).toContain(`--from ${bad} is not a date (YYYY-MM-DD)`);
      expect(text(r)).not.toMatch(/configuration|start_date/);
    }
    const early = await twIn(home, ["simulate", "--from", "2000-01-04"]);
    expectExit(early, 2);
    expect(text(early)).toMatch(/a simulation needs 20 \(the first such day is 2000-02-01\)/);
    const set = await twIn(home, ["simulate", "--from", "2003-01-06", "--set", "limits.max_drawdown=10"]);
    expectExit(set, 2);
    expect(text(set)).toMatch(/unknown key "max_drawdown" in limits/);
    const range = await twIn(home, ["simulate", "--from", "2003-01-06", "--set", "limits.max_drawdown_pct=150"]);
    expectExit(range, 2);
    expect(text(range)).toMatch(/limits\.max_drawdown_pct/);
    // A base currency the universe's prices have no rate to: nothing could be valued or traded.
    const fx = await twIn(home, ["simulate", "--from", "2003-01-06", "--set", "account.base_currency=EUR"]);
    expectExit(fx, 2);
    expect(text(fx)).toMatch(
      /the account's base currency is EUR, but \d+ instrument\(s\) priced in USD .* have no exchange rate to it: set one under \[fx\] \(e\.g\. --set fx\.USD=<EUR per USD>\)/,
    );
    const model = await twIn(home, ["simulate", "--from", "2003-01-06", "--model", "scripted:nope"]);
    expectExit(model, 2);
    expect(text(model)).toMatch(/model.script "nope" is not a scripted policy/);
    expect(existsSync(join(home, "simulations"))).toBe(false);
    expectExit(await twIn(home, ["simulate", "--from", "2003-01-06", "--to", "2003-01-06", "--name", "once"]), 0);
    const again = await twIn(home, ["simulate", "--from", "2003-01-06", "--to", "2003-01-06", "--name", "once"]);
    expectExit(again, 2);
    expect(text(again)).toMatch(/a simulation named "once" already exists/);
  }, 180_000);

  it("--config FILE instead of the home's config, then --set on top: the effective config is saved with the simulation", async () => {
    const home = freshHome("[limits]\nmax_drawdown_pct = 30\n");
    const file = join(home, "other.toml");
    writeFileSync(file, "[limits]\nmax_orders_per_month = 2\n[account]\ncapital = 50000\n");
    const r = await twIn(home, [
      "simulate",
      "--from",
      "2007-01-03",
      "--to",
      "2007-01-05",
      "--name",
      "cfg",
      "--config",
      file,
      "--set",
      "limits.max_drawdown_pct=12.5",
      "--json",
    ]);
    expectExit(r, 0);
    const saved = readFileSync(join(home, "simulations/cfg/tradewarden.toml"), "utf8");
    expect(saved).toMatch(/max_orders_per_month = 2/);
    expect(saved).toMatch(/max_drawdown_pct = 12.5/);
    expect(saved).toMatch(/capital = 50_?000/);
    expect(saved).toMatch(/start_date = "2007-01-03"/);
    const report = JSON.parse(readFileSync(join(home, "simulations/cfg/report.json"), "utf8")) as {
      kill_switch: { limit: number };
      config: { sets: string[] };
      start_value: number;
    };
    expect(report.kill_switch.limit).toBe(0.125);
    expect(report.start_value).toBe(50000);
    expect(report.config.sets).toEqual(["limits.max_drawdown_pct=12.5"]);
    // The saved config is a valid home config: `config check` on the simulation's folder.
    expectExit(await twIn(join(home, "simulations/cfg"), ["config", "check"]), 0);
  }, 90_000);
});

describe("simulate: on a terminal", () => {
  it("draws a live progress line; Ctrl+C stops after the day in progress, exits 130 and still writes the report", async () => {
    const home = freshHome();
    const term = pty.spawn(process.execPath, [BIN, "--home", home, "simulate", "--from", "2005-01-03", "--to", "2007-12-31", "--name", "stopped"], {
      name: "xterm-256color",
      cols: 160,
      rows: 30,
      cwd: ROOT,
      env: childEnv({ NO_COLOR: "1" }),
    });
    let out = "";
    term.onData((d) => {
      out += d;
    });
    const exited = new Promise<number>((resolve) => term.onExit((e) => resolve(e.exitCode)));
    const until = async (re: RegExp, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!re.test(out)) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${re}; output:\n${out.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(
      /\[\s*\d+\/754\] 2005-\d\d-\d\d {2}value [\d,.]+ USD {2}dd [\d.]+% of [\d.]+% limit {2}(?:\(from high [\d.]+%\) {2})?orders \d+ {2}spend \$0\.0000 {2}ETA \d+:\d\d/,
    );
    expect(out).toMatch(/\r\u001b\[2K\[/); // redrawn in place
    term.write("\u0003");
    const code = await exited;
    expect(code, out.slice(-2000)).toBe(130);
    expect(out).toMatch(/stopping after the day in progress/);
    expect(out).toMatch(/simulation stopped: interrupted, \d+ of 754 trading day\(s\)/);
    const report = JSON.parse(readFileSync(join(home, "simulations/stopped/report.json"), "utf8")) as { status: string; days: number; days_total: number };
    const days = readFileSync(join(home, "simulations/stopped/days.jsonl"), "utf8").trim().split("\n");
    expect(report.status).toBe("interrupted");
    expect(report.days).toBe(days.length);
    expect(report.days).toBeGreaterThan(0);
    expect(report.days).toBeLessThan(754);
    expect(existsSync(join(home, "simulations/stopped/report.html"))).toBe(true);
    // The simulation's own books are complete for the days done: the journal's head (written every
    // few days during the run) was written at the stop, and the broker's book was snapshotted.
    await expectBooksOf(join(home, "simulations/stopped"), days.length);
  }, 120_000);
});
