/**
 * What a tool handler returns and sees, as the domain modules that compute results know it. The
 * tools layer (src/tools) binds these to its contracts; a domain module that builds a handler's
 * answer (the submit bounce, entity masking) depends only on this core shape, never on src/tools.
 */
import type { GateDecision } from "./gate-types.js";
import type { ToolErrorCode } from "./tool-error-codes.js";

/** The failure a handler returns: a stable code from the closed set, a specific message. */
export interface HandlerFailure {
  ok: false;
  code: ToolErrorCode;
  message: string;
  /** How to repair the call; the layer supplies a default per code. */
  instruction?: string;
  issues?: { path: string; message: string }[];
  /** Extra fields merged into the correction (e.g. `candidates`, `pending`). */
  details?: Record<string, unknown>;
  /** The gate's typed decisions behind the failure (submit_orders' bounce): for the run's events, never shown to the model. */
  verdicts?: GateDecision[];
}

/** A handler's success: the payload (without `success`), and the evidence ids it returned. */
export interface HandlerSuccess {
  ok: true;
  data: Record<string, unknown>;
  /** Ids the model may cite in `evidence_ids` later in this run. */
  evidenceIds?: string[];
  /**
   * The gate's typed decisions behind the result (check_orders, submit_orders), each naming its
   * input order by `index`: for the run's events and the proposal, never shown to the model.
   */
  verdicts?: GateDecision[];
}

export type HandlerResult = HandlerSuccess | HandlerFailure;

/** What a handler can see of the call. Services are closed over when the handler is built. */
export interface ToolCallContext {
  runId: string;
  /** The run's trading day (YYYY-MM-DD): tools see data strictly before it. */
  tradingDay: string;
  /** Evidence ids returned so far in this run. */
  seenEvidence: ReadonlySet<string>;
  /** Codes of currently pending retryable errors (used by submit_orders). */
  pending: ReadonlyArray<{ tool: string; error_code: string; error: string }>;
  /** Signal that is aborted when the run is interrupted. */
  signal?: AbortSignal;
}

export type ToolHandler = (args: Record<string, unknown>, ctx: ToolCallContext) => HandlerResult | Promise<HandlerResult>;

/**
 * Entity masking as the runtime applies it (src/research/masking.ts implements it): arguments are
 * unmasked after validation, and everything the model is shown (tool definitions, results,
 * failure envelopes) is masked.
 */
export interface ToolMasking {
  unmaskArguments(tool: string, args: Record<string, unknown>): { ok: true; args: Record<string, unknown> } | HandlerFailure;
  mask<T>(value: T): T;
  /**
   * Tools whose handlers work in masked terms themselves (execute_code: the model's code runs on
   * masked data): their arguments are not unmasked and their results are shown as the handler made them.
   */
  selfMasked?: ReadonlySet<string>;
}
