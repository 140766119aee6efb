import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { acquireLock, isPidAlive, lockHolder } from "../../src/journal/lock.js";
import { homePaths } from "../../src/util/paths.js";
import { openJournal } from "../../src/journal/journal.js";
import { freshJournal, tmpHome } from "./helpers.js";

const child = (home: string, name: string) =>
  execa(process.execPath, ["--import", "tsx", "tests/journal/fixtures/lock-child.ts", home, name], { reject: false, stdin: "pipe" });

/** A child's stdout lines, each awaited in turn (`next` resolves with the next line; "" once the child has exited). */
function lineReader(p: ReturnType<typeof child>): { next: () => Promise<string> } {
  const lines: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  let buf = "";
  let ended = false;
  const push = (l: string) => {
    const w = waiting.shift();
    if (w) w(l);
    else lines.push(l);
  };
  p.stdout?.on("data", (d: Buffer) => {
    buf += String(d);
    const parts = buf.split("\n");
    buf = parts.pop() ?? "";
    for (const l of parts) push(l);
  });
  void p.finally(() => {
    ended = true;
    for (const w of waiting.splice(0)) w("");
  });
  return { next: () => (lines.length > 0 ? Promise.resolve(lines.shift() as string) : ended ? Promise.resolve("") : new Promise((r) => waiting.push(r))) };
}

describe("home lock", () => {
  it("two processes starting a run at the same instant: exactly one proceeds", async () => {
    const j = await freshJournal();
    // Two children serve three rounds each: every round both try at once; the holder lets go only once the other has answered.
    const ps = [child(j.home, "a"), child(j.home, "b")];
    const out = ps.map(lineReader);
    expect(await Promise.all(out.map((o) => o.next()))).toEqual(["READY", "READY"]);
    for (let round = 0; round < 3; round++) {
      for (const p of ps) p.stdin?.write("go\n");
      const answers = await Promise.all(out.map((o) => o.next()));
      expect(
        answers.filter((a) => a === "ACQUIRED"),
        answers.join("\n"),
      ).toHaveLength(1);
      const refused = answers.find((a) => a.startsWith("LOCKED")) as string;
      expect(refused).toMatch(/another tradewarden process \(pid \d+, run, since .*\) holds the lock/);
      const holder = answers.indexOf("ACQUIRED");
      ps[holder]?.stdin?.write("release\n");
      expect(await out[holder]?.next()).toBe("RELEASED");
    }
    for (const p of ps) p.stdin?.end();
    for (const r of await Promise.all(ps)) expect(r.exitCode, String(r.stdout)).toBe(0);
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
    const p = execa(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { acquireLock } from "./src/journal/lock.js"; await acquireLock(${JSON.stringify(home)}, "run"); console.log("held"); setTimeout(() => {}, 30000);`,
      ],
      {
        buffer: false,
        reject: false,
      },
    );
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
