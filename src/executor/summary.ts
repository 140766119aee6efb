/**
 * The words and the exit code of an execution are its facts: "sent" counts only orders the broker
 * acknowledged; every order that did not get there is named with its reason. Pure.
 */
import { EXIT, type ExitCode } from "../core/exit-codes.js";
import type { RunOutcome } from "../core/events.js";
import type { OrderExecution } from "./types.js";

export interface ExecutionReport {
  outcome: RunOutcome;
  exitCode: ExitCode;
  message: string;
  acknowledged: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function describeExecution(results: readonly OrderExecution[], journalErrors: readonly string[] = []): ExecutionReport {
  const acked = results.filter((r) => r.broker_order_id !== undefined && r.status !== "rejected");
  const rejected = results.filter((r) => r.status === "rejected");
  const notSent = results.filter((r) => r.status === "not_sent");
  const uncertain = results.filter((r) => r.status === "uncertain");
  const why = (list: readonly OrderExecution[]) => [...new Set(list.map((r) => `${r.side} ${r.quantity} ${r.symbol}: ${r.message ?? r.status}`))].join("; ");
  const parts = [`${plural(acked.length, "order")} sent (acknowledged by the paper broker)`];
  if (acked.length > 0) {
    const filled = acked.filter((r) => r.status === "filled").length;
    if (filled > 0) parts[0] += `, ${filled} filled`;
  }
  if (rejected.length) parts.push(`${rejected.length} refused: ${why(rejected)}`);
  if (notSent.length) parts.push(`${notSent.length} not sent: ${why(notSent)}`);
  if (uncertain.length) parts.push(`${uncertain.length} uncertain (the next run looks them up): ${why(uncertain)}`);
  if (journalErrors.length)
    parts.push(`the journal could not record ${journalErrors.length} update(s) (${journalErrors[0]}); the next run recovers them by client order id`);
  const message = parts.join("; ");
  if (journalErrors.length > 0) return { outcome: "error", exitCode: EXIT.INTERNAL_ERROR, message, acknowledged: acked.length };
  if (acked.length > 0 || results.length === 0) return { outcome: "executed", exitCode: EXIT.OK, message, acknowledged: acked.length };
  // Nothing reached the broker: the code names the cause.
  const codes = new Set(results.map((r) => r.error_code));
  if (codes.has("journal_write_failed")) return { outcome: "error", exitCode: EXIT.INTERNAL_ERROR, message, acknowledged: 0 };
  if (codes.has("not_paper")) return { outcome: "error", exitCode: EXIT.USAGE_OR_CONFIG, message, acknowledged: 0 };
  if (uncertain.length > 0 || codes.has("broker_unreachable") || codes.has("timeout"))
    return { outcome: "broker_unavailable", exitCode: EXIT.BROKER_OR_DATA_UNAVAILABLE, message, acknowledged: 0 };
  return { outcome: "no_trades", exitCode: EXIT.OK, message, acknowledged: 0 };
}
