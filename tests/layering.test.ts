/**
 * Layers point down only (docs/architecture.md; the order is `LAYERS` in ./layers.ts). The rules are
 * checked over the real import graph of src/, parsed with the TypeScript compiler (static, type-only
 * and dynamic imports alike), and proved able to fail on a deliberately bad tree written to a
 * temporary directory.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { DOMAIN_LAYERS, KNOWN_UPWARD_IMPORTS, LAYERS } from "./layers.js";

/** Packages the core layer may use (exact arithmetic; TypeBox for the shapes it defines). */
const CORE_PACKAGES = ["decimal.js", "@sinclair/typebox"];
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

/** The rank of a top-level folder (0 = core, the bottom), or undefined for a folder the list lacks. */
function rank(layer: string): number | undefined {
  const row = LAYERS.findIndex((r) => r.includes(layer));
  return row < 0 ? undefined : LAYERS.length - 1 - row;
}

/** The sentence for an import that points up (or into a folder no layer names), else undefined. */
function upward(file: string, dep: string): string | undefined {
  const [from, to] = [top(file), top(dep)];
  if (from === to) return undefined;
  const [rf, rt] = [rank(from), rank(to)];
  if (rf === undefined) return `${file} is in ${from}/, which no layer names (add it to LAYERS in tests/layers.ts and to docs/architecture.md)`;
  if (rt === undefined) return `${file} imports ${dep}, in ${to}/, which no layer names`;
  if (rt <= rf) return undefined;
  if (DOMAIN_LAYERS.includes(from) && to === "tools") return `${file} (the domain layer ${from}) imports the tools layer: ${dep}`;
  return `${file} (${from}) imports ${dep} (${to}, a higher layer)`;
}

/** Every upward import in the tree under srcDir, as `importer -> imported` (the allowlist's form). */
function upwardImports(srcDir: string): string[] {
  const out: string[] = [];
  for (const m of importGraph(srcDir)) for (const dep of m.local) if (upward(m.file, dep)) out.push(`${m.file} -> ${dep}`);
  return [...new Set(out)].sort();
}

/** How the upward imports of srcDir differ from an allowlist: new ones, and listed ones now gone. */
function allowlistDrift(srcDir: string, known: readonly string[]): { added: string[]; gone: string[] } {
  const now = upwardImports(srcDir);
  return { added: now.filter((x) => !known.includes(x)), gone: known.filter((x) => !now.includes(x)).sort() };
}

/**
 * Every layering violation in the tree under srcDir, one sentence each. `known` lists the upward
 * imports tolerated for now (KNOWN_UPWARD_IMPORTS for the real tree).
 */
