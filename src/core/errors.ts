/**
 * Errors are values with stable codes. `TwError` carries a code, a message for a person and the
 * process exit code it maps to; the CLI prints the message and exits with the code.
 */
import { EXIT, type ExitCode } from "./exit-codes.js";
import { redact } from "./redact.js";

export class TwError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly details?: unknown;
  constructor(code: string, message: string, exitCode: ExitCode = EXIT.INTERNAL_ERROR, details?: unknown) {
    super(redact(message));
    this.name = "TwError";
    this.code = code;
    this.exitCode = exitCode;
    this.details = details;
  }
}
