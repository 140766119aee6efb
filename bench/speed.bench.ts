/**
 * Issue 26's speed figures beside their goals, measured side by side with the build before the
 * issue (an A/B in one run: the two builds alternate, so a busy machine slows both alike):
 *
 * - `run --yes` on a fresh home, process start to exit (goal ≤ 0.35 s), the same on a home with one
 *   earlier run (its journal and simulated broker opened and checked), and `--version`;
 * - `run` on a pseudo-terminal (the console, the README's main job): its first frame and the approval screen;
 * - one simulated day with the scripted model (goal ≤ 4 ms): the simulation loop's own time per day
 *   (simulation.json's elapsed_ms / days) of a 40-day simulation, and the same over a year (2010),
 *   where the first days' compilation is spread over 252 days, and that year's days by outcome (a day the
 *   model trades, holds, or is not called at all);
 * - the test suite's wall time (goal ≤ 150 s) and the CLI processes it starts (goal ≤ 60): recorded by
 *   the test run itself (tests/global-setup.ts writes .cache/test-spawns.json), quoted from the last
 *   whole-suite run.
 *
 * The previous build is made once from git (`git archive`, TW_BENCH_BASE overrides the commit) into
 * a temporary folder sharing this checkout's node_modules. The token and cost figures are
 * bench/agent.bench.ts's.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as pty from "node-pty";
import { afterAll, bench, describe } from "vitest";
import { userEnv } from "./user-env.js";

const ROOT = resolve(import.meta.dirname, "..");
const PRELOAD = join(ROOT, "bench/rss-at-exit.cjs");
/** The last commit before issue 26's start-up work. */
const BASE_REF = process.env.TW_BENCH_BASE ?? "cc8427e35524fc656e8476d3b7529289db66eb8d";
const ROUNDS = 5;

const env = userEnv();

/** The previous build's package folder, built on first use; undefined when git cannot make it. */
function baseBuild(): string | undefined {
  try {
    const sha = execFileSync("git", ["rev-parse", BASE_REF], { cwd: ROOT, encoding: "utf8" }).trim();
    const dir = join(tmpdir(), `tw-bench-base-${sha.slice(0, 12)}`);
    // Reused while whole: its node_modules link may name a checkout since removed (another worktree's).
    // (dist/cli.js before the CLI became one CommonJS bundle, dist/cli.cjs since.)
    const built = existsSync(join(dir, "dist", "cli.js")) || existsSync(join(dir, "dist", "cli.cjs"));
    if (built && existsSync(join(dir, "node_modules"))) return dir;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync("git", ["archive", sha, "bin", "scripts", "src", "data", "package.json", "tsconfig.json"], { cwd: ROOT, maxBuffer: 1 << 30 });
    execFileSync("tar", ["-x", "-C", dir], { input: tar });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, stdio: "ignore" });
    return dir;
  } catch (e) {
    console.log(`(no A/B: the build of ${BASE_REF} could not be made: ${(e as Error).message.split("\n")[0]})`);
    return undefined;
  }
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/**
 * One process of `args`, start to exit, on a fresh home — or, with `history`, on a home where one
 * `run --yes` went before (a journal and a simulated broker to open and check: every later run).
 */
