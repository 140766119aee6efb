import { describe, expect, it } from "vitest";
import { loadEvents } from "./load.js";
import { recordedCount } from "./record.js";

describe("10,000 events through the headless printer and the console reducer (the record's load-events row)", () => {
  it("state and output grow at most linearly with the events; memory stays bounded", () => {
    const n = recordedCount("load-events", "test");
    const r = loadEvents(n);
    expect(r.events).toBe(n);
    // one finished item and at most a couple of lines per event: nothing is duplicated or re-buffered
    expect(r.items).toBeLessThanOrEqual(n);
    expect(r.headlessLines).toBeLessThanOrEqual(3 * n);
    expect(r.pendingTools).toBeLessThan(50);
    // generous bound for a shared CI machine; bench/reliability.bench.ts measures it with gc
    expect(r.heapDeltaMb).toBeLessThan(200);
  }, 60_000);
});
