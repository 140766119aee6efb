import { describe, expect, it } from "vitest";
import { flatnessRatio } from "./scenario.js";

describe("a 2,000-event run", () => {
  it("keeps reducer + render time per event flat (last 100 ≤ 1.5× first 100)", async () => {
    // One measured run on a 24-row terminal keeps this test short; `npm run bench` does 3 at 40 rows.
    const r = await flatnessRatio(2000, 1, { rows: 24, warmup: 300 });
    console.info(`flatness ratio ${r.ratio.toFixed(2)}: first 100 ${r.first100Ms.toFixed(1)} ms, last 100 ${r.last100Ms.toFixed(1)} ms`);
    expect(r.frames).toBeGreaterThanOrEqual(2000);
    expect(r.ratio).toBeLessThanOrEqual(1.5);
  }, 120_000);
});