function once(root: string | null, args: readonly string[], history = false, runEnv: Record<string, string> = env): Sample {
  const home = mkdtempSync(join(tmpdir(), "tw-bench-speed-"));
  const usage = join(home, "usage.json");
  const argv = root === null ? args : ["--require", PRELOAD, join(root, "bin", "tradewarden.js"), "--home", home, ...args];
  try {
    if (history && root !== null)
      execFileSync(process.execPath, [join(root, "bin", "tradewarden.js"), "--home", home, "run", "--yes"], {
        cwd: root,
        env,
        stdio: ["pipe", "ignore", "pipe"],
      });
    const t0 = performance.now();
    execFileSync(process.execPath, argv, { cwd: root ?? ROOT, env: { ...runEnv, TW_BENCH_USAGE_FILE: usage }, stdio: ["pipe", "ignore", "pipe"] });
    const wallMs = performance.now() - t0;
    const u = existsSync(usage) ? (JSON.parse(readFileSync(usage, "utf8")) as { user_ms: number; system_ms: number }) : { user_ms: Number.NaN, system_ms: 0 };
    return { wallMs, cpuMs: u.user_ms + u.system_ms };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Per-day loop time of a simulation from 2010-01-04 to `to` (ms), from its simulation.json. */
function simulatedDay(root: string, to: string): Sample {
  const home = mkdtempSync(join(tmpdir(), "tw-bench-day-"));
  try {
    const t0 = performance.now();
    const args = ["simulate", "--from", "2010-01-04", "--to", to, "--name", "bench", "--set", "limits.max_drawdown_pct=100"];
    execFileSync(process.execPath, [join(root, "bin", "tradewarden.js"), "--home", home, ...args], { cwd: root, env, stdio: ["pipe", "ignore", "pipe"] });
    const wallMs = performance.now() - t0;
    const meta = JSON.parse(readFileSync(join(home, "simulations", "bench", "simulation.json"), "utf8")) as { days_done: number; elapsed_ms: number };
    return { wallMs: meta.elapsed_ms / meta.days_done, cpuMs: wallMs / meta.days_done };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** A year's simulation (2010): its loop time per day, and the median time of a day by its outcome. */
interface YearSample {
  perDayMs: number;
  byOutcome: Map<string, number>;
}

/**
 * A simulation of 2010 with `--json`: the loop time per day (simulation.json), and each day's own time,
 * from the arrival of its JSON line to the next one's (the first day, which opens and compiles, is
 * left out), as a median per outcome: a day the model trades, holds, or is not called at all.
 */
function simulatedYear(root: string): Promise<YearSample> {
  const home = mkdtempSync(join(tmpdir(), "tw-bench-year-"));
  const args = ["simulate", "--from", "2010-01-04", "--to", "2010-12-31", "--name", "bench", "--json", "--set", "limits.max_drawdown_pct=100"];
  return new Promise<YearSample>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bin", "tradewarden.js"), "--home", home, ...args], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const times = new Map<string, number[]>();
    let last: number | undefined;
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const at = performance.now();
      const lines = (pending + chunk.toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      // A day's line starts with its type (src/simulation/progress.ts dayJson); the closing summary is another line.
      for (const line of lines.filter((l) => l.startsWith('{"type":"day"'))) {
        const { outcome } = JSON.parse(line) as { outcome: string };
        if (last !== undefined) times.set(outcome, [...(times.get(outcome) ?? []), at - last]);
        last = at;
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        if (code !== 0) throw new Error(`the year's simulation exited with ${code}`);
        const meta = JSON.parse(readFileSync(join(home, "simulations", "bench", "simulation.json"), "utf8")) as { days_done: number; elapsed_ms: number };
        resolve({ perDayMs: meta.elapsed_ms / meta.days_done, byOutcome: new Map([...times].map(([k, v]) => [k, median(v)])) });
      } catch (e) {
        reject(e);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });
  });
}

/** What a person sees of a supervised run's start: the first frame, and the approval screen. */
interface ConsoleStart {
  firstFrameMs: number;
  approvalMs: number;
}

const APPROVAL = "Approve orders?";
// Escape sequences stripped, so the screen's text can be searched (as tests/pty/helpers.ts does).
const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][0-9A-Za-z]|\u001b[=>]/g, "");

/** `run` on a fresh home in a 120×40 pseudo-terminal (the README's main job), killed at the approval screen. */
function consoleStart(root: string): Promise<ConsoleStart> {
  const home = mkdtempSync(join(tmpdir(), "tw-bench-console-"));
  const { CI: _, ...terminal } = env;
  return new Promise<ConsoleStart>((resolve, reject) => {
    const t0 = performance.now();
    const term = pty.spawn(process.execPath, [join(root, "bin", "tradewarden.js"), "--home", home, "run"], {
      cols: 120,
      rows: 40,
      cwd: root,
      env: { ...terminal, TERM: "xterm-256color" },
    });
    let screen = "";
    let firstFrameMs = Number.NaN;
    const timer = setTimeout(() => finish(new Error(`no approval screen in 30 s: ${plain(screen).slice(-300)}`)), 30_000);
    const finish = (e?: Error, approvalMs = Number.NaN) => {
      clearTimeout(timer);
      term.kill("SIGKILL");
      rmSync(home, { recursive: true, force: true });
      if (e) reject(e);
      else resolve({ firstFrameMs, approvalMs });
    };
    term.onData((d) => {
      if (Number.isNaN(firstFrameMs)) firstFrameMs = performance.now() - t0;
      screen += d;
      if (plain(screen).includes(APPROVAL)) finish(undefined, performance.now() - t0);
    });
  });
}

