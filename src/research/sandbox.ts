/**
 * The analysis sandbox host. Each job runs in a fresh worker thread (`sandbox-worker.ts`, built to
 * `dist/sandbox-worker.js`) holding a fresh QuickJS runtime with a memory cap and a stack cap. The
 * wall-clock deadline is enforced twice: QuickJS's interrupt handler stops the interpreter at the
 * deadline, and the host terminates the thread if no answer came shortly after it. The promise
 * settles only after the thread has exited, so a returned timeout means the worker is gone.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { packageRoot } from "../util/paths.js";
import type { SandboxJob, SandboxReply, SandboxStarted } from "./sandbox-protocol.js";

export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
  maxOutputChars: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeoutMs: 2000, memoryBytes: 32 * 1024 * 1024, stackBytes: 256 * 1024, maxOutputChars: 4000 };

/** How long the worker may take to load the isolate before the model's code starts. */
const STARTUP_LIMIT_MS = 15_000;
/** How long after the deadline the host waits for the interpreter's own stop before terminating the thread. */
const TERMINATE_GRACE_MS = 250;

export interface SandboxRun {
  reply: SandboxReply;
  /** Wall-clock ms from the start of the model's code to the answer (or to the host's kill). */
  answeredMs: number;
  /** Wall-clock ms from the start of the model's code to the thread's exit. */
  elapsedMs: number;
  /** True when the host had to terminate the thread (the interpreter did not stop by itself). */
  terminated: boolean;
}

function sandboxWorkerPath(): string {
  return join(packageRoot(), "dist", "sandbox-worker.js");
}

export function runSandbox(
  job: Omit<SandboxJob, "timeoutMs" | "memoryBytes" | "stackBytes" | "maxOutputChars">,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
  hooks: { onWorker?: (w: Worker) => void } = {},
): Promise<SandboxRun> {
  const path = sandboxWorkerPath();
  if (!existsSync(path)) return Promise.reject(new Error(`the sandbox worker ${path} is missing: run npm run build`));
  const started = Date.now();
  const full: SandboxJob = {
    ...job,
    timeoutMs: limits.timeoutMs,
    memoryBytes: limits.memoryBytes,
    stackBytes: limits.stackBytes,
    maxOutputChars: limits.maxOutputChars,
  };
  return new Promise((resolve) => {
    const worker = new Worker(path, {
      workerData: full,
      // The isolate's own cap is `memoryBytes`; these bound the thread around it.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
      env: {},
    });
    hooks.onWorker?.(worker);
    let reply: SandboxReply | null = null;
    let terminated = false;
    let codeStarted = started;
    let answeredAt: number | null = null;
    const kill = () => {
      answeredAt ??= Date.now();
      terminated = true;
      void worker.terminate();
    };
    let timer = setTimeout(kill, STARTUP_LIMIT_MS);
    worker.on("message", (m: SandboxReply | SandboxStarted) => {
      if ("started" in m) {
        clearTimeout(timer);
        codeStarted = Date.now();
        timer = setTimeout(kill, limits.timeoutMs + TERMINATE_GRACE_MS);
        return;
      }
      reply = m;
      answeredAt ??= Date.now();
      void worker.terminate();
    });
    worker.on("error", (e: Error) => {
      reply = { ok: false, kind: /memory/i.test(e.message) ? "memory" : "error", name: "SandboxFailure", message: e.message, traceback: [], output: "" };
    });
    worker.on("exit", () => {
      clearTimeout(timer);
      const elapsedMs = Date.now() - codeStarted;
      if (!reply) {
        reply = terminated
          ? { ok: false, kind: "timeout", name: "InternalError", message: "interrupted", traceback: [], output: "" }
          : { ok: false, kind: "error", name: "SandboxFailure", message: "the sandbox stopped without an answer", traceback: [], output: "" };
      }
      resolve({ reply, answeredMs: (answeredAt ?? Date.now()) - codeStarted, elapsedMs, terminated });
    });
  });
}
