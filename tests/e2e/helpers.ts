/**
 * End-to-end helpers: spawn the real CLI (`node bin/tradewarden.js`, i.e. the built dist/ that
 * tests/global-setup.ts rebuilds) with execa, each test in its own temporary home. The child's
 * stdin is a pipe (not a terminal), and the environment is scrubbed of anything that would change
 * what runs: an API key (which would pick Claude over the scripted model), a home from the
 * environment, colour switches.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Options, type Result, type ResultPromise, execa } from "execa";
import { LOOPBACK_BROKER_FOR_TESTS } from "../../src/broker/loopback.js";
import { RUN_EVENT_TYPES, type RunEvent } from "../../src/core/events.js";
import { readArtifact } from "../../src/run/artifacts.js";
import { faultPoint, setTestFaults } from "../../src/util/test-fault.js";
import type { ByteChannel } from "../../src/commands/io.js";
import { capturingProcessWrites } from "./process-writes.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BIN = join(ROOT, "bin/tradewarden.js");

const SCRUBBED = [
  "ANTHROPIC_API_KEY",
  "TRADEWARDEN_HOME",
  "NO_COLOR",
  "FORCE_COLOR",
  "TRADEWARDEN_DEBUG",
  "TRADEWARDEN_ALLOW_LOOPBACK_BROKER",
  "TRADEWARDEN_TEST_FAULT",
  "TRADEWARDEN_TEST_NOW",
];

/** The environment every child gets: this process's, minus what would change what runs. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SCRUBBED.includes(k)) env[k] = v;
  return { ...env, ...extra };
}

const homes: string[] = [];

/** A fresh temporary home, optionally with a tradewarden.toml. Removed by `cleanupHomes()`. */
export function freshHome(toml?: string): string {
  const home = mkdtempSync(join(tmpdir(), "tw-e2e-"));
  homes.push(home);
  if (toml !== undefined) writeFileSync(join(home, "tradewarden.toml"), toml);
  return home;
}

/** A fresh temporary home holding a copy of `template`'s files (a setup made once per file). Removed by `cleanupHomes()`. */
export function copyOfHome(template: string): string {
  const home = freshHome();
  cpSync(template, home, { recursive: true });
  return home;
}

export function cleanupHomes(): void {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
}

export interface TwOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Preload the test-only opt-in for a loopback fake broker (tests/fixtures/allow-loopback-broker.mjs). */
  allowLoopbackBroker?: boolean;
  /** Arm the test-only fault hooks (src/util/test-fault.ts) with this spec, e.g. "executor.after_send=kill". */
  faults?: string;
  /** The scheduler's test-only "now" (src/util/test-clock.ts), an ISO instant; preloads the test hook as `faults` does. */
  now?: string;
}

export const ALLOW_LOOPBACK_HOOK = pathToFileURL(join(ROOT, "tests/fixtures/allow-loopback-broker.mjs")).href;
export const TEST_FAULT_HOOK = pathToFileURL(join(ROOT, "tests/fixtures/test-fault.mjs")).href;

type TwResult = Result<{ reject: false; extendEnv: false }>;

/** Spawns `tradewarden --home <home> ...args` (no terminal, never rejects). */
export function tw(home: string, args: readonly string[], opts: TwOptions = {}): ResultPromise<Options & { reject: false }> {
  const preload = [...(opts.allowLoopbackBroker ? ["--import", ALLOW_LOOPBACK_HOOK] : []), ...(opts.faults || opts.now ? ["--import", TEST_FAULT_HOOK] : [])];
  return execa(process.execPath, [...preload, BIN, "--home", home, ...args], {
    cwd: ROOT,
    reject: false,
    extendEnv: false,
    env: childEnv({ ...opts.env, ...(opts.faults ? { TRADEWARDEN_TEST_FAULT: opts.faults } : {}), ...(opts.now ? { TRADEWARDEN_TEST_NOW: opts.now } : {}) }),
    stdin: "pipe",
    timeout: opts.timeoutMs ?? 45_000,
    killSignal: "SIGKILL",
  });
}

/** What an in-process command answered: its exit code and its output (final newline stripped, as execa does). */
export interface InProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  command: string;
  /** What the command wrote past its io (the process's stdout/stderr, the console, warnings), raw: "" when it kept to its io. */
  stray: string;
}

export interface TwInOptions {
  env?: Record<string, string>;
  /** The scheduler's test-only "now" (src/util/test-clock.ts), as `tw`'s `now`. */
  now?: string;
  /** The test-only opt-in for a loopback fake broker (src/broker/loopback.ts), as `tw`'s. */
  allowLoopbackBroker?: boolean;
  /**
   * Fault spec (src/util/test-fault.ts), e.g. "run.services=enospc", armed for this command only: it
   * fires again in the next command, as in a fresh process. "int", "term" and "hup" signal this
   * process as a child would signal itself: only at a point where the command has claimed its
   * interrupts (`run.claimed` and later), the in-process analogue of a signal sent there; a signal
   * at a start-up point, "kill" and "pause" need a process of their own (`tw`).
   */
  faults?: string;
  /** The protocol channel a stdio protocol command (`mcp`) reads and writes instead of the process's stdin and stdout. */
  channel?: ByteChannel;
}