/** Alternates the two builds' consoles `rounds` times; the medians of each figure. */
async function abConsole(base: string | undefined, rounds: number): Promise<{ now: ConsoleStart; before: ConsoleStart | undefined }> {
  const now: ConsoleStart[] = [];
  const before: ConsoleStart[] = [];
  for (let i = 0; i < rounds; i++) {
    if (base) before.push(await consoleStart(base));
    now.push(await consoleStart(ROOT));
  }
  const med = (xs: ConsoleStart[]): ConsoleStart => ({
    firstFrameMs: median(xs.map((x) => x.firstFrameMs)),
    approvalMs: median(xs.map((x) => x.approvalMs)),
  });
  return { now: med(now), before: base ? med(before) : undefined };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Row {
  figure: string;
  now: number;
  before: number | undefined;
  goal: number | undefined;
  unit: "s" | "ms" | "";
}
const rows: Row[] = [];

/** The outcomes of a simulated day whose median time the year's row is broken into. */
const DAY_KINDS = [
  ["executed", "the model trades (executed)"],
  ["hold", "the model holds"],
  ["quota_exhausted", "the model is not called (order quota used up)"],
] as const;

/** Alternates the two builds `rounds` times; the medians of wall time (and CPU time) of each. */
function ab(base: string | undefined, measure: (root: string) => Sample, rounds: number): { now: Sample; before: Sample | undefined } {
  const now: Sample[] = [];
  const before: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    if (base) before.push(measure(base));
    now.push(measure(ROOT));
  }
  const med = (xs: Sample[]): Sample => ({ wallMs: median(xs.map((x) => x.wallMs)), cpuMs: median(xs.map((x) => x.cpuMs)) });
  return { now: med(now), before: base ? med(before) : undefined };
}

/** The last whole test run's CLI processes and wall time (tests/global-setup.ts writes them). */
function suiteFigures(): { spawns?: number; wallMs?: number } {
  const file = join(ROOT, ".cache", "test-spawns.json");
  if (!existsSync(file)) return {};
  const s = JSON.parse(readFileSync(file, "utf8")) as { spawns?: unknown; wall_s?: unknown };
  return {
    ...(typeof s.spawns === "number" ? { spawns: s.spawns } : {}),
    ...(typeof s.wall_s === "number" ? { wallMs: s.wall_s * 1000 } : {}),
  };
}

const show = (r: Row, v: number | undefined) =>
  v === undefined || Number.isNaN(v)
    ? "—"
    : r.unit === "s"
      ? `${(v / 1000).toFixed(v >= 10_000 ? 0 : 2)} s`
      : r.unit === "ms"
        ? `${v.toFixed(1)} ms`
        : String(v);

afterAll(() => {
  const lines = [
    "| figure | now | before | now/before | goal | met |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.figure} | ${show(r, r.now)} | ${show(r, r.before)} | ${r.before ? `${(r.now / r.before).toFixed(2)}×` : "—"} | ${r.goal === undefined ? "—" : `≤ ${show(r, r.goal)}`} | ${r.goal === undefined || Number.isNaN(r.now) ? "—" : r.now <= r.goal ? "yes" : "no"} |`,
    ),
  ];
  console.log(`\nissue 26 speed (medians; before = ${BASE_REF.slice(0, 12)}):\n${lines.join("\n")}\n`);
});

