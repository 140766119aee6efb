/**
 * The per-run tool runtime: binds handlers to the contracts and dispatches every call in this
 * order: unknown tool → arguments parse → schema validation (all issues) → entity unmasking (when
 * masking is on; an ambiguous partial alias is refused) → grounding (evidence ids returned in this
 * run, and about each order's own instrument) → pending check (final tool) → per-run call limit →
 * handler → envelope → masking (when on) → compaction.
 * Invalid input never reaches a handler; a handler exception becomes `tool_execution_failed`.
 */
import type { PendingError } from "../core/events.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../util/json-depth.js";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { GROUNDED_TOOLS, type ToolName } from "./catalogue.js";
import { DEFAULT_BUDGET_CHARS } from "./compaction.js";
import { type FailureSpec, failureEnvelope, successEnvelope } from "./envelope.js";
import { TOOL_ERROR_CODES } from "./error-codes.js";
import { PendingTracker } from "./pending.js";
import type { AnthropicToolDef, OpenAIToolDef } from "./render.js";
import { EvidenceRegistry, type SubjectsOf } from "./grounding.js";
import type { HandlerResult, ToolCallContext, ToolContract, ToolHandler, ToolMasking } from "./types.js";
import { type ContractSet, contractSet } from "./versions.js";

export type DispatchStage = "unknown_tool" | "parse" | "validation" | "unmask" | "grounding" | "pending" | "limit" | "handler" | "ok";

export interface DispatchOutcome {
  tool: string;
  /** The parsed arguments (or the raw input when it did not parse). */
  arguments: unknown;
  stage: DispatchStage;
  success: boolean;
  /** The full envelope (before compaction). */
  envelope: Record<string, unknown>;
  /** The JSON text sent to the model as the tool_result content (compacted). */
  text: string;
  errorCode?: string;
  error?: string;
  retryable?: boolean;
  truncated: boolean;
  durationMs: number;
  /** The handler's success payload, for the caller (e.g. check_orders decisions). */
  data?: Record<string, unknown>;
}

export interface ToolRuntimeOptions {
  runId: string;
  tradingDay: string;
  budgetChars?: number;
  now?: () => number;
  /** The instruments a news text names (grounding); default: none, so only price histories ground. */
  subjectsOf?: SubjectsOf;
  /** Entity masking: arguments unmasked after validation, everything the model sees masked. */
  masking?: ToolMasking;
  /** The contract version to serve (a replay serves the recorded run's); default: the current one. */
  contractVersion?: string;
}

/** Stages whose envelope carries the model's own (masked) arguments: only the example needs masking. */
const BEFORE_UNMASK: ReadonlySet<DispatchStage> = new Set(["unknown_tool", "parse", "validation", "unmask"]);

export interface ToolRuntime {
  readonly contractVersion: string;
  readonly contracts: readonly ToolContract[];
  anthropicTools(opts?: { strict?: boolean }): AnthropicToolDef[];
  openaiTools(): OpenAIToolDef[];
  dispatch(name: string, rawArgs: unknown, opts?: { signal?: AbortSignal }): Promise<DispatchOutcome>;
  pending(): PendingError[];
  seenEvidence(): ReadonlySet<string>;
  callCount(tool: string): number;
}

export type ToolHandlers = Record<ToolName, ToolHandler>;

const RECEIVED_PREVIEW_CHARS = 500;

