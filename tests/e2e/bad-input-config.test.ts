/**
 * Bad configuration files through the real CLI (issue #13): each is refused by `config check`
 * naming the key or the file, exactly as `run` refuses it, and nothing is written to the home.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, freshHome, text, twIn } from "./helpers.js";

afterAll(cleanupHomes);

/** `config check` and `run --yes` both exit 2 with `expected` in the message; the home gains nothing. */
async function refusedAlike(home: string, expected: RegExp): Promise<void> {
  const before = readdirSync(home).sort();
  const check = await twIn(home, ["config", "check"]);
  expect(check.exitCode, text(check)).toBe(2);
  expect(String(check.stderr)).toMatch(expected);
  const run = await twIn(home, ["run", "--yes"]);
  expect(run.exitCode, text(run)).toBe(2);
  expect(String(run.stderr)).toMatch(expected);
  expect(readdirSync(home).sort()).toEqual(before);
}

describe("config files that used to get through", () => {
  it("a broken symbolic link is refused, not read as 'no config'", async () => {
    const home = freshHome();
    symlinkSync(join(home, "missing.toml"), join(home, "tradewarden.toml"));
    await refusedAlike(home, /tradewarden\.toml is a symbolic link to a file that does not exist/);
  }, 120_000);

  it("a FIFO is refused at once instead of blocking", async () => {
    const home = freshHome();
    execFileSync("mkfifo", [join(home, "tradewarden.toml")]);
    await refusedAlike(home, /is a FIFO \(named pipe\), not a regular file/);
  }, 120_000);

  it("a folder is refused", async () => {
    const home = freshHome();
    mkdirSync(join(home, "tradewarden.toml"));
    await refusedAlike(home, /tradewarden\.toml is a folder, not a regular file/);
  }, 120_000);

  it("capital = 1e14 is refused naming account.capital before anything is written", async () => {
    await refusedAlike(freshHome("[account]\ncapital = 1e14\n"), /tradewarden\.toml: account\.capital: must be in \[1, 1000000000000\], got 100000000000000/);
  }, 120_000);

  it("tiny capitals and nan/inf are named by config check (nan/inf as such, not null)", async () => {
    for (const capital of ["1e300", "1e-300", "0.5"]) {
      const r = await twIn(freshHome(`[account]\ncapital = ${capital}\n`), ["config", "check"]);
      expect(r.exitCode, text(r)).toBe(2);
      expect(String(r.stderr)).toMatch(/account\.capital: must be in \[1, 1000000000000\]/);
    }
    const home = freshHome("[limits]\nmax_drawdown_pct = nan\nmax_position_pct = inf\n[executor]\nwait_s = -inf\n");
    await refusedAlike(home, /limits\.max_drawdown_pct: must be a finite number, got nan/);
    const r = await twIn(home, ["config", "check"]);
    expect(String(r.stderr)).toMatch(/limits\.max_position_pct: must be a finite number, got inf/);
    expect(String(r.stderr)).toMatch(/executor\.wait_s: must be a finite number, got -inf/);
    expect(String(r.stderr)).not.toMatch(/null/);
  }, 120_000);

  it("an unknown model.id and model.script are refused by config check as by run", async () => {
    await refusedAlike(freshHome('[model]\nid = "gpt-17"\n'), /model\.id: must be a model in the Claude price table.*got "gpt-17"/);
    await refusedAlike(freshHome('[model]\nscript = "yolo"\n'), /model\.script: must be a scripted policy.*got "yolo"/);
  }, 120_000);

  it("a timer beyond its range is refused naming the key", async () => {
    await refusedAlike(freshHome("[executor]\nwait_s = 1e12\n"), /executor\.wait_s: must be in \[0, 86400\]/);
  }, 120_000);
});
