import { describe, expect, it } from "vitest";
import { recordedCount } from "./record.js";
import { runMutations, TARGETS } from "./mutation.js";

describe("mutated examples and state files (the record's mutation row)", () => {
  it("each mutation loads or is refused naming the file and the place; nothing is written", async () => {
    const total = recordedCount("mutation", "test");
    const results = await runMutations(Math.ceil(total / TARGETS.length));
    expect(results.length).toBeGreaterThanOrEqual(total);
    // the harness must actually bite: most mutations are refused
    expect(results.filter((r) => r.outcome === "refused").length).toBeGreaterThan(results.length / 2);
  }, 120_000);
});
