/**
 * One full daily run on the embedded defaults, process start to exit (issue 7: under 1.5 s median
 * on this machine): `node bin/tradewarden.js run --yes --home <fresh temp home>` per iteration —
 * a first run, so it opens the journal and the simulated broker, runs the scripted model's five
 * turns, places its orders and writes the four artifacts. vitest bench reports mean and
 * percentiles; the median of the wall-clock samples is printed at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, bench, describe } from "vitest";
import { userEnv } from "./user-env.js";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/tradewarden.js");
const TARGET_MS = 1500;
const ITERATIONS = 15;

const env = userEnv();

const samples: number[] = [];
const homes: string[] = [];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  // The measured iterations are the last ones (warm-up runs come first).
  const measured = samples.slice(-ITERATIONS);
  if (measured.length === 0) return;
  const m = median(measured);
  const sorted = [...measured].sort((a, b) => a - b);
  console.log(
    `\ndaily run (process start to exit, fresh home, embedded defaults): median ${m.toFixed(0)} ms over ${measured.length} runs ` +
      `(min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}); target < ${TARGET_MS} ms: ${m < TARGET_MS ? "met" : "NOT met"}\n`,
  );
});

describe("tradewarden run", () => {
  bench(
    "run --yes on a fresh home (spawned CLI)",
    async () => {
      const home = mkdtempSync(join(tmpdir(), "tw-bench-"));
      homes.push(home);
      const t0 = performance.now();
      const r = await execa(process.execPath, [BIN, "--home", home, "run", "--yes"], { cwd: ROOT, env, extendEnv: false, reject: false, stdin: "pipe" });
      const ms = performance.now() - t0;
      if (r.exitCode !== 0) throw new Error(`run exited ${r.exitCode}: ${r.stderr}`);
      samples.push(ms);
    },
    { iterations: ITERATIONS, warmupIterations: 2, time: 0 },
  );
});
