/**
 * The tool-contract layer's types. A tool is one definition (contract) plus a handler bound at
 * registry build time by the module that owns the capability (journal, market, gate, agent).
 */
import type { TSchema } from "@sinclair/typebox";

/**
 * What a tool does: `read` looks; `write` changes the account's own notes, watchlist or standing
 * orders (proposals, never orders); `dry_run` runs orders through the gate on a copy; `final` ends the run.
 */
export type ToolKind = "read" | "write" | "dry_run" | "final";
export type ToolGroup = "portfolio" | "market" | "research" | "screening" | "watchlist" | "memory" | "sandbox" | "orders";

export interface ToolContract<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string;
  group: ToolGroup;
  kind: ToolKind;
  /** What the tool does, for the model. The rendered description appends example, summary, errors. */
  description: string;
  /** One valid arguments object; a contract test validates it against `input`. */
  example: Record<string, unknown>;
  /** What a successful result holds, in one or two sentences. */
  successSummary: string;
  input: I;
  output: O;
  /** Successful calls allowed per run (failed calls do not count); null = unlimited. */
  callLimit: number | null;
}

/** The failure a handler returns: a stable code from the closed set, a specific message. */
export interface HandlerFailure {
  ok: false;
  code: import("./error-codes.js").ToolErrorCode;
  message: string;
  /** How to repair the call; the layer supplies a default per code. */
  instruction?: string;
  issues?: { path: string; message: string }[];
  /** Extra fields merged into the correction (e.g. `candidates`, `pending`). */
  details?: Record<string, unknown>;
}

/** A handler's success: the payload (without `success`), and the evidence ids it returned. */
export interface HandlerSuccess {
  ok: true;
  data: Record<string, unknown>;
  /** Ids the model may cite in `evidence_ids` later in this run. */
  evidenceIds?: string[];
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
