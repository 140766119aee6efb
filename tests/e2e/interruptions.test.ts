/**
 * The real CLI (dist/cli.cjs) on the simulated broker, cut short once per kind of interruption — a
 * SIGKILL after the broker acknowledged an order, a SIGHUP (a closed terminal) at the same point
 * (the run signals itself, in-process: the same handlers and close), a closed stdout pipe (`run --yes | sed '/order placed/q'`) — and after each the next plain run exits
 * 0, `journal verify` passes and the journal's holdings are the simulated broker's positions. The
 * cut points come from the test-only fault hook (src/util/test-fault.ts, armed by a preload). Every
 * other point of execution is cut in-process through the same pipeline, journal and broker
 * (tests/recovery/recovery.test.ts). Waits are on the child's own lines and exit, never a sleep.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAccountServices } from "../../src/run/services.js";
import { expectAgreement, ofType, runIn } from "../recovery/harness.js";
import { cleanupHomes, expectExit, freshHome, journalJson, recordedEvents, runIds, text, tw, twIn, waitForLine } from "./helpers.js";

afterAll(cleanupHomes);

describe.concurrent("a real CLI run cut short on the simulated broker", () => {
  it("SIGKILL after the send: `journal verify` names the unsettled order; the next CLI run recovers it (exit 0) and journal == broker", async () => {
    const home = freshHome();
    const cut = await tw(home, ["run", "--yes"], { faults: "executor.after_send=kill" });
    expect(cut.signal).toBe("SIGKILL");
    // Before recovery `journal verify` names what the journal does not know (the killed run's pid is gone).
    const before = await createAccountServices(home, {}, { readOnly: true });
    expect(before.journal.verify().map((f) => f.code)).toContain("unsettled_order");
    // The killed process holds the lock no longer: the rerun is not refused.
    const next = await twIn(home, ["run", "--yes"]);
    expectExit(next, 0);
    expect(String(next.stdout)).toMatch(/order recovered \(run .*\): BUY \d+ \w+ tw-.*: intent → filled/);
    expect(String(next.stdout)).toMatch(/reconciled: journal and broker agree/);
    await expectAgreement(home);
  }, 60_000);

  // In-process: the run signals itself as the child would (a SIGHUP to a real process at a claimed
  // point is tests/e2e/startup-signals.test.ts's; the close under more signals, second-signal's).
  it("SIGHUP after the send: stops safely, books what was sent, exits 130; the next run exits 0", async () => {
    const home = freshHome();
    const cut = await twIn(home, ["run", "--yes"], { faults: "executor.after_send=hup" });
    expectExit(cut, 130);
    expect(String(cut.stderr)).toMatch(/SIGHUP: stopping the run/);
    const [runId] = runIds(home);
    expect(recordedEvents(home, runId as string).at(-1)).toMatchObject({ type: "run.finished", outcome: "interrupted", exit_code: 130 });
    await expectAgreement(home);
    const next = await runIn(home);
    expect(next.summary.exitCode).toBe(0);
    expect(ofType(next.events, "reconcile.ok")).toHaveLength(1);
    await expectAgreement(home);
  }, 60_000);

  it("a closed stdout pipe: the printer detaches, the run finishes and closes normally (exit 0, events and artifacts written)", async () => {
    const home = freshHome();
    const child = tw(home, ["run", "--yes"]);
    await waitForLine(child, (l) => l.startsWith("order placed"));
    child.stdout?.destroy();
    const r = await child;
    expectExit(r, 0);
    const [runId] = runIds(home);
    const events = recordedEvents(home, runId as string);
    expect(events.at(-1)).toMatchObject({ type: "run.finished", outcome: "executed", exit_code: 0 });
    expect(events.some((e) => e.type === "order.filled")).toBe(true);
    const cycle = join(home, "runs", runId as string, "research-cycle.json");
    expect(existsSync(cycle)).toBe(true);
    expect(JSON.parse(readFileSync(cycle, "utf8")).outcome).toBe("executed");
    await expectAgreement(home);
    const next = await runIn(home);
    expect(next.summary.exitCode).toBe(0);
  }, 60_000);

  it("`approve RUN --yes` killed after its final gate (nothing placed): it decided nothing; the proposal can still be approved in its session, by the run that finishes", async () => {
    const home = freshHome();
    expectExit(await twIn(home, ["run"]), 6); // no terminal, no --yes: recorded as awaiting approval
    const [pending] = runIds(home);
    const cut = await tw(home, ["approve", pending as string, "--yes"], { faults: "journal.append:order_intent=kill" });
    expect(cut.signal).toBe("SIGKILL");
    const afterCut = await journalJson(home);
    expect(afterCut.orders).toHaveLength(0);
    expect(afterCut.runs.at(-1)?.approvals.map((a) => a.decision)).toEqual(["approved"]);
    // An approve stopped before it placed anything has decided nothing (no run shows it decided).
    expect((afterCut.runs as unknown as { decided_by: unknown }[]).map((r) => r.decided_by)).toEqual([null, null]);
    // before the fix: "has expired: run … came after it"
    const again = await twIn(home, ["approve", pending as string, "--yes"]);
    expectExit(again, 0);
    expect(text(again)).not.toMatch(/expired/);
    expect(String(again.stdout)).toMatch(/order filled/);
    // The approve that finished is the deciding run.
    const decided = (await journalJson(home)).runs as unknown as { run_id: string; decided_by: unknown }[];
    expect(decided).toHaveLength(3);
    expect(decided[0]?.decided_by).toEqual({ run_id: decided[2]?.run_id, decision: "approved" });
    await expectAgreement(home);
    // decided now: a third approve is refused, naming the run that decided it (not as an expired proposal)
    const third = await twIn(home, ["approve", pending as string, "--yes"]);
    expectExit(third, 2);
    expect(text(third)).toContain(`the proposal of run ${pending} was already decided: run ${decided[2]?.run_id} recorded it as approved; nothing was placed`);
    expect(text(third)).not.toMatch(/expired/);
  }, 90_000);
});

/** Whether this process may mount a size-limited tmpfs (root on Linux); the reason to skip otherwise. */
function tmpfsSkipReason(): string | null {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return "needs root on Linux to mount a size-limited tmpfs";
  const probe = mkdtempSync(join(tmpdir(), "tw-tmpfs-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return null;
  } catch {
    return "mount -t tmpfs is not permitted here";
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
const noTmpfs = tmpfsSkipReason();

describe("the first run of a fresh home cut short: the journal heals from its log", () => {
  it("SIGKILL at the first fsync of the log: the next run rebuilds the head from the log, says so, and runs (exit 0)", async () => {
    const home = freshHome();
    const cut = await tw(home, ["run", "--yes"], { faults: "journal.log_fsync=kill" });
    expect(cut.signal).toBe("SIGKILL");
    expect(existsSync(join(home, "journal.json"))).toBe(false);
    expect(readFileSync(join(home, "journal.log.jsonl"), "utf8")).toMatch(/"t":"init"/);
    // before the fix: "the journal … cannot be read …; restore it from a backup"
    // In-process: the journal's load notice is said on the command's stderr (noticeTo(io.stderr)).
    const next = await twIn(home, ["run", "--yes"]);
    expectExit(next, 0);
    expect(next.stderr).toMatch(/journal\.json was missing .*rebuilt from .*journal\.log\.jsonl \(1 events\)/);
    expect(next.stray).toBe("");
    expectExit(await twIn(home, ["journal", "verify"]), 0);
    await expectAgreement(home);
  }, 90_000);

  it.skipIf(noTmpfs !== null)(
    `a disk that fills during the first run (tmpfs with 4, 8, 12 KiB left): every later command works once space is freed${noTmpfs ? ` (skipped: ${noTmpfs})` : ""}`,
    async () => {
      for (const freeKiB of [4, 8, 12]) {
        const mnt = mkdtempSync(join(tmpdir(), "tw-full-"));
        execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt]);
        try {
          const home = join(mnt, "home");
          mkdirSync(home);
          const { bavail, bsize } = statfsSync(mnt);
          writeFileSync(join(mnt, "filler"), Buffer.alloc(Math.max(0, bavail * bsize - freeKiB * 1024)));
          // One disk-full first run as a process of its own (what a write error does to a process); the others in-process.
          const full = freeKiB === 4 ? await tw(home, ["run", "--yes"]) : await twIn(home, ["run", "--yes"]);
          const what = `${freeKiB} KiB left: first run exit ${full.exitCode}\n${text(full).slice(-600)}`;
          rmSync(join(mnt, "filler"));
          const verify = await twIn(home, ["journal", "verify"]);
          expect(verify.exitCode, `${what}\n${text(verify)}`).toBe(0);
          expect(text(verify)).not.toMatch(/cannot be read/);
          const next = await twIn(home, ["run", "--yes"]);
          expect(next.exitCode, `${what}\n${text(next)}`).toBe(0);
          await expectAgreement(home);
        } finally {
          execFileSync("umount", [mnt]);
          rmSync(mnt, { recursive: true, force: true });
        }
      }
    },
    240_000,
  );
});

describe("concurrent first commands on a fresh home agree", () => {
  /** The journal's cash and the simulated broker's (null when that book was never written). */
  async function books(home: string): Promise<{ journal: number | null; broker: number | null }> {
    const simPath = join(home, "sim-broker.json");
    const broker = existsSync(simPath) ? (JSON.parse(readFileSync(simPath, "utf8")) as { cash: number }).cash : null;
    const j = await createAccountServices(home, {}, { readOnly: true });
    return { journal: j.journal.isInitialised() ? j.journal.cash() : null, broker };
  }

  /** Resolves once `child` holds the home's lock or has exited (polls the lock folder; no fixed sleep). */
  async function waitForLock(home: string, child: Promise<unknown>): Promise<void> {
    let done = false;
    void child.finally(() => {
      done = true;
    });
    while (!done && !existsSync(join(home, "tradewarden.lock"))) await new Promise((r) => setTimeout(r, 5));
  }

  it("`reconcile --json` first on a fresh home is refused and writes nothing (it left the broker's 100,000 against journal cash 0)", async () => {
    const home = freshHome();
    const r = await twIn(home, ["reconcile", "--json"]);
    expectExit(r, 2);
    expect(text(r)).toMatch(/not initialised yet: run `tradewarden run`/);
    expect(existsSync(join(home, "sim-broker.json"))).toBe(false);
    expect(existsSync(join(home, "journal.log.jsonl"))).toBe(false);
  }, 60_000);

  // The reconcile is a process of its own, the run runs in this one: two processes on one home's lock.
  it("`run --yes` and `reconcile --json` started together (the home's lock is the barrier): whichever wins, the books agree", async () => {
    for (const reconcileFirst of [true, false]) {
      const home = freshHome();
      const recP = tw(home, ["reconcile", "--json"]);
      // barrier: the run starts once reconcile holds the home's lock (its lock folder exists) — or has already exited
      if (reconcileFirst) await waitForLock(home, recP);
      const [run, rec] = await Promise.all([twIn(home, ["run", "--yes"]), recP]);
      const round = reconcileFirst ? "reconcile took the lock first" : "started together (the run, not spawned, usually first)";
      const b = await books(home);
      const what = `${round}: run exit ${run.exitCode}, reconcile exit ${rec.exitCode}, books ${JSON.stringify(b)}`;
      // nothing written, or both books written and the journal holds the broker's cash
      if (b.broker === null) expect(b.journal, what).toBeNull();
      else if (run.exitCode !== 0) expect(b.journal, what).toBe(b.broker);
      expect([0, 2], what).toContain(rec.exitCode);
      const next = await twIn(home, ["reconcile", "--json"]);
      if (b.broker !== null) {
        expectExit(next, 0);
        expect(JSON.parse(String(next.stdout))).toMatchObject({ agree: true });
      }
    }
  }, 240_000);
});
