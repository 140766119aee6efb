/**
 * What a command writes to. Commands return their exit code; they never call process.exit.
 *
 * Output can fail, a command cannot: a closed stdout or stderr (`| head`, a closed terminal: EPIPE,
 * EIO) detaches that stream — later writes are dropped — and the command carries on to its normal
 * end (a run still books, writes its events and artifacts and closes). Every text passes the
 * redactor on its way out.
 */
import type { Readable, Writable } from "node:stream";
import { redact } from "../core/redact.js";

/** The byte streams a command that speaks a protocol on stdio reads and writes (`mcp`): not redacted text. */
export interface ByteChannel {
  input: Readable;
  output: Writable;
}

export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** The protocol channel; the process's stdin and stdout when absent. */
  channel?: ByteChannel;
}

/** A writer for a stream that detaches itself on the first failed write. */
function detachableWriter(stream: NodeJS.WriteStream): { write: (text: string) => void; detached: () => boolean } {
  let open = true;
  stream.on("error", () => {
    open = false;
  });
  return {
    write(text: string) {
      if (!open || stream.destroyed || !stream.writable) return;
      try {
        stream.write(text);
      } catch {
        open = false;
      }
    },
    detached: () => !open,
  };
}

/** The ios whose text already passes the redactor (made by `redactedIO`). */
const redacting = new WeakSet<CommandIO>();

/** `io` with every text it is given passed through the redactor first (itself when it already is). */
export function redactedIO(io: CommandIO): CommandIO {
  if (redacting.has(io)) return io;
  const out: CommandIO = {
    stdout: (t) => io.stdout(redact(t)),
    stderr: (t) => io.stderr(redact(t)),
    env: io.env,
    ...(io.channel ? { channel: io.channel } : {}),
  };
  redacting.add(out);
  return out;
}

let shared: CommandIO | null = null;

export const processIO = (): CommandIO => {
  if (shared) return shared;
  const out = detachableWriter(process.stdout);
  const err = detachableWriter(process.stderr);
  shared = redactedIO({ stdout: out.write, stderr: err.write, env: process.env });
  return shared;
};
