import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseBarBytes } from "../../src/market/bars.js";
import { MarketData } from "../../src/market/data.js";
import { decodePreparedBars, encodePreparedBars } from "../../src/market/prepared-bars.js";

const data = join(import.meta.dirname, "..", "..", "data");
const barsDir = join(data, "market", "bars");

describe("the prepared form of the bundled bars (data/market/bars.bin)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "tw-prepared-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("holds exactly what the CSVs parse to, every number bit for bit (npm run data:build rebuilds it)", () => {
    const prepared = decodePreparedBars(readFileSync(join(data, "market", "bars.bin")));
    const csvs = readdirSync(barsDir).filter((n) => n.endsWith(".csv"));
    expect(prepared.map((s) => `${s.symbol}.csv`).sort()).toEqual(csvs.sort());
    for (const s of prepared) {
      const bytes = readFileSync(join(barsDir, `${s.symbol}.csv`));
      expect(s.csvBytes).toBe(bytes.length);
      const parsed = parseBarBytes(bytes, s.symbol).bars;
      expect(s.bars.length, s.symbol).toBe(parsed.length);
      expect(s.dates, `${s.symbol}: the header's dates are its bars'`).toEqual(parsed.map((b) => b.date));
      const differing = s.bars.findIndex((b, i) => {
        const p = parsed[i]!;
        return b.date !== p.date || (["open", "high", "low", "close", "volume"] as const).some((k) => !Object.is(b[k], p[k]));
      });
      expect(differing, `${s.symbol}: bar ${differing} differs from its CSV`).toBe(-1);
    }
  });

  it("is used only while it matches the CSVs beside it: an edited CSV is parsed instead", () => {
    const copy = join(tmp, "data");
    cpSync(data, copy, { recursive: true });
    const before = MarketData.load({ dataDir: copy });
    const last = before.seriesOf("ALFA")!.bars.at(-1)!;
    expect(last.date).toBe("2020-04-17");
    appendFileSync(join(copy, "market", "bars", "ALFA.csv"), "2020-04-20,10.00,11.00,9.00,10.50,1000\n");
    const after = MarketData.load({ dataDir: copy });
    expect(after.seriesOf("ALFA")!.bars.at(-1)).toEqual({ date: "2020-04-20", open: 10, high: 11, low: 9, close: 10.5, volume: 1000 });
    expect(after.seriesOf("SPX")!.bars.length).toBe(before.seriesOf("SPX")!.bars.length);
  });

  it("refuses a price it cannot hold exactly, and a series with a gap in the calendar", () => {
    const bar = { date: "2020-01-02", open: 1.005, high: 2, low: 1, close: 1.5, volume: 10 };
    expect(() => encodePreparedBars([{ symbol: "X", csvBytes: 1, bars: [bar] }])).toThrow(/whole number of cents/);
    const a = { ...bar, open: 1 };
    const series = [
      { symbol: "A", csvBytes: 1, bars: [a, { ...a, date: "2020-01-03" }, { ...a, date: "2020-01-06" }] },
      { symbol: "B", csvBytes: 1, bars: [a, { ...a, date: "2020-01-06" }] },
    ];
    expect(() => encodePreparedBars(series)).toThrow(/not on the calendar's next day/);
  });
});
