/**
 * The universe's CSV reader (src/util/csv-rows.ts) reads every text as csv-parse does with the
 * options it replaces: the same rows, and the same refusal of a malformed text.
 */
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvRows } from "../../src/util/csv-rows.js";

const reference = (text: string): string[][] | string => {
  try {
    return parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as string[][];
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
};
const ours = (text: string): string[][] | string => {
  try {
    return csvRows(text);
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
};

/** Characters where the two could part: separators, every kind of white space, a BOM, non-ASCII. */
const PLAIN = ["a", "Z", "7", ".", ",", ",", "\n", "\n", " ", "\t", "\f", "\v", "\u00a0", "\u2028", "\ufeff", "é", "😀"];
/** ...and what sends a text to csv-parse itself. */
const QUOTED = [...PLAIN, "\r", "\r\n", '"', '"'];
const texts = (pieces: string[]) => fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((p) => p.join(""));

describe("csvRows", () => {
  it("reads the bundled universe's shape: header, rows, spaces around fields, blank lines skipped", () => {
    const text = "\ufeffsymbol, currency ,name\n\nSPX,USD,S&P 500 index\n  \t\nALFA ,usd,\u00a0Alfa Systems\u00a0\n,\n";
    expect(csvRows(text)).toEqual([
      ["symbol", "currency", "name"],
      ["SPX", "USD", "S&P 500 index"],
      ["ALFA", "usd", "\u00a0Alfa Systems"],
      ["", ""],
    ]);
    expect(csvRows(text)).toEqual(reference(text));
  });

  it("gives csv-parse's rows for any text without quotes or carriage returns (read without csv-parse)", () => {
    fc.assert(
      fc.property(texts(PLAIN), (text) => {
        expect(ours(text)).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives csv-parse's rows, or its error, for any text", () => {
    fc.assert(
      fc.property(texts(QUOTED), (text) => {
        expect(ours(text)).toEqual(reference(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses a quote left open, as csv-parse does", () => {
    expect(() => csvRows('symbol,currency\n"SPX,USD\n')).toThrow(/Quote Not Closed/);
  });
});
