/**
 * A signal at any moment of start-up stops the real CLI: exit 130, nothing placed, no run left
 * "running". The child is paused at a chosen start-up point by the test-only fault hook
 * (src/util/test-fault.ts `pause`, armed by tests/fixtures/test-fault.mjs); it says so on stderr,
 * the test sends the signal into the pause and only then lets it go on. No sleep anywhere: the
 * pause is the barrier. (Before the fix the CLI's hand-over from bin/tradewarden.js's loading-time
 * handlers to its own closed the signal handle, and a signal pending at `cli.loaded` was lost: the
 * run went on, placed its orders and exited 0.)
 */
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { homePaths } from "../../src/util/paths.js";
import { cleanupHomes, expectExit, freshHome, recordedEvents, runIds } from "./helpers.js";
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

describe.concurrent("a signal at each start-up point of a run", () => {
  for (const [i, point] of POINTS.entries()) {
    const signal = SIGNALS[i % SIGNALS.length] as NodeJS.Signals;
    it(`${signal} at ${point}: exit 130, nothing placed, no run left running`, async () => {
      const home = freshHome();
      const r = await signalAtPause(home, ["run", "--yes"], point, signal);
      expectExit(r, 130);
      expect(r.signal).toBeUndefined();
      expectNothingPlaced(home, String(r.stdout));
    }, 60_000);
  }
});
