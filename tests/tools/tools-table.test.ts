/**
 * `tradewarden tools` on a terminal: the table fits the terminal's width (the purpose is cut on a
 * word and marked …; the name and kind are never cut), and without a terminal it is the full table.
 */
import { describe, expect, it } from "vitest";
import { cmdTools } from "../../src/commands/tools.js";
import { CATALOGUE } from "../../src/tools/catalogue.js";

function table(columns?: number): string[] {
  let out = "";
  const code = cmdTools({ ...(columns === undefined ? {} : { columns }) }, { stdout: (t) => (out += t), stderr: () => {}, env: {} });
  expect(code).toBe(0);
  return out.trimEnd().split("\n");
}

describe("the tools table", () => {
  it("fits 80 and 60 columns: every row whole in name and kind, the purpose cut on a word", () => {
    for (const columns of [80, 60]) {
      const lines = table(columns);
      const rows = lines.slice(1, CATALOGUE.length + 1);
      for (const t of CATALOGUE) {
        const row = rows.find((r) => r.startsWith(`${t.name} `));
        expect(row, `${t.name} at ${columns}`).toBeDefined();
        expect(row).toMatch(new RegExp(`^${t.name} +${t.kind} +\\S`));
        expect(row?.length).toBeLessThanOrEqual(columns - 1);
      }
      if (columns === 80) for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(79);
      expect(rows.some((r) => r.endsWith("…"))).toBe(true);
      expect(rows.every((r) => !/\S…\S/.test(r))).toBe(true);
    }
  });

  it("without a terminal width prints the full purposes", () => {
    const rows = table().slice(1, CATALOGUE.length + 1);
    expect(rows.some((r) => r.length > 100)).toBe(true);
    expect(table(200)).toEqual(table());
  });
});
