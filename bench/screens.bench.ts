/**
 * The run console under a long run: 2,000 events through the reducer and the mounted Ink tree.
 * Render time per event must stay flat (the last 100 events cost at most 1.5× the first 100):
 * finished items go to <Static> once, the live region only ever looks at the tail of the text.
 * The flatness figures are measured once when the file loads and printed to stderr.
 */
import { bench, describe } from "vitest";
import { initialRunState, reduceRun } from "../src/screens/run-state.js";
import { flatnessRatio, measureRun, scenarioEvents } from "../tests/screens/scenario.js";

const events = scenarioEvents(2000);

const r = await flatnessRatio(2000, 3, { rows: 40, warmup: 500 });
process.stderr.write(
  `\n[screens bench] 2,000 events, 100×40 terminal: first 100 events ${r.first100Ms.toFixed(1)} ms, last 100 ${r.last100Ms.toFixed(1)} ms, ratio ${r.ratio.toFixed(2)} (limit 1.50); mean ${r.meanMs.toFixed(2)} ms/event; ${r.frames} frames; heap delta ${r.heapDeltaMb.toFixed(1)} MB\n`,
);
if (!(r.ratio <= 1.5)) process.exitCode = 1;

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
