/**
 * More signals while a run stops: every one of them, up to the very last moment of the process,
 * leaves the exit at 130 — never an end by the signal (143/129). The first signal comes from the
 * test-only fault hook (the run signals itself right after journalling its first intent); once the
 * child says it is stopping, the test keeps sending the second kind of signal until it exits, so
 * one lands in every phase of the close, the process's own teardown included. (Before the fix a
 * signal in Node's teardown after the event loop ran dry, when its signal handles are closed and
 * the default action is back, ended the process by the signal: 6 runs of 6.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, recordedEvents, runIds, tw } from "./helpers.js";

afterAll(cleanupHomes);

const SECOND: NodeJS.Signals[] = ["SIGTERM", "SIGHUP", "SIGINT"];

describe("signals while a run stops", () => {
  for (const second of SECOND) {
    it(`SIGTERM, then ${second} again and again until the end: exit 130 by code, the run closed as interrupted`, async () => {
      const home = freshHome();
      const child = tw(home, ["run", "--yes"], { faults: "executor.after_intent=term" });
      let stderr = "";
      let flood: NodeJS.Timeout | undefined;
      child.stderr?.on("data", (d: Buffer) => {
        stderr += d.toString("utf8");
        if (!flood && stderr.includes("stopping the run")) {
          flood = setInterval(() => child.kill(second), 1);
        }
      });
      const r = await child;
      clearInterval(flood);
      expect(r.signal).toBeUndefined();
      expectExit(r, 130);
      const [runId] = runIds(home);
      expect(recordedEvents(home, runId as string).at(-1)).toMatchObject({ type: "run.finished", outcome: "interrupted", exit_code: 130 });
    }, 60_000);
  }
});