/** Build a run's runtime. Refuses to build while any catalogue tool has no handler. */
export function buildToolRuntime(handlers: Partial<Record<string, ToolHandler>>, opts: ToolRuntimeOptions): ToolRuntime {
  const set: ContractSet = contractSet(opts.contractVersion);
  const byName = new Map(set.contracts.map((t) => [t.name, t]));
  const contractOf = (name: string): ToolContract | undefined => byName.get(name);
  const missing = set.contracts.map((t) => t.name).filter((n) => typeof handlers[n] !== "function");
  if (missing.length > 0) {
    throw new TwError("missing_handler", `tool runtime refused: no handler for ${missing.join(", ")}`, EXIT.INTERNAL_ERROR);
  }
  const now = opts.now ?? (() => performance.now());
  const budget = opts.budgetChars ?? DEFAULT_BUDGET_CHARS;
  const pending = new PendingTracker();
  const registry = new EvidenceRegistry(opts.subjectsOf ?? (() => []));
  const evidence = registry.ids;
  const masking = opts.masking;
  const successes = new Map<string, number>();
  /** Calls past the limit check whose handler has not settled: they hold a slot of the limit. */
  const inFlight = new Map<string, number>();
  const available = set.contracts.map((t) => t.name);

  function finish(
    tool: string,
    args: unknown,
    stage: DispatchStage,
    envelope: Record<string, unknown>,
    started: number,
    data?: Record<string, unknown>,
  ): DispatchOutcome {
    let success = envelope.success === true;
    let compacted: { text: string; truncated: boolean };
    try {
      compacted = set.serialize(shown(envelope, stage, tool), budget);
    } catch (e) {
      // A result JSON cannot carry (BigInt, a cycle) is the tool's fault, not the run's.
      envelope = failureEnvelope({
        code: "tool_execution_failed",
        tool,
        message: `${tool} returned a result that is not JSON-serialisable: ${e instanceof Error ? e.message : String(e)}`,
        example: contractOf(tool)?.example ?? {},
        received: "[not JSON-serialisable]",
      }) as unknown as Record<string, unknown>;
      stage = "handler";
      success = false;
      data = undefined;
      compacted = set.serialize(shown(envelope, stage, tool), budget);
    }
    const outcome: DispatchOutcome = {
      tool,
      arguments: args,
      stage,
      success,
      envelope,
      text: compacted.text,
      truncated: compacted.truncated,
      durationMs: now() - started,
    };
    if (!success) {
      outcome.errorCode = String(envelope.error_code);
      outcome.error = String(envelope.error);
      outcome.retryable = envelope.retryable === true;
    }
    if (data) outcome.data = data;
    const contract = contractOf(tool);
    if (contract && contract.kind !== "final") {
      pending.record(tool, { success, retryable: outcome.retryable, error_code: outcome.errorCode, error: outcome.error });
    }
    return outcome;
  }

  /** What the model is shown: masked when masking is on (before unmasking, only the contract's example is real). */
  function shown(envelope: Record<string, unknown>, stage: DispatchStage, tool: string): Record<string, unknown> {
    if (!masking) return envelope;
    if (!BEFORE_UNMASK.has(stage) && !masking.selfMasked?.has(tool)) return masking.mask(envelope);
    const correction = envelope.correction as Record<string, unknown> | undefined;
    if (!correction) return envelope;
    return { ...envelope, correction: { ...correction, valid_arguments_example: masking.mask(correction.valid_arguments_example) } };
  }

  function fail(spec: FailureSpec, stage: DispatchStage, started: number, args: unknown): DispatchOutcome {
    return finish(spec.tool, args, stage, failureEnvelope(spec) as unknown as Record<string, unknown>, started);
  }

  async function dispatch(name: string, rawArgs: unknown, dopts: { signal?: AbortSignal } = {}): Promise<DispatchOutcome> {
    const started = now();
    const contract = contractOf(name);
    if (!contract) {
      return fail(
        {
          code: "unknown_tool",
          tool: name,
          message: `unknown tool "${name}"; available tools: ${available.join(", ")}`,
          example: {},
          received: preview(rawArgs),
          details: { available_tools: available },
        },
        "unknown_tool",
        started,
        rawArgs,
      );
    }
    // 1. Parse: arguments may arrive as a JSON string.
    let args: unknown = rawArgs;
    if (typeof rawArgs === "string") {
      try {
        args = rawArgs.trim() === "" ? {} : JSON.parse(rawArgs);
      } catch (e) {
        return fail(
          {
            code: "invalid_tool_arguments_json",
            tool: name,
            message: `arguments are not valid JSON: ${(e as Error).message}`,
            example: contract.example,
            received: rawArgs.slice(0, RECEIVED_PREVIEW_CHARS),
          },
          "parse",
          started,
          rawArgs,
        );
      }
    }
    if (args === undefined || args === null) args = {};
    if (typeof args !== "object" || Array.isArray(args)) {
      return fail(
        {
          code: "invalid_tool_arguments_json",
          tool: name,
          message: `arguments must be a JSON object, got ${Array.isArray(args) ? "an array" : typeof args}`,
          example: contract.example,
          received: preview(args),
        },
        "parse",
        started,
        args,
      );
    }
    if (nestsDeeperThan(args)) {
      return fail(
        {
          code: "invalid_tool_arguments_json",
          tool: name,
          message: `arguments nest deeper than ${MAX_JSON_DEPTH} levels`,
          example: contract.example,
          received: typeof rawArgs === "string" ? rawArgs.slice(0, RECEIVED_PREVIEW_CHARS) : "(too deeply nested to show)",
        },
        "parse",
        started,
        typeof rawArgs === "string" ? rawArgs.slice(0, RECEIVED_PREVIEW_CHARS) : "(too deeply nested to show)",
      );
    }
    const modelArgs = args as Record<string, unknown>;
    // 2. Schema validation: every issue at once.
    const report = set.validate(name, modelArgs);
    if (!report.valid) {
      const n = report.issues.length;
      return fail(
        {
          code: "invalid_tool_arguments",
          tool: name,
          message: `${n} problem${n === 1 ? "" : "s"} in the arguments of ${name}: ${report.issues
            .slice(0, 5)
            .map((i) => `${i.path} ${i.message}`)
            .join("; ")}${n > 5 ? "; …" : ""}`,
          example: contract.example,
          received: modelArgs,
          issues: report.issues,
          missing: report.missing,
        },
        "validation",
        started,
        modelArgs,
      );
    }
    // 2b. Unmasking: the model's aliases and shifted dates back to real terms; an ambiguous partial alias is refused.
    let argObj = modelArgs;
    if (masking && !masking.selfMasked?.has(name)) {
      const u = masking.unmaskArguments(name, modelArgs);
      if (!u.ok) {
        return fail(
          { code: u.code, tool: name, message: u.message, example: contract.example, received: modelArgs, ...(u.instruction ? { instruction: u.instruction } : {}), ...(u.details ? { details: u.details } : {}) },
          "unmask",
          started,
          modelArgs,
        );
      }
      argObj = u.args;
    }
    // 3. Grounding: evidence ids must name results this run returned, and each order must cite evidence about its instrument.
    if (GROUNDED_TOOLS.has(name)) {
      const issues = registry.unknownIssues(argObj);
      if (issues.length > 0) {
        return fail(
          {
            code: "unknown_evidence_id",
            tool: name,
            message: `${issues.length} evidence id${issues.length === 1 ? " was" : "s were"} not returned by any tool in this run: ${issues
              .slice(0, 5)
              .map((i) => i.message)
              .join("; ")}`,
            example: contract.example,
            received: argObj,
            issues,
            details: { known_evidence_ids: [...evidence].slice(0, 40) },
          },
          "grounding",
          started,
          argObj,
        );
      }
      const ungrounded = registry.ungroundedIssues(argObj);
      if (ungrounded.length > 0) {
        return fail(
          {
            code: "ungrounded_order",
            tool: name,
            message: `${ungrounded.length} order${ungrounded.length === 1 ? " is" : "s are"} not grounded in evidence about ${ungrounded.length === 1 ? "its" : "their"} own instrument: ${ungrounded
              .slice(0, 5)
              .map((i) => i.message)
              .join("; ")}`,
            example: contract.example,
            received: argObj,
            issues: ungrounded,
          },
          "grounding",
          started,
          argObj,
        );
      }
    }
    // 4. Pending corrections block the final tool unless abandoned.
    if (contract.kind === "final") {
      const unresolved = pending.unresolved(argObj.abandon_error_codes as string[] | undefined);
      if (unresolved.length > 0) {
        return fail(
          {
            code: "pending_corrections",
            tool: name,
            message: `submit refused: ${unresolved.length} retryable error${unresolved.length === 1 ? " is" : "s are"} still pending: ${unresolved
              .map((p) => `${p.tool} (${p.error_code})`)
              .join(", ")}`,
            example: contract.example,
            received: argObj,
            details: { pending: unresolved },
          },
          "pending",
          started,
          argObj,
        );
      }
    }
    // 5. Per-run call limit: successful calls count, and calls still running hold a slot so that
    //    concurrent dispatches of one tool cannot overshoot the limit.
    const used = successes.get(name) ?? 0;
    const running = inFlight.get(name) ?? 0;
    if (contract.callLimit !== null && used + running >= contract.callLimit) {
      return fail(
        {
          code: "tool_call_limit_reached",
          tool: name,
          message: `${name} may succeed at most ${contract.callLimit} times per run; the limit is reached`,
          example: contract.example,
          received: argObj,
        },
        "limit",
        started,
        argObj,
      );
    }
    // 6. Handler.
    const handler = handlers[name] as ToolHandler;
    const ctx: ToolCallContext = {
      runId: opts.runId,
      tradingDay: opts.tradingDay,
      seenEvidence: evidence,
      pending: pending.list(),
      signal: dopts.signal,
    };
    let result: HandlerResult;
    inFlight.set(name, running + 1);
    try {
      result = await handler(argObj, ctx);
      if (!isHandlerResult(result)) {
        throw new Error("the handler returned no result (expected {ok: true, data} or {ok: false, code, message})");
      }
    } catch (e) {
      inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
      return fail(
        {
          code: "tool_execution_failed",
          tool: name,
          message: `${name} failed: ${e instanceof Error ? e.message : String(e)}`,
          example: contract.example,
          received: argObj,
        },
        "handler",
        started,
        argObj,
      );
    }
    inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
    if (!result.ok) {
      const code = Object.hasOwn(TOOL_ERROR_CODES, result.code) ? result.code : "tool_execution_failed";
      return fail(
        {
          code,
          tool: name,
          message: result.message,
          instruction: result.instruction,
          example: contract.example,
          received: argObj,
          issues: result.issues,
          details: result.details,
        },
        "handler",
        started,
        argObj,
      );
    }
    const outcome = finish(name, argObj, "ok", successEnvelope(result.data ?? {}), started, result.data ?? {});
    if (outcome.success) {
      successes.set(name, (successes.get(name) ?? 0) + 1);
      if (Array.isArray(result.evidenceIds)) registry.record(result.evidenceIds.filter((id): id is string => typeof id === "string"), result.data ?? {});
    }
    return outcome;
  }

  function shownTools<T>(tools: T[]): T[] {
    return masking ? masking.mask(tools) : tools;
  }

  return {
    contractVersion: set.version,
    contracts: set.contracts,
    anthropicTools: (o) => shownTools(set.contracts.map((t) => set.anthropic(t, o))),
    openaiTools: () => shownTools(set.contracts.map((t) => set.openai(t))),
    dispatch,
    pending: () => pending.list(),
    seenEvidence: () => evidence,
    callCount: (tool) => successes.get(tool) ?? 0,
  };
}

function isHandlerResult(r: unknown): r is HandlerResult {
  if (r === null || typeof r !== "object") return false;
  const o = r as { ok?: unknown; data?: unknown; code?: unknown; message?: unknown };
  if (o.ok === true) return o.data === undefined || (o.data !== null && typeof o.data === "object" && !Array.isArray(o.data));
  return o.ok === false && typeof o.code === "string" && typeof o.message === "string";
}

function preview(v: unknown): unknown {
  if (typeof v === "string") return v.slice(0, RECEIVED_PREVIEW_CHARS);
  return v;
}
