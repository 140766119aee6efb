import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { acquireLock, isPidAlive, lockHolder } from "../../src/journal/lock.js";
import { homePaths } from "../../src/util/paths.js";
import { openJournal } from "../../src/journal/journal.js";
import { childBundle } from "./child-bundle.js";
import { freshJournal, tmpHome } from "./helpers.js";

const child = (bundle: string, home: string, name: string) => execa(process.execPath, [bundle, home, name], { reject: false, stdin: "pipe" });

/** A child's stdout, line by line: `next(match)` resolves with its next line that matches (throws if it ends first). */
function lineReader(p: ReturnType<typeof child>) {
  const lines: string[] = [];
  let buffered = "";
  let ended = false;
  const wake: (() => void)[] = [];
  const woken = () => {
    for (const w of wake.splice(0)) w();
  };
  p.stdout?.on("data", (d: Buffer) => {
    buffered += String(d);
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      lines.push(buffered.slice(0, i));
      buffered = buffered.slice(i + 1);
    }
    woken();
  });
  void p.then(() => {
    ended = true;
    woken();
  });
  let at = 0;
  return async (match: RegExp): Promise<string> => {
    for (;;) {
      for (; at < lines.length; at++) if (match.test(lines[at] as string)) return lines[at++] as string;
      if (ended) throw new Error(`the child ended without a line matching ${match}: ${lines.join("\n")}`);
      await new Promise<void>((r) => wake.push(r));
    }
  };
}

describe("home lock", () => {
  it("two processes starting a run at the same instant: exactly one proceeds", async () => {
    const j = await freshJournal();
    // The same two processes race three times (each loaded once: a barrier, READY, whatever the machine's load).
    const bundle = await childBundle({ file: "tests/journal/fixtures/lock-child.ts" });
    const ps = [child(bundle, j.home, "a"), child(bundle, j.home, "b")];
    const next = ps.map(lineReader);
    await Promise.all(next.map((n) => n(/^READY$/)));
    for (let round = 0; round < 3; round++) {
      const answers = next.map((n) => n(/^(ACQUIRED|LOCKED|ERROR)/));
      for (const p of ps) p.stdin?.write("go\n");
      const answered = await Promise.all(answers);
      expect(answered.filter((o) => o.startsWith("ACQUIRED"))).toHaveLength(1);
      expect(answered.find((o) => o.startsWith("LOCKED"))).toMatch(/another tradewarden process \(pid \d+, run, since .*\) holds the lock/);
      // The holder lets go only now that the other has been refused; the next round starts with the lock free.
      const holder = answered.findIndex((o) => o.startsWith("ACQUIRED"));
      ps[holder]?.stdin?.write("release\n");
      await next[holder]?.(/^RELEASED$/);
    }
    for (const p of ps) p.stdin?.end();
    expect((await Promise.all(ps)).map((r) => r.exitCode)).toEqual([0, 0]);
    const after = await openJournal(j.home, { timezone: "UTC" });
    expect(after.runs()).toHaveLength(3);
    expect(after.runs().every((r) => r.status === "completed")).toBe(true);
  }, 90_000);

  it("refuses in-process too, naming the holder, and frees on release", async () => {
    const home = tmpHome();
    const lock = await acquireLock(home, "reset", { command: "tradewarden killswitch" });
    expect(await lockHolder(home)).toMatchObject({ pid: process.pid, purpose: "reset", command: "tradewarden killswitch" });
    await expect(acquireLock(home, "run")).rejects.toMatchObject({
      code: "locked",
      message: expect.stringContaining(`pid ${process.pid}, reset, since`),
    });
    await lock.release();
    const again = await acquireLock(home, "run");
    await again.release();
  });

  it("recovers a lock left by a dead process", async () => {
    const home = tmpHome();
    // a process that takes the lock and is killed
    const holder = await childBundle({
      source: `import { acquireLock } from "./src/journal/lock.js"; await acquireLock(process.argv[2], "run"); console.log("held"); setTimeout(() => {}, 30000);`,
    });
    const p = execa(process.execPath, [holder, home], {
      buffer: false,
      reject: false,
    });
    await new Promise<void>((r) => p.stdout!.once("data", () => r()));
    await expect(acquireLock(home, "run")).rejects.toMatchObject({ code: "locked" });
    p.kill("SIGKILL");
    await p;
    const lock = await acquireLock(home, "run");
    expect((await lockHolder(home))?.pid).toBe(process.pid);
    await lock.release();
  });

  it("recovers a hand-made lock of a dead pid, but not a fresh one from another host", async () => {
    const home = tmpHome();
    const dir = join(home, "tradewarden.lock");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "holder.json"),
      JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), purpose: "run", started_at: "2024-01-01T00:00:00Z", command: "x" }),
    );
    const lock = await acquireLock(home, "run");
    await lock.release();
    mkdirSync(dir);
    writeFileSync(
      join(dir, "holder.json"),
      JSON.stringify({ pid: 2 ** 22 + 7, host: "elsewhere", purpose: "sim", started_at: "2024-01-01T00:00:00Z", command: "x" }),
    );
    await expect(acquireLock(home, "run")).rejects.toMatchObject({ code: "locked", message: expect.stringContaining("on host elsewhere") });
    // …unless it stopped being refreshed for longer than the stale threshold (its mtime, here set 2.1 s back)
    const unrefreshed = new Date(Date.now() - 2100);
    utimesSync(dir, unrefreshed, unrefreshed);
    const l2 = await acquireLock(home, "run", { staleMs: 2000 });
    await l2.release();
  });

  it("a holder that is a zombie (exited, not yet reaped by its parent) is stale: the lock is taken over at once", async () => {
    const home = tmpHome();
    // `sleep 0.1` is a child of `sleep 5` (the shell exec'd into it), which never reaps it: a zombie.
    const parent = execa("sh", ["-c", "sleep 0.1 & echo $!; exec sleep 5"], { reject: false, buffer: false });
    const pid = await new Promise<number>((resolve) => parent.stdout!.once("data", (d: Buffer) => resolve(Number(String(d).trim()))));
    try {
      await new Promise((r) => setTimeout(r, 400));
      let alive = true;
      try {
        process.kill(pid, 0);
      } catch {
        alive = false;
      }
      expect(alive).toBe(true); // the pid still answers kill(0)…
      expect(isPidAlive(pid)).toBe(false); // …but /proc says Z
      const lockDir = homePaths(home).lock;
      mkdirSync(lockDir, { recursive: true });
      writeFileSync(
        join(lockDir, "holder.json"),
        JSON.stringify({ pid, host: hostname(), purpose: "run", started_at: new Date().toISOString(), command: "tradewarden run" }),
      );
      const lock = await acquireLock(home, "run");
      expect(lock.holder.pid).toBe(process.pid);
      await lock.release();
    } finally {
      parent.kill("SIGKILL");
      await parent;
    }
  });

  it("a lock folder without a holder description is taken over safely once it is older than the grace, never while fresh", async () => {
    const home = tmpHome();
    const lockDir = homePaths(home).lock;
    mkdirSync(lockDir, { recursive: true });
    // Fresh: a live process may be about to describe itself.
    await expect(acquireLock(home, "run")).rejects.toMatchObject({ code: "locked" });
    // Left by a process that died while taking the lock (a SIGTERM during lock setup).
    const old = new Date(Date.now() - 5_000);
    utimesSync(lockDir, old, old);
    const lock = await acquireLock(home, "run");
    expect(await lockHolder(home)).toMatchObject({ pid: process.pid });
    await lock.release();
  });
});
