/**
 * CSV rows as `csv-parse` reads them with `{ bom: true, skip_empty_lines: true, trim: true,
 * relax_column_count: true }`, without its cost for the common file: a text with no quote and no
 * carriage return (every line a plain comma-separated list, as the bundled universe) is split here,
 * field by field as csv-parse does it: the leading BOM dropped, a line holding only spaces, tabs or
 * form feeds skipped, each field stripped of those characters at its start and of any white space
 * (String.prototype.trimEnd) at its end. Such a text cannot be malformed. Any other text goes to
 * csv-parse itself, with its errors. Parsing the 21-line bundled universe with csv-parse was ~20 ms
 * of every `run`'s start-up (its set-up and first-call compilation, issue 26);
 * tests/util/csv-rows.test.ts compares the two over random texts.
 */
import { parse } from "csv-parse/sync";

const LEADING = /^[\n\f \t]+/;

function plainRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split("\n")) {
    if (line.replace(LEADING, "") === "") continue;
    rows.push(line.split(",").map((f) => f.replace(LEADING, "").trimEnd()));
  }
  return rows;
}

/** The rows of a CSV text; throws csv-parse's error (with its `lines`) when the text is not valid CSV. */
export function csvRows(text: string): string[][] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!body.includes('"') && !body.includes("\r")) return plainRows(body);
  return parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as string[][];
}
