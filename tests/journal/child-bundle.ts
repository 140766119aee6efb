/**
 * A test child that runs the product's modules (a journal writer, a lock holder) as one file bundled
 * ahead by esbuild, started by plain node (~0.2 s), instead of through tsx, which transpiles every
 * module in each child (~1 s of CPU a child; the journal tests start eleven). The bundle is the
 * product's code as the built CLI has it (scripts/build.mjs bundles it the same way), its packages
 * left to node_modules. Written under .cache/test-children/, named by its content: built again in
 * every test process, so a changed source is never run stale.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = process.cwd();
const OUT = join(ROOT, ".cache", "test-children");
const built = new Map<string, Promise<string>>();

/** The path of the bundle of a fixture (`file`, from the repository root) or of a script's text (`source`, imports from the root). */
export function childBundle(entry: { file: string } | { source: string }): Promise<string> {
  const key = "file" in entry ? `file:${entry.file}` : `source:${entry.source}`;
  let path = built.get(key);
  if (!path) {
    path = bundle(entry);
    built.set(key, path);
  }
  return path;
}

async function bundle(entry: { file: string } | { source: string }): Promise<string> {
  const input =
    "file" in entry
      ? { entryPoints: [join(ROOT, entry.file)] }
      : { stdin: { contents: entry.source, resolveDir: ROOT, loader: "ts" as const, sourcefile: "child.ts" } };
  const r = await build({ ...input, bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", write: false, logLevel: "warning" });
  const text = r.outputFiles[0]?.text ?? "";
  const file = join(OUT, `${createHash("sha256").update(text).digest("hex").slice(0, 20)}.mjs`);
  if (!existsSync(file)) writeWhole(file, text);
  // The validators' groups are required from beside the bundle on first use, as the CLI's are (scripts/build.mjs).
  const groups = join(ROOT, "src", "config", "validators");
  for (const f of readdirSync(groups)) {
    const to = join(OUT, "validators", f);
    const groupText = readFileSync(join(groups, f), "utf8");
    if (!existsSync(to) || readFileSync(to, "utf8") !== groupText) writeWhole(to, groupText);
  }
  return file;
}

/** Whole or not at all: a file of the same name another worker is writing is the same text. */
function writeWhole(file: string, text: string): void {
  mkdirSync(join(file, ".."), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