describe("issue 26: start-up, a simulated day, the suite's processes (A/B with the build before)", () => {
  bench(
    "all figures",
    async () => {
      try {
        await measureAll();
      } catch (e) {
        console.log(`speed bench failed: ${(e as Error).stack ?? String(e)}`);
        throw e;
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0 },
  );
});

async function measureAll(): Promise<void> {
  // vitest's bench runner may call a case more than once: the figures are measured once.
  if (rows.length > 0) return;
  const base = baseBuild();
  const node = ab(undefined, () => once(null, ["-e", "0"]), ROUNDS).now;
  rows.push({ figure: "`node -e 0` (the floor)", now: node.wallMs, before: undefined, goal: undefined, unit: "s" });
  const run = ab(base, (root) => once(root, ["run", "--yes"]), ROUNDS);
  rows.push({ figure: "`run --yes`, fresh home, start → exit", now: run.now.wallMs, before: run.before?.wallMs, goal: 350, unit: "s" });
  rows.push({ figure: "`run --yes`, CPU time (user + system)", now: run.now.cpuMs, before: run.before?.cpuMs, goal: 350, unit: "s" });
  const again = ab(base, (root) => once(root, ["run", "--yes"], true), ROUNDS);
  rows.push({
    figure: "`run --yes`, home with one earlier run, start → exit",
    now: again.now.wallMs,
    before: again.before?.wallMs,
    goal: undefined,
    unit: "s",
  });
  rows.push({ figure: "`run --yes`, home with one earlier run, CPU time", now: again.now.cpuMs, before: again.before?.cpuMs, goal: undefined, unit: "s" });
  if (env.NODE_EXTRA_CA_CERTS !== undefined) {
    // Node reads and parses that CA file at every process start, before any of our code (~0.04 s on
    // the development machine, whose shell sets it): the same two figures without it show what is ours.
    const { NODE_EXTRA_CA_CERTS: _, ...bare } = env;
    rows.push({
      figure: "`node -e 0`, without NODE_EXTRA_CA_CERTS (this machine sets it)",
      now: ab(undefined, () => once(null, ["-e", "0"], false, bare), ROUNDS).now.wallMs,
      before: undefined,
      goal: undefined,
      unit: "s",
    });
    const bareRun = ab(base, (root) => once(root, ["run", "--yes"], false, bare), ROUNDS);
    rows.push({
      figure: "`run --yes`, fresh home, without NODE_EXTRA_CA_CERTS",
      now: bareRun.now.wallMs,
      before: bareRun.before?.wallMs,
      goal: undefined,
      unit: "s",
    });
  }
  const version = ab(base, (root) => once(root, ["--version"]), ROUNDS);
  rows.push({ figure: "`--version`, start → exit", now: version.now.wallMs, before: version.before?.wallMs, goal: undefined, unit: "s" });
  const shown = await abConsole(base, ROUNDS);
  rows.push({
    figure: "`run` on a terminal (the console): first frame",
    now: shown.now.firstFrameMs,
    before: shown.before?.firstFrameMs,
    goal: undefined,
    unit: "s",
  });
  rows.push({ figure: "`run` on a terminal: the approval screen", now: shown.now.approvalMs, before: shown.before?.approvalMs, goal: undefined, unit: "s" });
  // Three rounds: one 40-day simulation is a single noisy sample (its first days are mostly compilation).
  const day = ab(base, (root) => simulatedDay(root, "2010-03-01"), 3);
  rows.push({ figure: "one simulated day (scripted model, loop time)", now: day.now.wallMs, before: day.before?.wallMs, goal: 4, unit: "ms" });
  // The same over a year: what a day costs once the code is compiled (a 40-day loop's first day, which opens the
  // simulation's journal and broker and compiles the day's code, is about a sixth of that loop).
  const yearBefore = base ? await simulatedYear(base) : undefined;
  const year = await simulatedYear(ROOT);
  rows.push({ figure: "one simulated day over a year (2010; loop time)", now: year.perDayMs, before: yearBefore?.perDayMs, goal: undefined, unit: "ms" });
  // A day's cost is mostly what the day does: the model trades, holds, or is not called at all (the month's order quota is used up).
  for (const [outcome, what] of DAY_KINDS) {
    const now = year.byOutcome.get(outcome);
    if (now !== undefined)
      rows.push({ figure: `… a day ${what} (2010, median)`, now, before: yearBefore?.byOutcome.get(outcome), goal: undefined, unit: "ms" });
  }
  // "before" here is the issue's figures on main (272 processes, 234–300 s); "now" the last whole vitest run on this checkout.
  const suite = suiteFigures();
  rows.push({
    figure: "the test suite's vitest run, wall time (last whole run; before: the issue's)",
    now: suite.wallMs ?? Number.NaN,
    before: 267_000,
    goal: 150_000,
    unit: "s",
  });
  rows.push({
    figure: "CLI processes `npm test` starts (last whole run; before: the issue's count)",
    now: suite.spawns ?? Number.NaN,
    before: 272,
    goal: 60,
    unit: "",
  });
}
