import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RELIABILITY_DOC, suiteRows } from "./record.js";

const ROOT = join(import.meta.dirname, "..", "..");

describe("docs/reliability.md stays true", () => {
  it("lists every suite with both sizes, and each suite's test reads its size from it", () => {
    const rows = suiteRows();
    expect(rows.map((r) => r.id)).toEqual(["tool-fuzz", "mutation", "injection", "load-events"]);
    for (const r of rows) {
      expect(r.test, r.id).toBeGreaterThan(0);
      expect(r.bench, r.id).toBeGreaterThanOrEqual(r.test);
    }
  });

  it("every test file the record cites exists and names what it proves", () => {
    const text = readFileSync(RELIABILITY_DOC, "utf8");
    const cited = [...new Set(text.match(/(tests|bench)\/[\w./-]+\.(test\.tsx?|bench\.ts)/g) ?? [])];
    expect(cited.length).toBeGreaterThan(8);
    for (const file of cited) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });
});
