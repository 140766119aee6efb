/**
 * Interrupts: SIGINT, SIGTERM and SIGHUP (a closed terminal) are one thing — stop safely. A command
 * that can stop safely (a run, a simulation) claims them: the first signal aborts its AbortSignal
 * (nothing new is placed; what was sent is booked), later ones only say it is closing. A signal
 * that arrives while nothing has claimed them (start-up, after the run closed) ends the process at
 * once. Either way the process exits 130: `interruptReceived()` makes the CLI's exit code 130.
 */
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";

const INTERRUPT_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

let received: string | null = null;
let claims = 0;

/** The first interrupting signal the current command received, if any. */
export function interruptReceived(): string | null {
  return received;
}

/**
 * Starts a command's interrupt state afresh (src/cli.tsx `main`, before it parses): a command run in
 * a process after another one (tests run commands in-process) is not stopped by the signal that
 * stopped the one before it. A process's single command loses nothing: a signal that arrives while
 * nothing has claimed the interrupts ends the process at once, so none is pending when it starts.
 */
export function beginCommandInterrupts(): void {
  received = null;
}

/**
 * Installed once by the CLI, before any command runs; it takes over from bin/tradewarden.js's
 * loading-time handlers. Ours are added BEFORE theirs are removed: Node closes a signal's handle
 * when its last listener goes, and a signal that had arrived but was not yet dispatched (the CLI
 * was still loading) went with it — the run then went on and placed its orders. Never being
 * without a listener also keeps signal-exit (used by Ink and proper-lockfile) from believing it
 * is alone and re-raising the signal, which would end the process by it (143) instead of 130.
 */
export function installProcessInterrupts(io: CommandIO): void {
  for (const sig of INTERRUPT_SIGNALS) {
    process.on(sig, () => {
      received ??= sig;
      if (claims > 0) return;
      io.stderr(`\n${sig}: interrupted\n`);
      process.exit(EXIT.INTERRUPTED);
    });
  }
  const early = (globalThis as { __tradewardenEarlySignals?: [string, () => void][] }).__tradewardenEarlySignals ?? [];
  for (const [sig, h] of early) process.off(sig, h);
}

/**
 * Claims the interrupts for a command with its own way of stopping (a simulation stops after the
 * day in progress): `onSignal` gets every SIGINT/SIGTERM/SIGHUP until the returned release.
 */
export function claimInterrupts(onSignal: (name: string) => void): () => void {
  const handlers = INTERRUPT_SIGNALS.map((sig) => [sig, () => onSignal(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  claims++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    claims--;
    for (const [sig, h] of handlers) process.off(sig, h);
  };
}

/**
 * Claims the interrupts for a command that stops safely; `dispose` gives them back. `say` replaces
 * stderr for these messages (the console shows them itself).
 */
export function installInterruptHandlers(
  io: CommandIO,
  say?: (message: string) => void,
): { controller: AbortController; onSignal: (name: string) => void; dispose: () => void } {
  const controller = new AbortController();
  let count = 0;
  const tell = (m: string) => (say ? say(m) : io.stderr(`${count === 1 ? "\n" : ""}${m}\n`));
  const onSignal = (name: string) => {
    received ??= name;
    count++;
    if (count === 1) {
      tell(`${name}: stopping the run — nothing new is placed; what was sent is booked`);
      controller.abort(new TwError("interrupted", `${name} received`, EXIT.INTERRUPTED));
    } else {
      tell(`${name}: still closing the run and the journal; please wait`);
    }
  };
  const handlers = INTERRUPT_SIGNALS.map((sig) => [sig, () => onSignal(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  claims++;
  // A signal that came before the claim (during start-up) still stops this command.
  if (received) onSignal(received);
  let disposed = false;
  return {
    controller,
    onSignal,
    dispose: () => {
      if (disposed) return;
      disposed = true;
      claims--;
      for (const [sig, h] of handlers) process.off(sig, h);
    },
  };
}
