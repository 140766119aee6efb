/**
 * Simulations with the scripted model (issue 15), each a spawned `tradewarden simulate`, process
 * start to exit: one year (2010) under 5 s, five years (2010–2014) under 20 s, the cost per
 * simulated day flat from one to five years (the simulation loop's time per day, from
 * simulation.json, within 1.3×), peak memory under 300 MB. Also the storage per day. Each case
 * runs as often as vitest's bench runner asks (a few times); the medians and whether each target
 * is met are printed at the end. The kill switch
 * is set out of reach (100%) so every day trades: a halted account would make later days cheap
 * and the per-day comparison meaningless.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, bench, describe } from "vitest";
import { userEnv } from "./user-env.js";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/tradewarden.js");
const PRELOAD = join(ROOT, "bench/rss-at-exit.cjs");

const env = userEnv();

interface Sample {
  label: string;
  days: number;
  wallMs: number;
  loopMsPerDay: number;
  cpuMs: number;
  maxRssMb: number;
  kbPerDay: number;
}
const samples: Sample[] = [];
const homes: string[] = [];

function diskBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? diskBytes(p) : statSync(p).blocks * 512;
  }
  return n;
}

async function simulate(label: string, from: string, to: string): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "tw-bench-sim-"));
  homes.push(home);
  const usageFile = join(home, "usage.json");
  const t0 = performance.now();
  const r = await execa(
    process.execPath,
    ["--require", PRELOAD, BIN, "--home", home, "simulate", "--from", from, "--to", to, "--name", "bench", "--set", "limits.max_drawdown_pct=100"],
    {
      cwd: ROOT,
      env: { ...env, TW_BENCH_USAGE_FILE: usageFile },
      extendEnv: false,
      reject: false,
      stdin: "pipe",
    },
  );
  const wallMs = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`simulate exited ${r.exitCode}: ${r.stderr}`);
  const usage = JSON.parse(readFileSync(usageFile, "utf8")) as { max_rss_kb: number; user_ms: number; system_ms: number };
  const sim = join(home, "simulations", "bench");
  const meta = JSON.parse(readFileSync(join(sim, "simulation.json"), "utf8")) as { days_done: number; elapsed_ms: number };
  samples.push({
    label,
    days: meta.days_done,
    wallMs,
    loopMsPerDay: meta.elapsed_ms / meta.days_done,
    cpuMs: usage.user_ms + usage.system_ms,
    maxRssMb: usage.max_rss_kb / 1024,
    kbPerDay: diskBytes(sim) / 1024 / meta.days_done,
  });
}

/** The median sample of a case, by wall time (vitest may run a case more than once). */
function medianOf(label: string): Sample | undefined {
  const xs = samples.filter((s) => s.label === label).sort((a, b) => a.wallMs - b.wallMs);
  return xs[Math.floor((xs.length - 1) / 2)];
}

afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  const one = medianOf("1y");
  const five = medianOf("5y");
  const lines = [one, five]
    .filter((s): s is Sample => s !== undefined)
    .map(
      (s) =>
        `${s.label}: ${s.days} days, wall ${(s.wallMs / 1000).toFixed(2)} s (CPU ${(s.cpuMs / 1000).toFixed(2)} s), loop ${s.loopMsPerDay.toFixed(1)} ms/day, ${(s.cpuMs / s.days).toFixed(1)} ms CPU/day, peak RSS ${s.maxRssMb.toFixed(0)} MB, ${s.kbPerDay.toFixed(1)} KB/day on disk`,
    );
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  if (one) lines.push(`one year < 5 s: ${verdict(one.wallMs < 5000)}`);
  if (five) lines.push(`five years < 20 s: ${verdict(five.wallMs < 20000)}`);
  if (one && five)
    lines.push(`cost per day 5y/1y = ${(five.loopMsPerDay / one.loopMsPerDay).toFixed(2)} (≤ 1.3): ${verdict(five.loopMsPerDay / one.loopMsPerDay <= 1.3)}`);
  lines.push(
    `peak memory < 300 MB: ${verdict(samples.every((s) => s.maxRssMb < 300))}; storage ≤ 40 KB/day: ${verdict(samples.every((s) => s.kbPerDay <= 40))}`,
  );
  const runs = (label: string) => samples.filter((s) => s.label === label).length;
  console.log(`\nsimulate (scripted model, spawned CLI; medians of ${runs("1y")} and ${runs("5y")} runs):\n  ${lines.join("\n  ")}\n`);
}, 300_000);

describe("tradewarden simulate", () => {
  bench("one simulated year (2010)", () => simulate("1y", "2010-01-04", "2010-12-31"), { iterations: 1, warmupIterations: 0, time: 0 });
  bench("five simulated years (2010–2014)", () => simulate("5y", "2010-01-04", "2014-12-31"), { iterations: 1, warmupIterations: 0, time: 0 });
});
