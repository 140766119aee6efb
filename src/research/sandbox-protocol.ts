/** The messages between the sandbox host (`sandbox.ts`) and its worker (`sandbox-worker.ts`). */

/** One instrument's bars, column by column, all strictly before the cutoff day. */
export interface SandboxSeries {
  dates: string[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
}

export interface SandboxJob {
  code: string;
  /** The run's trading day: the data holds nothing on or after it. */
  cutoff: string;
  series: Record<string, SandboxSeries>;
  /** Wall-clock ms the model's code may run, from the moment it starts (after the isolate is ready). */
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
  maxOutputChars: number;
}

/** The worker says when the model's code starts: the host's deadline counts from then. */
export interface SandboxStarted {
  started: true;
}

export type SandboxReply =
  | { ok: true; result: unknown; output: string; output_truncated: boolean /** ms the code ran, measured in the worker. */; eval_ms: number }
  | { ok: false; kind: "error" | "timeout" | "memory"; name: string; message: string; traceback: string[]; output: string };
