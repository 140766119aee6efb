/**
 * The CLI as a process (bin/tradewarden.js through src/cli.tsx's runAsProcess): the process's io, the
 * secrets of its environment known to the redactor, the signals (bin's early handlers handed over),
 * the exit code (130 whenever a signal came), and nothing left running after the command.
 */
import { writeSync } from "node:fs";
import { EXIT } from "../core/exit-codes.js";
import { registerSecretEnv } from "../core/redact.js";
import { faultPoint } from "../util/test-fault.js";
import { installProcessInterrupts, interruptReceived } from "./interrupts.js";
import { type CommandIO, processIO } from "./io.js";

/** The CLI as a process (bin/tradewarden.js): signals, the exit code, nothing left running after the command. */
export async function runProcess(main: (argv: readonly string[], io: CommandIO) => Promise<number>): Promise<void> {
  const io = processIO();
  registerSecretEnv(io.env);
  // SIGINT/SIGTERM/SIGHUP: a run claims them and stops safely; otherwise the process ends at once. Exit 130 either way.
  faultPoint("cli.loaded");
  installProcessInterrupts(io);
  faultPoint("cli.ready");
  // TEST-ONLY: the test suite sets TRADEWARDEN_CHECK_TOOL_RESULTS=1 (tests/global-setup.ts); every tool
  // result is then checked against its output schema and a violation fails the command. Unset, nothing loads.
  const toolResults = io.env.TRADEWARDEN_CHECK_TOOL_RESULTS === "1" ? (await import("../tools/result-check.js")).armChildResultCheck(io.stderr) : undefined;
  // A command whose work can never finish (a promise nobody will settle: the event loop ran dry under
  // it) would end the process with Node's bare exit 13 and no word. Name it and exit 1 instead.
  let mainSettled = false;
  process.on("exit", () => {
    if (mainSettled || interruptReceived()) return;
    try {
      writeSync(2, "tradewarden: internal error: the command stopped with its work unfinished (nothing was left that could complete it)\n");
    } catch {
      // stderr is gone: the exit code still says it
    }
    process.exit(EXIT.INTERNAL_ERROR);
  });
  const answered = await main(process.argv, io);
  const code = toolResults?.violated() ? EXIT.INTERNAL_ERROR : answered;
  mainSettled = true;
  // Every interrupted command exits 130, whenever the signal came.
  process.exitCode = interruptReceived() ? EXIT.INTERRUPTED : code;
  // When the event loop runs dry, Node closes its signal handles (the default action comes back)
  // while it tears the process down after the 'exit' event: a second Ctrl+C or SIGTERM in that
  // moment ended the process by the signal (143) instead of 130. Exiting from the 'exit' event
  // itself, the last listener, skips that teardown; the signal handlers stay ours to the end.
  process.on("exit", (c) => process.exit(interruptReceived() ? EXIT.INTERRUPTED : c));
  // No process lingers after its command ended: whatever still holds the event loop (a socket kept
  // alive, a timer of a failed write) gets a moment, then the process exits with its code.
  setTimeout(() => process.exit(interruptReceived() ? EXIT.INTERRUPTED : code), 1_500).unref();
}