let inProcessQueue: Promise<unknown> = Promise.resolve();

const SELF_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const ignoreSignal = () => undefined;

/**
 * `tradewarden --home <home> ...args` run in this process through src/cli.tsx's `main` (no spawn):
 * for usage, config and exit-code cases, which need no process of their own (signals, closed
 * pipes, kills, a terminal, a lock held by another process still need `tw`). The output is kept as
 * the command wrote it (main redacts whatever io it is given, as the process's: the no-key checks
 * test the product); what the command writes past its io is kept apart, raw (`stray`).
 * Calls run one at a time (main serves one command line at once).
 */
export function twIn(home: string, args: readonly string[], opts: TwInOptions = {}): Promise<InProcessResult> {
  if (opts.faults && /=(kill|pause)\b/.test(opts.faults)) throw new Error(`fault ${opts.faults} needs a process of its own: use tw()`);
  if (opts.faults && /(^|,)\s*cli\.[a-z]+=(hup|term|int)\b/.test(opts.faults)) throw new Error(`fault ${opts.faults} fires before a command runs: use tw()`);
  const next = inProcessQueue.then(async () => {
    const { main } = await import("../../src/cli.js");
    let stdout = "";
    let stderr = "";
    // Raw: what the command wrote through its io, which main itself passes through the redactor.
    const io = {
      stdout: (t: string) => void (stdout += t),
      stderr: (t: string) => void (stderr += t),
      env: childEnv(opts.env),
      ...(opts.channel ? { channel: opts.channel } : {}),
    };
    // Counted apart from the spawned ones (tests/global-setup.ts reports both).
    if (process.env.TW_TEST_SPAWN_FILE) appendFileSync(`${process.env.TW_TEST_SPAWN_FILE}.in-process`, `${args.join(" ").slice(0, 200)}\n`);
    // The test-only hooks a spawned child gets from its preload (tests/fixtures/*.mjs), armed for this command only.
    const hooks: [symbol, unknown][] = [
      ...(opts.now ? [[Symbol.for("tradewarden.tests.now"), opts.now] as [symbol, unknown]] : []),
      ...(opts.allowLoopbackBroker ? [[LOOPBACK_BROKER_FOR_TESTS, true] as [symbol, unknown]] : []),
    ];
    const g = globalThis as Record<symbol, unknown>;
    const saved = hooks.map(([k]) => [k, g[k]] as const);
    for (const [k, v] of hooks) g[k] = v;
    setTestFaults(opts.faults ?? "");
    // A signal the command sends itself lands in this worker: while the command runs, one that finds
    // nothing claiming it is kept from ending the worker (the command's own handlers answer it).
    const signalled = /=(hup|term|int)\b/.test(opts.faults ?? "");
    if (signalled) for (const sig of SELF_SIGNALS) process.on(sig, ignoreSignal);
    try {
      const { value: exitCode, writes } = await capturingProcessWrites(() => main([process.execPath, BIN, "--home", home, ...args], io));
      const strip = (s: string) => s.replace(/\r?\n$/, "");
      return {
        exitCode,
        stdout: strip(stdout),
        stderr: strip(stderr),
        stray: writes,
        command: `tradewarden (in-process) --home ${home} ${args.join(" ")}`,
      };
    } finally {
      for (const [k, v] of saved) g[k] = v;
      if (signalled) for (const sig of SELF_SIGNALS) process.off(sig, ignoreSignal);
      // Disarmed and forgotten (what fired with it too), so the next command starts as a fresh process would.
      setTestFaults("");
      faultPoint("");
    }
  });
  inProcessQueue = next.catch(() => undefined);
  return next;
}

export function text(r: { stdout?: unknown; stderr?: unknown }): string {
  return `${String(r.stdout ?? "")}\n${String(r.stderr ?? "")}`;
}

/** Fails with the child's output when its exit code is not the expected one. */
export function expectExit(r: { exitCode?: number | undefined; stdout?: unknown; stderr?: unknown; command?: string }, code: number): void {
  if (r.exitCode !== code) {
    throw new Error(
      `expected exit ${code}, got ${String(r.exitCode)} from ${r.command ?? "?"}\n--- stdout ---\n${String(r.stdout ?? "").slice(-4000)}\n--- stderr ---\n${String(r.stderr ?? "").slice(-4000)}`,
    );
  }
}

export type Json = Record<string, unknown>;

/** `run --json` output: every line parsed (throws naming the line that is not JSON). */
export function jsonLines(stdout: string): Json[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l, i) => {
      try {
        return JSON.parse(l) as Json;
      } catch {
        throw new Error(`stdout line ${i + 1} is not JSON: ${l.slice(0, 200)}`);
      }
    });
}

