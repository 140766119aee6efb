/**
 * `twIn` (an in-process command through src/cli.tsx's `main`) with the test-only hooks a spawned
 * child gets from its preloads (tests/e2e/helpers.ts `tw` options): the scheduler's clock
 * (src/util/test-clock.ts), the fault hooks (src/util/test-fault.ts) and the loopback-broker opt-in
 * (src/broker/loopback.ts). They are armed for this one command and disarmed after it; a fault
 * fires again in the next command, as it would in a fresh process. Calls run one at a time.
 */
import { LOOPBACK_BROKER_FOR_TESTS } from "../../src/broker/loopback.js";
import { faultPoint, setTestFaults } from "../../src/util/test-fault.js";
import { expectExit, type InProcessResult, type JournalDump, twIn } from "../e2e/helpers.js";

const TEST_NOW = Symbol.for("tradewarden.tests.now");

export interface HookOptions {
  env?: Record<string, string>;
  /** The scheduler's "now", an ISO instant. */
  now?: string;
  /** Fault spec, e.g. "run.services=enospc" (not "kill", "pause" or a signal: those need a process of their own). */
  faults?: string;
  allowLoopbackBroker?: boolean;
}

let queue: Promise<unknown> = Promise.resolve();

export function twInWith(home: string, args: readonly string[], opts: HookOptions = {}): Promise<InProcessResult> {
  if (opts.faults && /=(kill|hup|term|int|pause)\b/.test(opts.faults)) throw new Error(`fault ${opts.faults} needs a process of its own: use tw()`);
  const g = globalThis as Record<symbol, unknown>;
  const next = queue.then(async () => {
    g[TEST_NOW] = opts.now ?? "";
    if (opts.allowLoopbackBroker) g[LOOPBACK_BROKER_FOR_TESTS] = true;
    setTestFaults(opts.faults ?? "");
    try {
      return await twIn(home, args, opts.env ? { env: opts.env } : {});
    } finally {
      delete g[TEST_NOW];
      delete g[LOOPBACK_BROKER_FOR_TESTS];
      // Disarmed and forgotten (what fired with it too), so the next command starts as a fresh process would.
      setTestFaults("");
      faultPoint("");
    }
  });
  queue = next.catch(() => undefined);
  return next;
}

/** `journal --json` read in this process (what tests/e2e/helpers.ts `journalJson` reads from a child). */
export async function journalJsonIn(home: string): Promise<JournalDump> {
  const r = await twIn(home, ["journal", "--json"]);
  expectExit(r, 0);
  return JSON.parse(r.stdout) as JournalDump;
}
