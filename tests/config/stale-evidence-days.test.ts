import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";

const emptyData = mkdtempSync(join(tmpdir(), "tw-data-"));
function load(toml?: string) {
  const dir = mkdtempSync(join(tmpdir(), "tw-config-"));
  mkdirSync(join(dir, "universe"));
  writeFileSync(join(dir, "universe", "sim.csv"), "symbol,currency\nAAA,USD\n");
  if (toml !== undefined) writeFileSync(join(dir, "tradewarden.toml"), toml);
  return loadConfig(dir, emptyData);
}
const messages = (toml: string): string[] => {
  const r = load(toml);
  if (r.ok) throw new Error("expected the config to be refused");
  return r.errors.map((e) => e.message);
};

describe("research.stale_evidence_days", () => {
  it("defaults to 30 trading days and takes a positive integer", () => {
    const d = load();
    expect(d.ok && d.config.research.stale_evidence_days).toBe(30);
    const r = load("[research]\nstale_evidence_days = 5\n");
    expect(r.ok && r.config.research.stale_evidence_days).toBe(5);
  });
  it("refuses zero, fractions and text with the key and the rule", () => {
    expect(messages("[research]\nstale_evidence_days = 0\n")).toEqual([
      "tradewarden.toml: research.stale_evidence_days: must be an integer in [1, 10000], got 0",
    ]);
    expect(messages("[research]\nstale_evidence_days = 2.5\n")[0]).toContain("research.stale_evidence_days: must be an integer in [1, 10000]");
    expect(messages('[research]\nstale_evidence_days = "30"\n')[0]).toContain("research.stale_evidence_days:");
  });
});
