import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** End-to-end tests spawn the real CLI (dist/cli.cjs). Rebuild it when any source is newer. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Where the last test run's count of CLI processes is kept (read by bench/speed.bench.ts). */
const SPAWN_SUMMARY = ".cache/test-spawns.json";

export default function setup(): () => void {
  const started = Date.now();
  // Every CLI child a test spawns checks its tool results against their output schemas (as the
  // test process does, tests/setup/tool-results.ts) and fails loudly on a violation (src/commands/process-run.ts).
  process.env.TRADEWARDEN_CHECK_TOOL_RESULTS = "1";
  const dist = "dist/cli.cjs";
  if (!existsSync(dist) || statSync(dist).mtimeMs < newestMtime("src")) {
    execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  }
  // Every CLI process a test starts is counted (tests/setup/count-cli.cjs, preloaded through NODE_OPTIONS).
  const spawnFile = join(tmpdir(), `tw-test-spawns-${process.pid}.txt`);
  // World-writable: a test runs the CLI as another user too (tests/e2e/bad-input-homes.test.ts).
  writeFileSync(spawnFile, "", { mode: 0o666 });
  chmodSync(spawnFile, 0o666);
  process.env.TW_TEST_SPAWN_FILE = spawnFile;
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --require ${resolve("tests/setup/count-cli.cjs")}`.trim();
  return () => {
    const count = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);
    const spawns = count(spawnFile);
    const inProcess = count(`${spawnFile}.in-process`);
    rmSync(spawnFile, { force: true });
    rmSync(`${spawnFile}.in-process`, { force: true });
    // `vitest run` with a file filter runs part of the suite: its count is not the suite's.
    const filtered = process.argv.slice(2).some((a) => !a.startsWith("-") && !["run", "vitest"].includes(a) && !a.endsWith("vitest.mjs"));
    if (!filtered) {
      mkdirSync(".cache", { recursive: true });
      // The whole run's wall time too (the suite figure), from the global setup to its teardown.
      const wallS = Math.round((Date.now() - started) / 1000);
      writeFileSync(SPAWN_SUMMARY, `${JSON.stringify({ spawns, in_process: inProcess, wall_s: wallS, at: new Date().toISOString() })}\n`);
    }
    process.stdout.write(
      `\nCLI processes started by this test run: ${spawns}; commands run in-process (src/cli.tsx main): ${inProcess}${filtered ? " (a filtered run)" : ""}\n`,
    );
  };
}
