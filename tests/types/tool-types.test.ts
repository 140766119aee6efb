/**
 * Type-level guarantees of `defineTool`, checked by the TypeScript compiler itself on fixture
 * files (tests/types/fixtures, outside the main tsconfig): a complete handler map compiles; a map
 * without a tool's handler, or a handler answering a field its output schema lacks, does not, with
 * the diagnostic that names what is wrong.
 */
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const FIXTURES = path.join(__dirname, "fixtures");

function diagnostics(...files: string[]): Map<string, { code: number; text: string }[]> {
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const rootNames = files.map((f) => path.join(FIXTURES, f));
  const program = ts.createProgram({ rootNames, options: { ...parsed.options, noEmit: true } });
  const out = new Map<string, { code: number; text: string }[]>(files.map((f) => [f, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file ? path.relative(FIXTURES, d.file.fileName) : "(global)";
    const list = out.get(file) ?? [];
    list.push({ code: d.code, text: ts.flattenDiagnosticMessageText(d.messageText, "\n") });
    out.set(file, list);
  }
  return out;
}

describe("defineTool's types", () => {
  const found = diagnostics("complete.ts", "missing-handler.ts", "undeclared-field.ts");

  it("a complete, well-typed handler map compiles", () => {
    expect(found.get("complete.ts")).toEqual([]);
    // Only the fixtures fail: nothing they import (src/) has an error.
    expect([...found.keys()].sort()).toEqual(["complete.ts", "missing-handler.ts", "undeclared-field.ts"]);
  });

  it("a tool without a handler does not compile", () => {
    const d = found.get("missing-handler.ts") ?? [];
    expect(d).toHaveLength(1);
    expect(d[0]?.code).toBe(2741);
    expect(d[0]?.text).toMatch(/Property 'submit_orders' is missing/);
  });

  it("a handler answering a field its output schema lacks does not compile", () => {
    const d = found.get("undeclared-field.ts") ?? [];
    expect(d).toHaveLength(1);
    expect(d[0]?.code).toBe(2353);
    expect(d[0]?.text).toMatch(/'secret_field' does not exist/);
  });
}, 120_000);
