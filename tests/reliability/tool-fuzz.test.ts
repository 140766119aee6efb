import { describe, expect, it } from "vitest";
import { recordedCount } from "./record.js";
import { fuzzToolCalls } from "./tool-fuzz.js";

describe("fuzzed model output for every tool (the record's tool-fuzz row)", () => {
  it("never crashes, always answers with the envelope, reaches a handler only with valid arguments", async () => {
    const n = recordedCount("tool-fuzz", "test");
    const stats = await fuzzToolCalls(n);
    expect(stats.calls).toBe(n);
    expect(stats.rejected).toBeGreaterThan(0);
  }, 60_000);
});
