import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cmdDataImport } from "../../src/commands/data-import.js";
import type { CommandIO } from "../../src/commands/io.js";
import { MarketData } from "../../src/market/data.js";

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const c: CommandIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
  return { c, out: () => out.join(""), err: () => err.join("") };
}

const dirs: string[] = [];
function setup(csv: string) {
  const dir = mkdtempSync(join(tmpdir(), "tw-import-"));
  dirs.push(dir);
  const file = join(dir, "in.csv");
  writeFileSync(file, csv);
  return { home: join(dir, "home"), file };
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("tradewarden data import", () => {
  it("imports valid bars (header case-insensitive, extra columns ignored) and the market loads them", () => {
    const { home, file } = setup("date,OPEN,High,low,Close,Adj Close,volume\n2021-01-04,10,11,9.5,10.5,10.5,1000\n2021-01-05,10.5,10.9,10.1,10.8,10.8,1200\n");
    const o = io();
    expect(cmdDataImport({ home, csv: file, symbol: "acme", currency: "eur" }, o.c)).toBe(0);
    expect(o.out()).toContain("imported 2 bars of ACME (EUR) from 2021-01-04 to 2021-01-05");
    const m = MarketData.load({ home });
    expect(m.seriesOf("ACME")?.currency).toBe("EUR");
    expect(m.barOn("ACME", "2021-01-05")?.close).toBe(10.8);
    expect(m.calendar.last).toBe("2021-01-05");
    expect(m.asOf("2021-01-06", { fxToBase: () => 1.2 }).referencePrice("ACME")).toMatchObject({ price: 10.8, currency: "EUR", fx_to_base: 1.2 });
  });

  it("reports every bad row by line and imports nothing", () => {
    const { home, file } = setup(
      [
        "Date,Open,High,Low,Close,Volume",
        "2021-01-04,10,11,9,10.5,1000", // line 2 ok
        "2021-13-01,10,11,9,10.5,1000", // 3 bad date
        "2021-01-05,abc,11,9,10.5,1000", // 4 non-numeric
        "2021-01-06,10,9,11,10,1000", // 5 high < low
        "2021-01-04,10,11,9,10.5,1000", // 6 duplicate
        "2021-01-08,10,11,9,10.5,1000", // 7 ok
        "2021-01-07,10,11,9,10.5,1000", // 8 unsorted
        "2021-01-11,10,10.2,9,10.5,1000", // 9 high below close
        "2021-01-12,null,null,null,null,null", // 10 nulls
        "2021-01-13,10,11,9,10.5,-5", // 11 negative volume
      ].join("\n"),
    );
    const o = io();
    expect(cmdDataImport({ home, csv: file, symbol: "ACME" }, o.c)).toBe(2);
    const err = o.err();
    expect(err).toContain("8 problems; nothing was imported");
    expect(err).toMatch(/line 3: bad date "2021-13-01"/);
    expect(err).toMatch(/line 4: open "abc" is not a number/);
    expect(err).toMatch(/line 5: high 9 is below low 11/);
    expect(err).toMatch(/line 6: duplicate date 2021-01-04 \(first on line 2\)/);
    expect(err).toMatch(/line 8: date 2021-01-07 is before the previous row's 2021-01-08/);
    expect(err).toMatch(/line 9: high 10.2 is below max/);
    expect(err).toMatch(/line 10: open "null" is not a number/);
    expect(err).toMatch(/line 11: volume -5 must be ≥ 0/);
    expect(err).not.toMatch(/line 2:|line 7:/);
    expect(existsSync(join(home, "market")) ? readdirSync(join(home, "market")) : []).toEqual([]);
  });

  it("keeps the previous import when a new file is bad", () => {
    const good = setup("Date,Open,High,Low,Close,Volume\n2021-01-04,10,11,9,10.5,1000\n");
    expect(cmdDataImport({ home: good.home, csv: good.file, symbol: "ACME" }, io().c)).toBe(0);
    writeFileSync(good.file, "Date,Open,High,Low,Close,Volume\n2021-01-04,10,11,9,10.5,1000\nbad,1,1,1,1,1\n");
    expect(cmdDataImport({ home: good.home, csv: good.file, symbol: "ACME" }, io().c)).toBe(2);
    expect(readdirSync(join(good.home, "market"))).toEqual(["ACME.csv"]);
    expect(MarketData.load({ home: good.home, bundled: false }).seriesOf("ACME")?.bars).toHaveLength(1);
  });

  it("refuses a missing column, a bad symbol or currency, and a missing file", () => {
    const { home, file } = setup("Date,Open,High,Close,Volume\n2021-01-04,10,11,10.5,1000\n");
    const o = io();
    expect(cmdDataImport({ home, csv: file, symbol: "ACME" }, o.c)).toBe(2);
    expect(o.err()).toContain("missing column Low");
    expect(cmdDataImport({ home, csv: file, symbol: "../x" }, io().c)).toBe(2);
    expect(cmdDataImport({ home, csv: file, symbol: "ACME", currency: "dollars" }, io().c)).toBe(2);
    expect(cmdDataImport({ home, csv: `${file}.nope`, symbol: "ACME" }, io().c)).toBe(2);
  });
});
