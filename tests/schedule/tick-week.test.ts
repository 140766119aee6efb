/**
 * `tradewarden tick` over a simulated week (the week of Martin Luther King Day 2007, a market
 * holiday the bundled data's calendar leaves out), the CLI's commands with the scheduler's test clock:
 * runs exactly in the due slots, retries a failed attempt up to the limit, skips the holiday without
 * a run (so without a model request), and never runs twice at once. The week's ticks run in this
 * process (src/cli.tsx `main`); of the two ticks at once, the one that holds the lock is a real
 * process (the other finds the lock held by another process).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, runIds, text, tw, twIn } from "../e2e/helpers.js";
import { pausedAt } from "../e2e/pause.js";

const TOML = `[schedule]
mode = "yes"
attempts = 3

[[schedule.slots]]
name = "morning"
start = "10:30"
end = "11:30"

[[schedule.slots]]
name = "close"
start = "15:00"
end = "15:40"
`;

type Rec = { kind: string; slot: string; day: string; attempt?: number; exit_code?: number; run_id?: string | null; reason?: string };
const log = (home: string): Rec[] =>
  existsSync(join(home, "schedule", "attempts.jsonl"))
    ? readFileSync(join(home, "schedule", "attempts.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Rec)
    : [];

/** One tick at a New York wall-clock time of January 2007 (EST, UTC-5). */
async function tick(home: string, nyTime: string, faults?: string) {
  const [day, hm] = nyTime.split(" ");
  const [h, m] = (hm ?? "").split(":").map(Number);
  const now = new Date(`${day}T00:00:00Z`);
  now.setUTCHours((h ?? 0) + 5, m ?? 0);
  const r = await twIn(home, ["tick"], { now: now.toISOString(), ...(faults ? { faults } : {}) });
  expectExit(r, 0);
  return r;
}

afterAll(cleanupHomes);

