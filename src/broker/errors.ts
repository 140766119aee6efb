/** Broker failures as typed values with stable codes. */
import { EXIT, type ExitCode } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";

export type BrokerErrorCode =
  | "broker_unreachable"
  | "timeout"
  | "duplicate_client_order_id"
  | "order_rejected"
  | "order_not_found"
  | "not_paper"
  | "market_closed"
  | "sim_exhausted"
  /** The simulated broker's state file is not a valid book (named file and place). */
  | "sim_state_invalid";

export class BrokerError extends TwError {
  declare readonly code: BrokerErrorCode;
  constructor(code: BrokerErrorCode, message: string, exitCode: ExitCode = EXIT.BROKER_OR_DATA_UNAVAILABLE, details?: unknown) {
    super(code, message, exitCode, details);
    this.name = "BrokerError";
  }
}

export function isBrokerError(e: unknown, code?: BrokerErrorCode): e is BrokerError {
  return e instanceof BrokerError && (code === undefined || e.code === code);
}

/** A send whose outcome is unknown: the order may or may not exist. */
export function isUncertainSendError(e: unknown): boolean {
  if (e instanceof BrokerError) return e.code === "timeout" || e.code === "broker_unreachable";
  return !(e instanceof TwError);
}
