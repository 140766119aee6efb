/**
 * Barriers for signals at a chosen point: the child is paused there by the test-only fault hook
 * (src/util/test-fault.ts `pause`), says so on stderr, and goes on only once the test has sent its
 * signal and created the go file. No sleep.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ResultPromise } from "execa";
import { tw } from "./helpers.js";

/** Resolves when the child's stderr says it is paused at `point` (rejects if it exits first). */
export function pausedAt(child: ResultPromise, point: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let buf = "";
    const onData = (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      if (buf.includes(`tradewarden-test-fault: paused at ${point}\n`)) {
        child.stderr?.off("data", onData);
        resolve();
      }
    };
    child.stderr?.on("data", onData);
    child.then(
      (r) => reject(new Error(`the child exited before pausing at ${point}:\n${String(r.stderr).slice(-2000)}`)),
      (e: unknown) => reject(e),
    );
  });
}

/** Runs `run --yes` paused at `point`, sends `signal` into the pause, then lets it go on. */
export async function signalAtPause(home: string, args: string[], point: string, signal: NodeJS.Signals, env: Record<string, string> = {}) {
  const go = join(home, `go-${point}`);
  const child = tw(home, args, { faults: `${point}=pause`, env: { ...env, TRADEWARDEN_TEST_FAULT_GO: go } });
  await pausedAt(child, point);
  child.kill(signal);
  writeFileSync(go, "");
  return child;
}
