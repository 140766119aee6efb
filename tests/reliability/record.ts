/**
 * docs/reliability.md is the record of what was tried; its suites table names how many cases each
 * suite runs in `npm test` and in `npm run bench`. The suites read their sizes from it, so the
 * record cannot drift from what actually runs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const RELIABILITY_DOC = join(import.meta.dirname, "..", "..", "docs", "reliability.md");

export interface SuiteRow {
  id: string;
  test: number;
  bench: number;
  cells: string[];
}

/** The rows of the table whose header starts with `| suite |`. */
export function suiteRows(text: string = readFileSync(RELIABILITY_DOC, "utf8")): SuiteRow[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith("| suite |"));
  if (start < 0) throw new Error(`${RELIABILITY_DOC}: no "| suite |" table`);
  const rows: SuiteRow[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const num = (s: string | undefined) => Number((s ?? "").replace(/[,\s]/g, ""));
    rows.push({ id: (cells[0] ?? "").replace(/`/g, ""), test: num(cells[2]), bench: num(cells[3]), cells });
  }
  return rows;
}

/** How many cases suite `id` runs in `npm test` ("test") or `npm run bench` ("bench"), per the record. */
export function recordedCount(id: string, where: "test" | "bench"): number {
  const row = suiteRows().find((r) => r.id === id);
  if (!row) throw new Error(`${RELIABILITY_DOC}: no row for suite ${id}`);
  const n = row[where];
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${RELIABILITY_DOC}: suite ${id} has no ${where} count`);
  return n;
}