const KNOWN_TYPES = new Set<string>(RUN_EVENT_TYPES);

/** Splits `run --json` output into its events and the trailing research-cycle envelope, checking both shapes. */
export function runOutput(stdout: string): { events: RunEvent[]; envelope: Json } {
  const lines = jsonLines(stdout);
  const envelope = lines.at(-1);
  if (envelope?.schema !== "tradewarden.research_cycle.v1")
    throw new Error(`the last line is not the research-cycle envelope: ${JSON.stringify(envelope)?.slice(0, 200)}`);
  const events = lines.slice(0, -1) as unknown as RunEvent[];
  events.forEach((e, i) => {
    if (!KNOWN_TYPES.has(e.type)) throw new Error(`line ${i + 1} has unknown event type ${String(e.type)}`);
    if (e.seq !== i + 1) throw new Error(`line ${i + 1} has seq ${e.seq}`);
    if (typeof e.run_id !== "string" || e.run_id !== envelope.run_id)
      throw new Error(`line ${i + 1} names run ${e.run_id}, the envelope ${String(envelope.run_id)}`);
  });
  return { events, envelope };
}

export function ofType<T extends RunEvent["type"]>(events: readonly RunEvent[], type: T): Extract<RunEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
}

/** The events of a run as recorded in runs/<id>/events.jsonl. */
/** A run's events, from its events.jsonl or its packed bundle (a simulation's runs are packed). */
export function recordedEvents(home: string, runId: string): RunEvent[] {
  return jsonLines(readArtifact(join(home, "runs", runId), "events") ?? "") as unknown as RunEvent[];
}

/** The home of a simulation, from `simulate --json`'s last line (simulations trade in a folder of their own). */
export function simulationHome(simulateStdout: string): string {
  const last = JSON.parse(simulateStdout.trim().split("\n").at(-1) ?? "{}") as { summary?: { dir?: string } };
  if (!last.summary?.dir) throw new Error(`no simulation summary in: ${simulateStdout.slice(-500)}`);
  return last.summary.dir;
}

export function runIds(home: string): string[] {
  const dir = join(home, "runs");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

export interface JournalRun {
  run_id: string;
  mode: string;
  trading_day: string;
  status: string;
  outcome: string | null;
  exit_code: number | null;
  first_value: number | null;
  previous_value: number | null;
  peak_after: number | null;
  proposals: { orders: { symbol: string; side: string; quantity: number }[] }[];
  approvals: { decision: string; orders_hash: string }[];
}

export interface JournalDump {
  runs: JournalRun[];
  orders: { run_id: string; symbol: string; side: string; quantity: number }[];
  state: {
    cash: number;
    holdings: Record<string, { quantity: number }>;
    peak: number | null;
    trading_state: string;
    reducing_runs_left: number;
    trips: unknown[];
    resets: unknown[];
  };
}

/** `journal --json`, read in-process (a read needs no process of its own). */
export async function journalJson(home: string): Promise<JournalDump> {
  const r = await twIn(home, ["journal", "--json"]);
  expectExit(r, 0);
  return JSON.parse(String(r.stdout)) as JournalDump;
}

export function quantities(positions: Record<string, { quantity: number }>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(positions)
      .filter(([, p]) => p.quantity !== 0)
      .map(([s, p]) => [s, p.quantity])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

/** Resolves with the stdout line that satisfies `match` (the child keeps running), or rejects on exit or timeout. */
export function waitForLine(child: ResultPromise, match: (line: string) => boolean, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let buf = "";
    const stdout = child.stdout;
    if (!stdout) {
      reject(new Error("the child has no stdout pipe"));
      return;
    }
    const done = (fn: () => void) => {
      clearTimeout(timer);
      stdout.off("data", onData);
      fn();
    };
    const onData = (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const l of lines) if (match(l)) return done(() => resolveLine(l));
    };
    const timer = setTimeout(() => done(() => reject(new Error(`no matching line within ${timeoutMs} ms`))), timeoutMs);
    stdout.on("data", onData);
    child.then(
      (r: unknown) => done(() => reject(new Error(`the child exited before the line appeared:\n${text(r as TwResult).slice(-3000)}`))),
      (e: unknown) => done(() => reject(e)),
    );
  });
}

/** Trading days of the bundled calendar (the SPX bars). */
export function tradingDays(): string[] {
  return readFileSync(join(ROOT, "data/market/bars/SPX.csv"), "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.slice(0, 10))
    .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
}

/** Any escape sequence; a cursor or erase sequence (CSI other than SGR `m`); OSC. */
export const ANY_ESCAPE = /\u001b/;
export const CURSOR_CODES = /\u001b\[[0-9;?]*[A-HJKSTfhlnsu]|\u001b\][^\u0007]*\u0007|\u001b[78]/;

/** Every file in the home (runs/ included) with its bytes, by path below the home. */
export function homeSnapshot(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[p.slice(home.length)] = readFileSync(p, "utf8");
    }
  };
  walk(home);
  return out;
}
