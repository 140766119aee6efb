import { describe, expect, it } from "vitest";
import { boundHeapGrowth, LONG_RUN_HEAP_GROWING_PERCENT } from "../../src/util/heap.js";

describe("a simulation's heap policy", () => {
  it("bounds V8's heap growth unless the user gave node their own --heap-growing-percent", () => {
    expect(LONG_RUN_HEAP_GROWING_PERCENT).toBeGreaterThan(0);
    expect(boundHeapGrowth(LONG_RUN_HEAP_GROWING_PERCENT, ["--heap-growing-percent=80"], "")).toBe(false);
    expect(boundHeapGrowth(LONG_RUN_HEAP_GROWING_PERCENT, [], "--max-old-space-size=512 --heap_growing_percent=10")).toBe(false);
    expect(boundHeapGrowth(LONG_RUN_HEAP_GROWING_PERCENT, ["--max-old-space-size=512"], "--enable-source-maps")).toBe(true);
  });
});
