import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildData, mulberry32 } from "../../scripts/build-data.js";

const root = join(import.meta.dirname, "..", "..");

describe("bundled data build", () => {
  const out = mkdtempSync(join(tmpdir(), "tw-build-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("reproduces the committed files byte for byte", () => {
    const written = buildData({ dataDir: out });
    expect(written.length).toBeGreaterThanOrEqual(21);
    for (const rel of written) {
      const fresh = readFileSync(join(out, rel));
      const committed = readFileSync(join(root, "data", rel));
      expect(fresh.equals(committed), `${rel} differs from the committed file: run npm run data:build`).toBe(true);
    }
  });

  it("labels every derived instrument as synthetic and keeps OHLC consistent", () => {
    const universe = readFileSync(join(root, "data", "universe", "sim.csv"), "utf8")
      .trim()
      .split("\n");
    expect(universe[0]).toBe("symbol,currency,exchange,name,sector,tick,note");
    const rows = universe.slice(1).map((l) => l.split(","));
    expect(rows.length).toBeGreaterThanOrEqual(20);
    for (const r of rows.filter((r) => r[0] !== "SPX")) {
      expect(r[3]).toContain("(synthetic)");
      expect(r[6]).toContain("synthetic: derived from the S&P 500 index");
      const bars = readFileSync(join(root, "data", "market", "bars", `${r[0]}.csv`), "utf8")
        .trim()
        .split("\n")
        .slice(1);
      expect(bars[0]?.startsWith("2000-01-03,")).toBe(true);
      expect(bars[bars.length - 1]?.startsWith("2020-04-17,")).toBe(true);
      const bad = bars.filter((line) => {
        const [, o, h, l, c, v] = line.split(",").map(Number) as number[];
        return !(h! >= Math.max(o!, c!) && l! <= Math.min(o!, c!) && l! > 0 && v! >= 0);
      });
      expect(bad, String(r[0])).toEqual([]);
    }
  });

  it("uses a deterministic hand-written PRNG", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
