/**
 * Layers point down only (DESIGN §10). The rules are checked over the real import graph of src/,
 * parsed with the TypeScript compiler (static, type-only and dynamic imports alike), and proved
 * able to fail on a deliberately bad tree written to a temporary directory.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

/** Modules below the run layer: they never import run/, screens/, commands/ or the CLI. */
const LOWER = ["agent", "broker", "executor", "gate", "journal", "market", "tools", "util", "config", "research", "core"];
const UPPER = ["run", "screens", "commands"];
/**
 * Domain layers: what the tools layer's adapters (src/tools/handlers) call. They never import
 * src/tools; a tool is defined and adapted there, over them.
 */
const DOMAIN = ["agent", "broker", "executor", "gate", "journal", "market", "research", "config", "util", "core"];
/** Packages the core layer may use (exact arithmetic only). */
const CORE_PACKAGES = ["decimal.js"];
/** Gate modules that adapt the pure gate to the outside (scenario JSON, the check_orders tool). */
const GATE_ADAPTERS = ["gate/scenario.ts", "gate/index.ts"];

interface Module {
  /** Path relative to src/, with forward slashes. */
  file: string;
  /** Resolved src-relative paths of relative imports. */
  local: string[];
  /** Bare package specifiers (node: builtins included). */
  packages: string[];
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function resolveLocal(fromFile: string, spec: string): string {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const cand of [base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), base, `${base}.ts`, path.join(base, "index.ts")]) {
    if (fs.existsSync(cand) && fs.statSync(cand).isFile()) return cand;
  }
  return base;
}

function importGraph(srcDir: string): Module[] {
  return sourceFiles(srcDir).map((abs) => {
    const info = ts.preProcessFile(fs.readFileSync(abs, "utf8"), true, true);
    const local: string[] = [];
    const packages: string[] = [];
    for (const { fileName } of info.importedFiles) {
      if (fileName.startsWith(".")) local.push(path.relative(srcDir, resolveLocal(abs, fileName)).split(path.sep).join("/"));
      else packages.push(fileName);
    }
    return { file: path.relative(srcDir, abs).split(path.sep).join("/"), local, packages };
  });
}

const top = (file: string): string => (file.includes("/") ? file.slice(0, file.indexOf("/")) : file);