function layeringViolations(srcDir: string, known: ReadonlySet<string> = new Set()): string[] {
  const graph = importGraph(srcDir);
  const byFile = new Map(graph.map((m) => [m.file, m]));
  const out: string[] = [];
  for (const m of graph) {
    const layer = top(m.file);
    for (const dep of m.local) {
      const above = upward(m.file, dep);
      if (above && !known.has(`${m.file} -> ${dep}`)) out.push(above);
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
  const src = path.resolve(__dirname, "../src");

  it("src/ respects the layers: every import points down or sideways within its row; core is self-contained; the pure gate needs no ajv or config", () => {
    const graph = importGraph(src);
    // The parser sees the real tree (a guard against a vacuous pass).
    expect(graph.some((m) => m.file === "core/events.ts")).toBe(true);
    expect(graph.find((m) => m.file === "gate/scenario.ts")?.local).toContain("config/ajv.ts");
    expect(graph.find((m) => m.file === "simulation/runner.ts")?.local).toContain("run/approval.ts");
    // The tool adapters sit in the tools layer and reach down into the domain (not the other way).
    expect(graph.find((m) => m.file === "tools/handlers/journal.ts")?.local).toContain("journal/journal.ts");
    expect(layeringViolations(src, new Set(KNOWN_UPWARD_IMPORTS))).toEqual([]);
  });

  it("the known upward imports (domain → tools among them) only shrink: the list equals what src/ has", () => {
    // A new upward import fails the test above; one that has gone must leave KNOWN_UPWARD_IMPORTS too.
    expect(allowlistDrift(src, KNOWN_UPWARD_IMPORTS)).toEqual({ added: [], gone: [] });
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
      "broker/simulated.ts": 'export async function f() { return import("../commands/run.js"); }\n',
      "tools/render.ts": 'import type { y } from "../screens/App.js";\nexport type R = typeof y;\n',
      "tools/envelope.ts": "export const ok = (x: unknown) => x;\n",
      "market/tools.ts": 'import { ok } from "../tools/envelope.js";\nexport const t = ok;\n',
      "executor/run.ts": 'import { ok } from "../tools/envelope.js";\nexport const e = ok;\n',
      "simulation/runner.ts": 'import { x } from "../run/pipeline.js";\nimport { j } from "../journal/journal.js";\nexport const r = [x, j];\n',
      "run/report.ts": 'import { r } from "../simulation/runner.js";\nexport const rep = r;\n',
      "simulation/screen.ts": 'import type { y } from "../screens/App.js";\nexport type S = typeof y;\n',
      "commands/simulate.ts": 'import { r } from "../simulation/runner.js";\nexport const c = r;\n',
      "stray/x.ts": 'import { x } from "../run/pipeline.js";\nexport const s = x;\n',
      "gate/evaluate.ts": 'import { h } from "./helper.js";\nexport const ev = h;\n',
      "gate/helper.ts": 'import { load } from "../config/load.js";\nexport const h = load;\n',
      "gate/limits.ts": 'import Ajv from "ajv";\nexport const a = Ajv;\n',
      "gate/scenario.ts": 'import Ajv from "ajv";\nimport { load } from "../config/load.js";\nexport const s = [Ajv, load];\n',
      "run/ok.ts": 'import { j } from "../journal/journal.js";\nexport const ok = j;\n',
    });
    expect(layeringViolations(bad, new Set(["market/tools.ts -> tools/envelope.ts"]))).toEqual(
      [
        "broker/simulated.ts (broker) imports commands/run.ts (commands, a higher layer)",
        "core/domain.ts (core) imports journal/types.ts (journal, a higher layer)",
        "core/domain.ts (core) imports journal/types.ts, outside core",
        "core/events.ts (core) imports the package zod",
        "executor/run.ts (the domain layer executor) imports the tools layer: tools/envelope.ts",
        "journal/journal.ts (journal) imports run/pipeline.ts (run, a higher layer)",
        "run/report.ts (run) imports simulation/runner.ts (simulation, a higher layer)",
        "simulation/screen.ts (simulation) imports screens/App.tsx (screens, a higher layer)",
        "stray/x.ts is in stray/, which no layer names (add it to LAYERS in tests/layers.ts and to docs/architecture.md)",
        "the pure gate reaches ajv: gate/limits.ts → ajv",
        "the pure gate reaches the config layer: gate/evaluate.ts → gate/helper.ts → config/load.ts",
        "the pure gate reaches the config layer: gate/helper.ts → config/load.ts",
        "tools/render.ts (tools) imports screens/App.tsx (screens, a higher layer)",
      ].sort(),
    );
    // The allowlist must equal the tree's upward imports: a new one and a stale entry both show.
    const drift = allowlistDrift(bad, ["market/tools.ts -> tools/envelope.ts", "journal/tool-handlers.ts -> tools/types.ts"]);
    expect(drift.added).toContain("executor/run.ts -> tools/envelope.ts");
    expect(drift.added).not.toContain("market/tools.ts -> tools/envelope.ts");
    expect(drift.gone).toEqual(["journal/tool-handlers.ts -> tools/types.ts"]);
  });
});
