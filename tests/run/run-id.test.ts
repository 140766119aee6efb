/**
 * Run ids sort by start time, also for runs started within one second (a scheduler's retry, or
 * commands run one after another in one process): `latest` is the run started last.
 */
import { expect, test } from "vitest";
import { pickRunId } from "../../src/commands/run-id.js";
import { newRunId } from "../../src/run/pipeline.js";

test("ids of runs started within one second sort by start time, and `latest` names the last", () => {
  const t0 = Date.parse("2026-12-02T17:00:00.000Z");
  const ids = [0, 1, 2, 250, 999].map((ms) => newRunId(new Date(t0 + ms)));
  for (let i = 0; i < 20; i++) {
    const shuffled = [...ids].sort(() => Math.random() - 0.5).sort();
    expect(shuffled).toEqual(ids);
  }
  expect(pickRunId([...ids].sort(), "latest", "runs/")).toBe(ids[4]);
  // An id of an earlier build (to the second) still resolves by prefix.
  expect(pickRunId(["20261201T170000Z-abc123", ...ids], "20261201", "runs/")).toBe("20261201T170000Z-abc123");
});