// The two cases have their own homes: the real processes of the second run while the first's
// in-process ticks do.
describe.concurrent("tick over a simulated week", () => {
  it("runs in the due slots only, retries up to the limit, skips the holiday, records everything", { timeout: 600_000 }, async () => {
    const home = freshHome(TOML);

    // Monday 15 January: a holiday. Inside the slot, the calendar says closed: no run, recorded once.
    let r = await tick(home, "2007-01-15 10:30");
    expect(String(r.stdout)).toContain("the market is closed");
    await tick(home, "2007-01-15 10:45");
    expect(runIds(home)).toEqual([]);
    expect(existsSync(join(home, "journal.log.jsonl"))).toBe(false); // nothing opened the journal, nothing asked a model
    expect(log(home)).toEqual([expect.objectContaining({ kind: "skip", reason: "closed", day: "2007-01-15", slot: "morning" })]);

    // Tuesday: before the window nothing; in it one run; later ticks in the window find it done; at its end nothing.
    r = await tick(home, "2007-01-16 09:00");
    expect(String(r.stdout)).toContain("no slot is due (next: morning 2007-01-16 10:30 EST)");
    await tick(home, "2007-01-16 10:30");
    expect(runIds(home)).toHaveLength(1);
    r = await tick(home, "2007-01-16 10:45");
    expect(String(r.stdout)).toContain("slot morning of 2007-01-16 is done (attempt 1: exit 0");
    await tick(home, "2007-01-16 11:30");
    expect(runIds(home)).toHaveLength(1);

    // Wednesday: the run fails three times (an injected disk-full error): three attempts, then none.
    for (const t of ["10:30", "10:45", "11:00"]) await tick(home, `2007-01-17 ${t}`, "run.services=enospc");
    r = await tick(home, "2007-01-17 11:15");
    expect(String(r.stdout)).toContain("used all 3 attempts");
    const wed = log(home).filter((x) => x.day === "2007-01-17");
    expect(wed.map((x) => [x.slot, x.attempt, x.exit_code, x.run_id])).toEqual([
      ["morning", 1, 1, null],
      ["morning", 2, 1, null],
      ["morning", 3, 1, null],
    ]);
    // The close slot is a slot of its own: it runs.
    await tick(home, "2007-01-17 15:00");
    // Saturday: no slot.
    r = await tick(home, "2007-01-20 10:30");
    expect(String(r.stdout)).toContain("no slot is due");

    const runs = runIds(home);
    expect(runs).toHaveLength(2);
    const attempts = log(home).filter((x) => x.kind === "attempt");
    expect(attempts.map((x) => [x.day, x.slot, x.attempt, x.exit_code])).toEqual([
      ["2007-01-16", "morning", 1, 0],
      ["2007-01-17", "morning", 1, 1],
      ["2007-01-17", "morning", 2, 1],
      ["2007-01-17", "morning", 3, 1],
      ["2007-01-17", "close", 1, 0],
    ]);
    expect(attempts.filter((x) => x.exit_code === 0).map((x) => x.run_id)).toEqual(runs);

    // A manual run beside them: the journal and status tell them apart.
    expectExit(await twIn(home, ["run", "--yes"]), 0);
    const journal = JSON.parse(String((await twIn(home, ["journal", "--json"])).stdout)) as { runs: { run_id: string; trigger?: string }[] };
    expect(journal.runs.map((x) => x.trigger)).toEqual(["scheduled", "scheduled", "manual"]);
    const table = String((await twIn(home, ["journal"])).stdout);
    expect(table.split("\n").filter((l) => l.includes("(scheduled)"))).toHaveLength(2);

    const st = await twIn(home, ["schedule", "status", "--json"], { now: "2007-01-20T15:30:00Z" });
    expectExit(st, 0);
    const status = JSON.parse(String(st.stdout)) as Record<string, unknown> & {
      runs: { scheduled: number; manual: number };
      next_slot: { slot: string; day: string; market_time: string };
      heartbeat: { at: string };
      installed: unknown;
    };
    expect(status.runs).toMatchObject({ scheduled: 2, manual: 1 });
    expect(status.next_slot).toMatchObject({ slot: "morning", day: "2007-01-22", market_time: "2007-01-22 10:30 EST" });
    expect(status.heartbeat.at).toBe("2007-01-20T15:30:00.000Z");
    expect(status.installed).toBeNull();
    const human = String((await twIn(home, ["schedule", "status"], { now: "2007-01-20T15:30:00Z" })).stdout);
    expect(human).toContain("runs: 2 scheduled, 1 manual");
    expect(human).toContain("attempt 3: exit 1");
    expect(human).toContain("skipped (closed)");
  });

  // The first tick is a process of its own, paused inside its run while it holds the lock; the second,
  // started meanwhile, runs in this process and finds the lock held by the other. Two processes racing
  // for the lock at the same instant, exactly one proceeding, is tests/journal/lock.test.ts's.
  it("two ticks at once: one runs, the other records a skip; never two runs at once", { timeout: 300_000 }, async () => {
    const home = freshHome(TOML);
    const go = join(home, "go");
    const at = "2007-01-18T15:30:00.000Z";
    const running = tw(home, ["tick"], { now: at, faults: "run.services=pause", env: { TRADEWARDEN_TEST_FAULT_GO: go }, timeoutMs: 120_000 });
    await pausedAt(running, "run.services");
    const skipped = await twIn(home, ["tick"], { now: at });
    expectExit(skipped, 0);
    expect(text(skipped)).toContain("another tradewarden process holds the home: skipped");
    // The skip opened no run (the holder, paused before its services, has not opened one yet either).
    expect(runIds(home)).toEqual([]);
    writeFileSync(go, "");
    expectExit(await running, 0);
    expect(runIds(home)).toHaveLength(1);
    const recs = log(home);
    expect(recs.map((x) => [x.kind, x.reason ?? x.exit_code])).toEqual([
      ["skip", "locked"],
      ["attempt", 0],
    ]);
  });
});