/** Every layering violation in the tree under srcDir, one sentence each. */
function layeringViolations(srcDir: string): string[] {
  const graph = importGraph(srcDir);
  const byFile = new Map(graph.map((m) => [m.file, m]));
  const out: string[] = [];
  for (const m of graph) {
    const layer = top(m.file);
    if (LOWER.includes(layer)) {
      for (const dep of m.local) {
        if (UPPER.includes(top(dep)) || dep === "cli.tsx") out.push(`${m.file} (a lower layer) imports ${dep}`);
      }
    }
    if (DOMAIN.includes(layer)) {
      for (const dep of m.local) if (top(dep) === "tools") out.push(`${m.file} (a domain layer) imports ${dep}, in the tools layer`);
    }
    if (layer === "core") {
      for (const dep of m.local) if (top(dep) !== "core") out.push(`${m.file} (core) imports ${dep}, outside core`);
      for (const pkg of m.packages) if (!CORE_PACKAGES.includes(pkg)) out.push(`${m.file} (core) imports the package ${pkg}`);
    }
  }
  // The pure gate: nothing it reaches, directly or transitively, is ajv or the config layer.
  for (const m of graph) {
    if (top(m.file) !== "gate" || GATE_ADAPTERS.includes(m.file)) continue;
    const seen = new Set<string>();
    const stack: Array<{ file: string; via: string[] }> = [{ file: m.file, via: [] }];
    while (stack.length > 0) {
      const { file, via } = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const mod = byFile.get(file);
      if (!mod) continue;
      const chain = [...via, file].join(" → ");
      for (const pkg of mod.packages) if (/^ajv(-|\/|$)/.test(pkg)) out.push(`the pure gate reaches ajv: ${chain} → ${pkg}`);
      for (const dep of mod.local) {
        if (top(dep) === "config") out.push(`the pure gate reaches the config layer: ${chain} → ${dep}`);
        else stack.push({ file: dep, via: [...via, file] });
      }
    }
  }
  return [...new Set(out)].sort();
}

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tw-layering-"));
  tmpDirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe("layering", () => {
  it("src/ respects the layers: lower modules never import run, screens or commands; domain layers never import tools; core is self-contained; the pure gate needs no ajv or config", () => {
    const src = path.resolve(__dirname, "../src");
    const graph = importGraph(src);
    // The parser sees the real tree (a guard against a vacuous pass).
    expect(graph.some((m) => m.file === "core/events.ts")).toBe(true);
    expect(graph.find((m) => m.file === "gate/scenario.ts")?.local).toContain("config/ajv.ts");
    // The tool adapters sit in the tools layer and reach down into the domain (not the other way).
    expect(graph.find((m) => m.file === "tools/handlers/journal.ts")?.local).toContain("journal/journal.ts");
    expect(layeringViolations(src)).toEqual([]);
  });

  it("reports each kind of violation in a deliberately bad tree", () => {
    const bad = tree({
      "run/pipeline.ts": "export const x = 1;\n",
      "screens/App.tsx": "export const y = 2;\n",
      "commands/run.ts": "export const z = 3;\n",
      "config/load.ts": "export const load = () => 1;\n",
      "core/domain.ts": 'import type { X } from "../journal/types.js";\nexport type Y = X;\n',
      "core/events.ts": 'import { z } from "zod";\nexport const e = z;\n',
      "journal/types.ts": "export type X = number;\n",
      "journal/journal.ts": 'import { x } from "../run/pipeline.js";\nexport const j = x;\n',
      "broker/sim.ts": 'export async function f() { return import("../commands/run.js"); }\n',
      "tools/render.ts": 'import type { y } from "../screens/App.js";\nexport type R = typeof y;\n',
      "gate/evaluate.ts": 'import { h } from "./helper.js";\nexport const ev = h;\n',
      "gate/helper.ts": 'import { load } from "../config/load.js";\nexport const h = load;\n',
      "gate/limits.ts": 'import Ajv from "ajv";\nexport const a = Ajv;\n',
      "gate/scenario.ts": 'import Ajv from "ajv";\nimport { load } from "../config/load.js";\nexport const s = [Ajv, load];\n',
      "run/ok.ts": 'import { j } from "../journal/journal.js";\nexport const ok = j;\n',
      "tools/types.ts": "export type ToolHandler = () => void;\n",
      "tools/handlers/journal.ts": 'import { j } from "../../journal/journal.js";\nexport const h = j;\n',
      "market/tools.ts": 'import type { ToolHandler } from "../tools/types.js";\nexport const t: ToolHandler = () => {};\n',
      "agent/submit.ts": 'export const load = () => import("../tools/handlers/journal.js");\n',
    });
    expect(layeringViolations(bad)).toEqual(
      [
        "broker/sim.ts (a lower layer) imports commands/run.ts",
        "core/domain.ts (core) imports journal/types.ts, outside core",
        "core/events.ts (core) imports the package zod",
        "journal/journal.ts (a lower layer) imports run/pipeline.ts",
        "market/tools.ts (a domain layer) imports tools/types.ts, in the tools layer",
        "agent/submit.ts (a domain layer) imports tools/handlers/journal.ts, in the tools layer",
        "the pure gate reaches ajv: gate/limits.ts → ajv",
        "the pure gate reaches the config layer: gate/evaluate.ts → gate/helper.ts → config/load.ts",
        "the pure gate reaches the config layer: gate/helper.ts → config/load.ts",
        "tools/render.ts (a lower layer) imports screens/App.tsx",
      ].sort(),
    );
  });
});
