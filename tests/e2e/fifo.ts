/**
 * A FIFO (named pipe) that an in-process command may be given as a data file. A reader that opened
 * it blocking and waited on it would block this whole test process for good (no timeout can fire
 * on a blocked thread), so a watchdog thread stands by: from `graceMs` on, whenever a reader is
 * waiting on the FIFO, it opens the writing end and closes it at once, which hands the reader an
 * end of file. The reader goes on (with nothing read) and the watchdog counts it: `waitedOn()` is
 * then true and the test fails, naming the hang, instead of hanging the suite.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

/** Runs in the watchdog thread: STOP and UNBLOCKED are indices into the shared Int32Array. */
const WATCHDOG = `
const { closeSync, constants, openSync } = require("node:fs");
const { workerData } = require("node:worker_threads");
const flags = new Int32Array(workerData.shared);
const start = Date.now();
while (Atomics.load(flags, 0) === 0) {
  if (Date.now() - start >= workerData.graceMs) {
    try {
      closeSync(openSync(workerData.path, constants.O_WRONLY | constants.O_NONBLOCK));
      Atomics.add(flags, 1, 1);
    } catch {
      // ENXIO: nobody is reading it
    }
  }
  Atomics.wait(flags, 0, 0, 20);
}
`;

export interface WatchedFifo {
  path: string;
  /** Whether a reader waited on the FIFO past the grace time (the watchdog had to let it go). */
  waitedOn(): boolean;
  /** Ends the watchdog thread. */
  close(): Promise<void>;
}

/** Makes the FIFO `dir/name` and its watchdog (a reader waiting on it longer than `graceMs` is let go and counted). */
export function watchedFifo(dir: string, name: string, graceMs = 5_000): WatchedFifo {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  const shared = new SharedArrayBuffer(8);
  const flags = new Int32Array(shared);
  const worker = new Worker(WATCHDOG, { eval: true, workerData: { path, graceMs, shared } });
  worker.unref();
  return {
    path,
    waitedOn: () => Atomics.load(flags, 1) > 0,
    close: async () => {
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
      await new Promise<void>((resolve) => {
        worker.once("exit", () => resolve());
        worker.once("error", () => resolve());
      });
    },
  };
}
