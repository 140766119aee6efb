import { execFileSync } from "node:child_process";
import { existsSync, statSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** End-to-end tests spawn the real CLI (dist/cli.js). Rebuild it when any source is newer. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  // Every CLI child a test spawns checks its tool results against their output schemas (as the
  // test process does, tests/setup/tool-results.ts) and fails loudly on a violation (src/cli.tsx).
  process.env.TRADEWARDEN_CHECK_TOOL_RESULTS = "1";
  const dist = "dist/cli.js";
  if (!existsSync(dist) || statSync(dist).mtimeMs < newestMtime("src")) {
    execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  }
}
