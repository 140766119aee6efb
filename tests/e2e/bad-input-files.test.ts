/**
 * Data files that are not regular files, or too big, and imports (issue #23), through the CLI's
 * commands (in-process: what is under test is what a command reads, not a process): a FIFO or
 * /dev/zero as a universe, a market file, a scenario or an import is refused at once, naming the
 * path — never waited on (a watchdog thread lets go of a reader waiting on a FIFO and the test
 * fails, tests/e2e/fifo.ts; a device read without a bound fails at once, reading without end into
 * memory) — and a run leaves no lock behind. An import is a writer (it takes the home's lock) and
 * refuses any bar the reader would refuse.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { acquireLock } from "../../src/journal/lock.js";
import { type WatchedFifo, watchedFifo } from "./fifo.js";
import { cleanupHomes, freshHome, text, twIn } from "./helpers.js";

afterAll(cleanupHomes);

const fifos: WatchedFifo[] = [];
afterEach(async () => {
  for (const f of fifos.splice(0)) await f.close();
});

/** A FIFO at `dir/name`, watched (a command waiting on it is let go, and `hung` says so). */
function fifoIn(dir: string, name: string): string {
  const f = watchedFifo(dir, name);
  fifos.push(f);
  return f.path;
}

const hung = () => fifos.some((f) => f.waitedOn());

function expectPromptRefusal(r: { exitCode?: number; stderr?: unknown }, code: number, says: string): void {
  expect(hung(), "the command waited on a FIFO").toBe(false);
  expect(r.exitCode, text(r)).toBe(code);
  expect(String(r.stderr)).toContain(says);
  expect(String(r.stderr)).not.toContain("internal error");
}

describe("only regular files are read as data, refused at once", () => {
  it("a FIFO or /dev/zero as the universe: refused naming the path; the run leaves no lock", async () => {
    const home = freshHome();
    const fifo = fifoIn(home, "universe.csv");
    for (const [file, what] of [
      [fifo, "is a FIFO (named pipe), not a regular file"],
      ["/dev/zero", "is a device, not a regular file"],
    ] as const) {
      writeFileSync(join(home, "tradewarden.toml"), `[universe]\nfiles = ["${file}"]\n`);
      for (const args of [
        ["config", "check"],
        ["run", "--yes"],
      ]) {
        const r = await twIn(home, args);
        expectPromptRefusal(r, 2, `universe.files[0]: ${file} ${what}`);
        expect(existsSync(join(home, "tradewarden.lock"))).toBe(false);
      }
    }
  }, 240_000);

  it("a FIFO or a link to /dev/zero as a market file: the run refuses naming it (exit 4) and leaves no lock", async () => {
    const home = freshHome();
    mkdirSync(join(home, "market"));
    const fifo = fifoIn(join(home, "market"), "ABC.csv");
    let r = await twIn(home, ["run", "--yes"]);
    expectPromptRefusal(r, 4, `${fifo} is a FIFO (named pipe), not a regular file`);
    expect(existsSync(join(home, "tradewarden.lock"))).toBe(false);
    rmSync(fifo);
    symlinkSync("/dev/zero", join(home, "market", "ZERO.csv"));
    r = await twIn(home, ["run", "--yes"]);
    expectPromptRefusal(r, 4, `${join(home, "market", "ZERO.csv")} is a device, not a regular file`);
    expect(existsSync(join(home, "tradewarden.lock"))).toBe(false);
  }, 240_000);

  it("a FIFO or /dev/zero as a scenario or an import: exit 2 naming the path", async () => {
    const home = freshHome();
    const fifo = fifoIn(home, "in.fifo");
    for (const [file, what] of [
      [fifo, "is a FIFO (named pipe), not a regular file"],
      ["/dev/zero", "is a device, not a regular file"],
    ] as const) {
      const g = await twIn(home, ["gate", "check", "--scenario", file]);
      expectPromptRefusal(g, 2, `cannot read scenario ${file}: ${file} ${what}`);
      const i = await twIn(home, ["data", "import", "--csv", file, "--symbol", "ABC"]);
      expectPromptRefusal(i, 2, `cannot read ${file}: ${file} ${what}`);
    }
    expect(readdirSync(home).sort()).toEqual(["in.fifo"]);
  }, 240_000);

  it("a FIFO as a run folder's packed artifacts: replay and audit refuse it naming the path", async () => {
    const home = freshHome();
    const runDir = join(home, "some-run");
    mkdirSync(runDir);
    const fifo = fifoIn(runDir, "artifacts.json.br");
    const r = await twIn(home, ["replay", runDir]);
    expectPromptRefusal(r, 2, `${fifo} is a FIFO (named pipe), not a regular file`);
    const a = await twIn(home, ["audit", runDir]);
    expect(hung(), "the command waited on a FIFO").toBe(false);
    expect(String(a.stdout)).toContain(`${fifo} is a FIFO (named pipe), not a regular file`);
  }, 120_000);

  it("a scenario over its size limit is refused with a sentence, not read", async () => {
    const home = freshHome();
    const file = join(home, "big.json");
    writeFileSync(file, `{"orders":[],"pad":"${"x".repeat(17 * 1024 * 1024)}"}`);
    const r = await twIn(home, ["gate", "check", "--scenario", file]);
    expectPromptRefusal(r, 2, `${file} is larger than 16 MiB, the limit for a scenario; refusing to read it`);
  }, 120_000);
});

describe("imports", () => {
  const csv = (rows: string[]) => `Date,Open,High,Low,Close,Volume\n${rows.join("\n")}\n`;

  it("refuses while another writer holds the home, and writes nothing", async () => {
    const home = freshHome();
    const file = join(home, "bars.csv");
    writeFileSync(file, csv(["2024-01-05,10,11,9,10.5,1000", "2024-01-08,10,11,9,10.5,1000"]));
    const lock = await acquireLock(home, "run", { command: "tradewarden run (test)" });
    try {
      // In-process: the lock is held by another holder of this process (a lock between processes is tests/journal/lock.test.ts's).
      const r = await twIn(home, ["data", "import", "--csv", file, "--symbol", "ABC"]);
      expect(r.exitCode, text(r)).toBe(2);
      expect(String(r.stderr)).toMatch(/lock|in use|running/i);
      expect(existsSync(join(home, "market"))).toBe(false);
    } finally {
      await lock.release();
    }
    const ok = await twIn(home, ["data", "import", "--csv", file, "--symbol", "ABC"]);
    expect(ok.exitCode, text(ok)).toBe(0);
    expect(existsSync(join(home, "tradewarden.lock"))).toBe(false);
  }, 120_000);

  it("a 1e308 price is refused by line (nothing imported), and commands keep working", async () => {
    const home = freshHome();
    const file = join(home, "bars.csv");
    writeFileSync(file, csv(["2024-01-05,1e308,1e308,1e308,1e308,100", "2024-01-08,10,11,9,10.5,1000"]));
    const r = await twIn(home, ["data", "import", "--csv", file, "--symbol", "BIG"]);
    expect(r.exitCode, text(r)).toBe(2);
    expect(String(r.stderr)).toContain("line 2: open 1e+308 is beyond 1000000000000000");
    expect(existsSync(join(home, "market"))).toBe(false);
    const run = await twIn(home, ["run", "--yes"]);
    expect(run.exitCode, text(run)).toBe(0);
  }, 120_000);
});
