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
 * write of that event type, e.g. `journal.append:fill`), `run.before_close`.
 * actions: `kill` (SIGKILL this process), `hup` / `term` / `int` (send this process that signal and
 * carry on), `enospc` (throw a disk-full write error).
 *
 * Without the symbol every hook is a no-op.
 */
export const TEST_FAULTS = Symbol.for("tradewarden.tests.faults");

type Action = "kill" | "hup" | "term" | "int" | "enospc";
const ACTIONS: ReadonlySet<string> = new Set(["kill", "hup", "term", "int", "enospc"]);

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
    case "enospc": {
      const e = new Error(`ENOSPC: no space left on device, write (injected at ${point})`) as NodeJS.ErrnoException;
      e.code = "ENOSPC";
      throw e;
    }
  }
}
