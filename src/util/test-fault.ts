/**
 * TEST-ONLY fault hooks. The end-to-end tests cut a real CLI run short at a chosen point of
 * execution. Like the loopback-broker opt-in (src/broker/loopback.ts), no environment variable or
 * config arms them by itself: only code already running inside the process can, by setting the
 * registered symbol below on globalThis — a test preloads tests/fixtures/test-fault.mjs into the
 * child (`node --import …`), which copies its `TRADEWARDEN_TEST_FAULT` into it; an in-process
 * test calls `setTestFaults`. The spec:
 *
 *   "<point>=<action>[,<point>=<action>…]"
 *
 * points: `executor.after_intent` (the intent is journalled, the order not yet sent),
 * `executor.after_send` (the broker acknowledged it, the journal does not know yet),
 * `executor.after_fill` (the first fill is booked), `journal.append:<event type>` (a journal
 * write of that event type, e.g. `journal.append:fill`), `run.between_waves` (the first wave settled, the buys funded by its
 * sells not yet re-gated, recorded or sent), `run.before_close`.
 * Start-up points: `cli.loaded` (every module of the CLI evaluated, its own signal handlers not yet
 * installed), `cli.ready` (handlers installed, arguments not yet parsed), `run.start` (the run
 * command entered, its stop not yet claimed), `run.claimed` (the stop claimed, the lock not yet
 * taken), `run.services` (services built, the model not yet asked).
 * actions: `kill` (SIGKILL this process), `hup` / `term` / `int` (send this process that signal and
 * carry on), `enospc` (throw a disk-full write error), `pause` (write
 * `tradewarden-test-fault: paused at <point>` to stderr, then block — synchronously, as a busy
 * start-up would — until the file named by the preload's `TRADEWARDEN_TEST_FAULT_GO` exists: a test
 * sends its signal in that pause, then creates the file).
 *
 * Without the symbol every hook is a no-op.
 */
import { existsSync, writeSync } from "node:fs";

const TEST_FAULTS = Symbol.for("tradewarden.tests.faults");
/** The file whose creation ends a `pause` (set by the preload from TRADEWARDEN_TEST_FAULT_GO). */
const TEST_FAULT_GO = Symbol.for("tradewarden.tests.fault-go");

type Action = "kill" | "hup" | "term" | "int" | "enospc" | "pause";
const ACTIONS: ReadonlySet<string> = new Set(["kill", "hup", "term", "int", "enospc", "pause"]);

let parsedFrom: string | null = null;
let parsed = new Map<string, Action>();
const fired = new Set<string>();

function faults(): Map<string, Action> {
  const spec = (globalThis as Record<symbol, unknown>)[TEST_FAULTS];
  const text = typeof spec === "string" ? spec : "";
  if (text === parsedFrom) return parsed;
  parsedFrom = text;
  parsed = new Map();
  fired.clear();
  for (const part of text.split(",")) {
    const [point, action] = part.split("=").map((s) => s.trim());
    if (point && action && ACTIONS.has(action)) parsed.set(point, action as Action);
  }
  return parsed;
}

/** Arms (or with "" disarms) the faults of this process: in-process tests only. */
export function setTestFaults(spec: string): void {
  (globalThis as Record<symbol, unknown>)[TEST_FAULTS] = spec;
}

/** Fires the fault configured for `point`, once per process (per armed spec). */
export function faultPoint(point: string): void {
  const action = faults().get(point);
  if (!action || fired.has(point)) return;
  fired.add(point);
  switch (action) {
    case "kill":
      process.kill(process.pid, "SIGKILL");
      return;
    case "hup":
      process.kill(process.pid, "SIGHUP");
      return;
    case "term":
      process.kill(process.pid, "SIGTERM");
      return;
    case "int":
      process.kill(process.pid, "SIGINT");
      return;
    case "pause":
      pauseUntilGo(point);
      return;
    case "enospc": {
      const e = new Error(`ENOSPC: no space left on device, write (injected at ${point})`) as NodeJS.ErrnoException;
      e.code = "ENOSPC";
      throw e;
    }
  }
}

/** Blocks this thread (signals still arrive and queue, as in a busy start-up) until the go file exists; 30 s at most. */
function pauseUntilGo(point: string): void {
  const go = (globalThis as Record<symbol, unknown>)[TEST_FAULT_GO];
  writeSync(2, `tradewarden-test-fault: paused at ${point}\n`);
  if (typeof go !== "string" || go === "") return;
  const tick = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + 30_000;
  while (!existsSync(go) && Date.now() < until) Atomics.wait(tick, 0, 0, 5);
}
