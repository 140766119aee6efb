/** simulation.json is checked whole on read: a damaged record is refused naming the file and the key. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMeta } from "../../src/simulation/store.js";

const dir = mkdtempSync(join(tmpdir(), "tw-sim-meta-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const good = {
  format: "tradewarden-simulation/1",
  name: "s",
  from: "2008-01-02",
  to: "2008-12-31",
  days_total: 252,
  days_done: 252,
  status: "completed",
  created_at: "2026-12-01T00:00:00.000Z",
  finished_at: "2026-12-01T00:00:06.000Z",
  elapsed_ms: 6000,
  model: { provider: "scripted", id: "scripted:momentum" },
  config: { file: null, model: "scripted", sets: [] },
  reset_after: null,
  max_drawdown_pct: 25,
  capital: 100000,
  base_currency: "USD",
  index_symbol: "SPX",
  start_index: 1468.36,
  failure: null,
};

describe("simulation.json", () => {
  it("a complete record reads; a damaged one is refused naming the file and the key", () => {
    const path = join(dir, "simulation.json");
    writeFileSync(path, JSON.stringify(good));
    expect(readMeta(path)).toEqual(good);
    writeFileSync(path, JSON.stringify({ ...good, days_done: "lots" }));
    expect(() => readMeta(path)).toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not a valid simulation record: days_done`));
    writeFileSync(path, "{ torn");
    expect(() => readMeta(path)).toThrow(/cannot be read/);
  });
});
