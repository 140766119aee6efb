/**
 * The run console under a long run: 2,000 events through the reducer and the mounted Ink tree.
 * Render time per event must stay flat (the last 100 events cost at most 1.5× the first 100):
 * finished items go to <Static> once, the live region only ever looks at the tail of the text.
 * The flatness figures are measured once when the file loads and printed to stderr.
 */
import { cpus, loadavg } from "node:os";
import { bench, describe } from "vitest";
import { initialRunState, reduceRun } from "../src/screens/run-state.js";
import { approvalKeyTimings, journalKeyTimings, type KeyTimings } from "../tests/screens/interactivity.js";
import { flatnessRatio, measureRun, scenarioEvents } from "../tests/screens/scenario.js";

const events = scenarioEvents(2000);

const r = await flatnessRatio(2000, 3, { rows: 40, warmup: 500 });
process.stderr.write(
  `\n[screens bench] 2,000 events, 100×40 terminal: first 100 events ${r.first100Ms.toFixed(1)} ms, last 100 ${r.last100Ms.toFixed(1)} ms, ratio ${r.ratio.toFixed(2)} (limit 1.50); mean ${r.meanMs.toFixed(2)} ms/event; ${r.frames} frames; heap delta ${r.heapDeltaMb.toFixed(1)} MB\n`,
);
if (!(r.ratio <= 1.5)) process.exitCode = 1;

// Interactivity: a key press to the next frame stays under 50 ms (median; p95 and max reported —
// they carry the machine's load) on the busiest screens.
const report = (what: string, t: KeyTimings) =>
  process.stderr.write(
    `[screens bench] ${what}: ${t.keys} keys, key → next frame median ${t.medianMs.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms, max ${t.maxMs.toFixed(1)} ms (limit: median < 50 ms); load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores\n`,
  );
const approval = await approvalKeyTimings();
report("approval screen, 50 orders", approval);
const journal = await journalKeyTimings(10_000);
report("journal browser, 10,000 runs", journal);
if (!(approval.medianMs < 50 && journal.medianMs < 50)) process.exitCode = 1;

describe("run console, 2,000 events", () => {
  bench("reducer only", () => {
    let s = initialRunState();
    for (const e of events) s = reduceRun(s, e);
  });

  bench(
    "reducer + Ink render (one frame per event)",
    async () => {
      await measureRun(events);
    },
    { iterations: 2, warmupIterations: 0 },
  );
});
