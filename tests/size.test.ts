/**
 * Small modules with one job: no file in src/ over 400 lines, no function over 80 (the whole span,
 * from the line the function starts on to its closing brace). Measured with the TypeScript parser,
 * so arrow functions, methods and components count as functions too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** `file:line (n lines)` for every function in `text` longer than `max` lines. */
function longFunctions(file: string, text: string, max: number): string[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > max) found.push(`${file}:${start + 1} (${end - start + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe("module and function size", () => {
  const files = sourceFiles("src").map((file) => ({ file, text: readFileSync(file, "utf8") }));

  it(`no file in src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = files.filter((f) => f.text.split("\n").length > MAX_FILE_LINES).map((f) => `${f.file} (${f.text.split("\n").length} lines)`);
    expect(long).toEqual([]);
  });

  it(`no function in src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(files.flatMap((f) => longFunctions(f.file, f.text, MAX_FUNCTION_LINES))).toEqual([]);
  });

  it("the measure bites: an 81-line function is reported, an 80-line one is not", () => {
    const body = (n: number) => `function f() {\n${"  x();\n".repeat(n - 2)}}\n`;
    expect(longFunctions("a.ts", body(81), MAX_FUNCTION_LINES)).toEqual(["a.ts:1 (81 lines)"]);
    expect(longFunctions("a.ts", body(80), MAX_FUNCTION_LINES)).toEqual([]);
    expect(longFunctions("b.tsx", `const C = () => {\n${"  y();\n".repeat(85)}};\n`, MAX_FUNCTION_LINES)).toHaveLength(1);
  });
});
