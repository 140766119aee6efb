/**
 * Bad shapes and imports through the real CLI (issue #13): each is refused with a clear message and
 * a usage exit (2), and nothing is written where nothing should be.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, freshHome, text, twIn } from "./helpers.js";

afterAll(cleanupHomes);

const barsCsv = (days: string[]) => `Date,Open,High,Low,Close,Volume\n${days.map((d) => `${d},10,11,9,10.5,1000`).join("\n")}\n`;

describe("imports", () => {
  it("bars dated on a weekend are refused by line; nothing is imported", async () => {
    const home = freshHome();
    const csv = join(home, "bars.csv");
    writeFileSync(csv, barsCsv(["2024-01-05", "2024-01-06", "2024-01-07", "2024-01-08"]));
    const r = await twIn(home, ["data", "import", "--csv", csv, "--symbol", "WKND"]);
    expect(r.exitCode, text(r)).toBe(2);
    expect(String(r.stderr)).toContain("line 3: date 2024-01-06 is a Saturday, not a trading day");
    expect(String(r.stderr)).toContain("line 4: date 2024-01-07 is a Sunday, not a trading day");
    expect(readdirSync(home)).not.toContain("market");
  }, 120_000);

  it("a weekend bar placed in market/ by hand is refused by the run, naming the file, before any trading", async () => {
    const home = freshHome();
    mkdirSync(join(home, "market"));
    writeFileSync(join(home, "market", "SPX.csv"), barsCsv(["2024-01-05", "2024-01-06"]).toLowerCase());
    const r = await twIn(home, ["run", "--yes"]);
    expect(r.exitCode, text(r)).toBe(4);
    expect(String(r.stderr)).toMatch(/market\/SPX\.csv: the bar of 2024-01-06 is on a Saturday, not a trading day/);
    expect(readdirSync(home).sort()).toEqual(["market"]);
  }, 120_000);

  it("symbols are ASCII as written: ſpx, ﬀ, ı, ﬅ are refused, never folded into another symbol", async () => {
    const home = freshHome();
    const csv = join(home, "bars.csv");
    writeFileSync(csv, barsCsv(["2024-01-05", "2024-01-08"]));
    for (const symbol of ["ſpx", "ﬀ", "ı", "ﬅ"]) {
      const r = await twIn(home, ["data", "import", "--csv", csv, "--symbol", symbol]);
      expect(r.exitCode, `${symbol}: ${text(r)}`).toBe(2);
      expect(String(r.stderr)).toContain(`symbol ${JSON.stringify(symbol)} is not valid (ASCII letters`);
    }
    expect(readdirSync(home)).not.toContain("market");
    const ok = await twIn(home, ["data", "import", "--csv", csv, "--symbol", "spx2"]);
    expect(ok.exitCode, text(ok)).toBe(0);
    expect(readdirSync(join(home, "market"))).toEqual(["SPX2.csv"]);
  }, 120_000);
});

describe("shapes", () => {
  it("a scenario nested 6,000 deep exits 2 with a clear message", async () => {
    const home = freshHome();
    const file = join(home, "deep.json");
    writeFileSync(file, `{"orders":${"[".repeat(6000)}${"]".repeat(6000)}}`);
    const r = await twIn(home, ["gate", "check", "--scenario", file]);
    expect(r.exitCode, text(r)).toBe(2);
    expect(String(r.stderr)).toContain("deep.json is not a valid scenario: it nests deeper than 64 levels");
  }, 120_000);

  it("--home pointing at a file is a usage error (exit 2) for every command, config check included", async () => {
    const dir = freshHome();
    const file = join(dir, "not-a-folder");
    writeFileSync(file, "x");
    for (const args of [
      ["config", "check"],
      ["journal", "--json"],
    ]) {
      const r = await twIn(file, args);
      expect(r.exitCode, text(r)).toBe(2);
      expect(String(r.stderr)).toContain(`--home ${file} is not a folder`);
      expect(String(r.stderr)).not.toContain("internal error");
    }
  }, 120_000);

  it("replay of a folder that is not a run names the folder and the missing file", async () => {
    const r = await twIn(freshHome(), ["replay", "/etc"]);
    expect(r.exitCode, text(r)).toBe(2);
    expect(String(r.stderr)).toContain("/etc is not a complete run folder: /etc/events.jsonl is missing");
    expect(String(r.stderr)).not.toContain("internal error");
  }, 120_000);

  it("EISDIR names the path: a folder where journal.json or a market file should be", async () => {
    const home = freshHome();
    mkdirSync(join(home, "journal.json"));
    const r = await twIn(home, ["journal", "--json"]);
    expect(r.exitCode, text(r)).toBe(1);
    expect(String(r.stderr)).toContain(`the journal ${join(home, "journal.json")} cannot be read (EISDIR`);
    const home2 = freshHome();
    mkdirSync(join(home2, "market", "X.csv"), { recursive: true });
    const r2 = await twIn(home2, ["run", "--yes"]);
    expect(r2.exitCode, text(r2)).toBe(4);
    expect(String(r2.stderr)).toContain(`${join(home2, "market", "X.csv")} is a folder, not a regular file`);
  }, 120_000);

  it("amounts: 0.001 USD has too many decimals, 0x10 and 1e3 are not plain decimals; nothing is deposited", async () => {
    const home = freshHome();
    expect((await twIn(home, ["init", "--capital", "1000"])).exitCode).toBe(0);
    const cases: [string, RegExp][] = [
      ["0.001", /a deposit 0\.001 has too many decimal places: USD has 2 \(the smallest amount is 0\.01\)/],
      ["0x10", /a deposit must be a plain decimal number like 1250 or 12\.50, got "0x10"/],
      ["1e3", /must be a plain decimal number/],
    ];
    for (const [amount, message] of cases) {
      const r = await twIn(home, ["deposit", amount]);
      expect(r.exitCode, text(r)).toBe(2);
      expect(String(r.stderr)).toMatch(message);
    }
    const init = await twIn(freshHome(), ["init", "--capital", "0x10"]);
    expect(init.exitCode, text(init)).toBe(2);
    const j = await twIn(home, ["journal", "--json"]);
    expect((JSON.parse(String(j.stdout)) as { state: { cash: number } }).state.cash).toBe(1000);
  }, 120_000);

  it("journal --from 2024-13-45 is refused, with or without --json", async () => {
    const home = freshHome();
    for (const args of [
      ["journal", "--json", "--from", "2024-13-45"],
      ["journal", "--to", "2024-02-30"],
    ]) {
      const r = await twIn(home, args);
      expect(r.exitCode, text(r)).toBe(2);
      expect(String(r.stderr)).toMatch(/must be a calendar day \(YYYY-MM-DD\), got "2024-(13-45|02-30)"/);
    }
  }, 120_000);

  it("killswitch reset (and show) on an empty home refuse and write nothing", async () => {
    const home = freshHome();
    const r = await twIn(home, ["killswitch", "reset", "--yes", "--reason", "x"]);
    expect(r.exitCode, text(r)).toBe(2);
    expect(String(r.stderr)).toContain("not initialised");
    const show = await twIn(home, ["killswitch", "--json"]);
    expect(show.exitCode, text(show)).toBe(2);
    expect(readdirSync(home)).toEqual([]);
  }, 120_000);
});
