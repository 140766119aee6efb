/**
 * The result envelope. Success: `{success: true, ...data}`. Failure: exactly DESIGN section 3's
 * shape, with the code's retryable flag and a correction carrying the tool, an instruction, the
 * tool's valid example and what was received.
 */
import type { Correction } from "../core/events.js";
import { TOOL_ERROR_CODES, type ToolErrorCode } from "../core/tool-error-codes.js";

export interface FailureEnvelope {
  success: false;
  error: string;
  error_code: ToolErrorCode;
  retryable: boolean;
  correction: Correction;
}

export interface FailureSpec {
  code: ToolErrorCode;
  message: string;
  tool: string;
  example: unknown;
  received: unknown;
  instruction?: string;
  issues?: { path: string; message: string }[];
  missing?: string[];
  details?: Record<string, unknown>;
}

export function failureEnvelope(spec: FailureSpec): FailureEnvelope {
  const code = TOOL_ERROR_CODES[spec.code];
  const correction: Correction = {
    tool: spec.tool,
    instruction: spec.instruction ?? code.instruction,
    valid_arguments_example: spec.example,
    received_arguments: spec.received,
  };
  if (spec.issues && spec.issues.length > 0) correction.issues = spec.issues;
  if (spec.missing && spec.missing.length > 0) correction.missing_fields = spec.missing;
  // Details add fields (e.g. `pending`, `available_tools`); they never replace the four core ones.
  if (spec.details) {
    for (const [k, v] of Object.entries(spec.details)) if (!Object.hasOwn(correction, k)) correction[k] = v;
  }
  return { success: false, error: spec.message, error_code: spec.code, retryable: code.retryable, correction };
}

export function successEnvelope(data: Record<string, unknown>): Record<string, unknown> {
  const env: Record<string, unknown> = { success: true, ...data };
  // A payload's own `success` (or envelope-looking fields) must not turn a success into a failure.
  env.success = true;
  return env;
}
