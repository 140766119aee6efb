/**
 * docs/architecture.md stays in step with the tree: every folder under src/ is named on the page,
 * every src/ path it names exists, and the layer order it states is the one tests/layering.test.ts
 * enforces (both read LAYERS from tests/layers.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LAYERS } from "../layers.js";

const root = path.resolve(__dirname, "../..");
const page = fs.readFileSync(path.join(root, "docs/architecture.md"), "utf8");
const MARKER = "<!-- layer-order:";

/** Every folder under src/, nested ones included, as `src/a/b/`. */
function folders(dir: string, rel = "src"): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    out.push(`${rel}/${e.name}/`, ...folders(path.join(dir, e.name), `${rel}/${e.name}`));
  }
  return out;
}

/** Every `src/...` path the page names in backticks. */
function named(text: string): string[] {
  return [...new Set([...text.matchAll(/`(src\/[\w./-]*)`/g)].map((m) => m[1]!))];
}

/** The rows of the layer-order block that follows the marker, top to bottom, each row's folders sorted. */
function statedLayers(text: string): string[][] {
  const at = text.indexOf(MARKER);
  if (at < 0) return [];
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) return [];
  return block[1]!
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => l.split(/\s+/).sort());
}

/** The findings for a page against a tree: folders missing from the page, paths that do not exist, a layer order that differs. */
function findings(text: string, srcDir: string): string[] {
  const out: string[] = [];
  const mentioned = new Set(named(text));
  for (const f of folders(srcDir)) if (!mentioned.has(f)) out.push(`the page does not name ${f}`);
  const base = path.dirname(srcDir);
  for (const p of mentioned) {
    const abs = path.join(base, p);
    const ok = p.endsWith("/") ? fs.existsSync(abs) && fs.statSync(abs).isDirectory() : fs.existsSync(abs);
    if (!ok) out.push(`the page names ${p}, which does not exist`);
  }
  const expected = LAYERS.map((row) => [...row].sort());
  if (JSON.stringify(statedLayers(text)) !== JSON.stringify(expected)) out.push("the page's layer order differs from LAYERS");
  return out;
}

describe("docs/architecture.md", () => {
  const src = path.join(root, "src");

  it("names every folder of src/, names no path that does not exist, and states the layer order the layering test enforces", () => {
    // Guards against a vacuous pass: the tree and the page are the real ones.
    expect(folders(src)).toEqual(expect.arrayContaining(["src/run/", "src/run/phases/", "src/tools/defs/"]));
    expect(statedLayers(page).length).toBe(LAYERS.length);
    expect(findings(page, src)).toEqual([]);
  });

  it("reports a folder left off the page, a path that does not exist, and a layer order out of step", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tw-arch-"));
    try {
      const fake = path.join(dir, "src");
      fs.cpSync(src, fake, { recursive: true });
      fs.mkdirSync(path.join(fake, "tools/widgets"), { recursive: true });
      const swapped = page.replace("\nrun\ntools\n", "\ntools\nrun\n").replace("`src/agent/scripted/`", "`src/agent/scripts/`");
      expect(findings(swapped, fake).sort()).toEqual(
        [
          "the page does not name src/agent/scripted/",
          "the page does not name src/tools/widgets/",
          "the page names src/agent/scripts/, which does not exist",
          "the page's layer order differs from LAYERS",
        ].sort(),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
