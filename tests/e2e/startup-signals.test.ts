/**
 * A signal at any moment of start-up stops the real CLI: exit 130, nothing placed, no run left
 * "running". The child is paused at a chosen start-up point by the test-only fault hook
 * (src/util/test-fault.ts `pause`, armed by tests/fixtures/test-fault.mjs); it says so on stderr,
 * the test sends the signal into the pause and only then lets it go on. No sleep anywhere: the
 * pause is the barrier. Once the run has claimed its interrupts (run.claimed, run.services) the
 * signal is the run's own, sent in-process by the same hook: the same handlers stop it. (Before the fix the CLI's hand-over from bin/tradewarden.js's loading-time
 * handlers to its own closed the signal handle, and a signal pending at `cli.loaded` was lost: the
 * run went on, placed its orders and exited 0.)
 */
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { homePaths } from "../../src/util/paths.js";
import { cleanupHomes, expectExit, freshHome, recordedEvents, runIds, twIn } from "./helpers.js";
import { signalAtPause } from "./pause.js";

afterAll(cleanupHomes);

function expectNothingPlaced(home: string, stdout: string): void {
  expect(stdout).not.toMatch(/order placed/);
  for (const runId of runIds(home)) {
    const events = recordedEvents(home, runId);
    expect(events.filter((e) => e.type.startsWith("order."))).toEqual([]);
    // A run that started is closed as interrupted, never left running.
    expect(events.at(-1)).toMatchObject({ type: "run.finished", outcome: "interrupted", exit_code: 130 });
  }
  expect(existsSync(homePaths(home).lock)).toBe(false);
}

const POINTS = ["cli.loaded", "cli.ready", "run.start", "run.claimed", "run.services"] as const;
const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
/** Points where the run has claimed its interrupts: the run signals itself there, in-process (each signal is sent to a real process above). */
const CLAIMED: readonly string[] = ["run.claimed", "run.services"];
const FAULT_OF: Record<string, string> = { SIGINT: "int", SIGTERM: "term", SIGHUP: "hup" };

describe.concurrent("a signal at each start-up point of a run", () => {
  for (const [i, point] of POINTS.entries()) {
    const signal = SIGNALS[i % SIGNALS.length] as NodeJS.Signals;
    const inProcess = CLAIMED.includes(point);
    it(`${signal} at ${point}${inProcess ? " (in-process)" : ""}: exit 130, nothing placed, no run left running`, async () => {
      const home = freshHome();
      if (inProcess) {
        const r = await twIn(home, ["run", "--yes"], { faults: `${point}=${FAULT_OF[signal]}` });
        expectExit(r, 130);
        expect(r.stderr).toContain(`${signal}: stopping the run`);
        expectNothingPlaced(home, r.stdout);
        return;
      }
      const r = await signalAtPause(home, ["run", "--yes"], point, signal);
      expectExit(r, 130);
      expect(r.signal).toBeUndefined();
      expectNothingPlaced(home, String(r.stdout));
    }, 60_000);
  }
});
