/**
 * The per-run tool runtime: binds handlers to the contracts and dispatches every call in this
 * order: unknown tool → arguments parse → schema validation (all issues) → entity unmasking (when
 * masking is on; an ambiguous partial alias is refused) → a submission's check_id replaced by the
 * orders it names (tw-tools/3) → grounding (evidence ids returned in this
 * run, and about each order's own instrument) → pending check (final tool) → per-run call limit →
 * handler → envelope (a check_orders result gets its check_id: ./checked-orders.ts) → masking (when
 * on) → compaction.
 * Invalid input never reaches a handler; a handler exception becomes `tool_execution_failed`.
 * The checks before the call limit (unknown tool to pending) live in `./admission.ts`. Every refusal
 * (admission or call limit) goes through the run's repair budget (`./repair-budget.ts`): a call sent
 * again unchanged after a refusal decided by its arguments alone is refused again before admission,
 * and `repeatedRefusal()` tells the loop when identical refusals have spent the budget.
 */
import type { PendingError } from "../core/events.js";
import type { GateDecision } from "../core/gate-types.js";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { type AdmissionContext, admit, type DispatchStage } from "./admission.js";
import { DEFAULT_BUDGET_CHARS } from "./compaction.js";
import { type FailureSpec, failureEnvelope, successEnvelope } from "./envelope.js";
import { TOOL_ERROR_CODES } from "../core/tool-error-codes.js";
import { PendingTracker } from "./pending.js";
import { BudgetCall, type RepairBudget, type Refusal, repairBudgetFor } from "./repair-budget.js";
import type { RepeatedRefusal } from "../agent/loop-types.js";
import { summarizeEnvelope } from "./summary.js";
import type { AnthropicToolDef, OpenAIToolDef } from "./render.js";
import { renderedTools } from "./rendered-tools.js";
import { type CheckedOrders, checkedOrdersFor } from "./checked-orders.js";
import { EvidenceRegistry, type SubjectsOf } from "./grounding.js";
import type { HandlerFailure, HandlerResult, HandlerSuccess, ServedContract, ToolCallContext, ToolHandler, ToolMasking } from "./types.js";
import { type ContractSet, contractSet } from "./versions.js";

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
  /** One line about the result for the console and the headless log (the tool's `summarize`, or the failure). */
  summary: string;
  /** The handler's success payload, for the caller (e.g. check_orders decisions). */
  data?: Record<string, unknown>;
  /** The gate's typed decisions behind an order tool's result (never shown to the model). */
  verdicts?: GateDecision[];
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
  /**
   * The tools this run offers (./subsets.ts; a replay: the recorded run's), in any order; the
   * runtime serves them in catalogue order. Default: every tool of the version. A call of any
   * other tool is an unknown tool.
   */
  offered?: readonly string[];
}

/** Stages whose envelope carries the model's own (masked) arguments: only the example needs masking. */
const BEFORE_UNMASK: ReadonlySet<DispatchStage> = new Set(["unknown_tool", "parse", "validation", "unmask"]);

export interface ToolRuntime {
  readonly contractVersion: string;
  readonly contracts: readonly ServedContract[];
  anthropicTools(opts?: { strict?: boolean }): AnthropicToolDef[];
  openaiTools(): OpenAIToolDef[];
  dispatch(name: string, rawArgs: unknown, opts?: { signal?: AbortSignal }): Promise<DispatchOutcome>;
  pending(): PendingError[];
  seenEvidence(): ReadonlySet<string>;
  callCount(tool: string): number;
  /** The call whose identical refusals spent the repair budget (./repair-budget.ts), once one has. */
  repeatedRefusal(): RepeatedRefusal | undefined;
}

/** One run's dispatch state: what `buildToolRuntime` binds, and every call reads or updates. */
interface RunTools {
  set: ContractSet;
  opts: ToolRuntimeOptions;
  handlers: Partial<Record<string, ToolHandler>>;
  contractOf(name: string): ServedContract | undefined;
  now: () => number;
  budget: number;
  pending: PendingTracker;
  registry: EvidenceRegistry;
  successes: Map<string, number>;
  /** Calls past the limit check whose handler has not settled: they hold a slot of the limit. */
  inFlight: Map<string, number>;
  admission: AdmissionContext;
  /** Identical refusals counted (none for tw-tools/1 and /2). */
  repairs: RepairBudget | undefined;
  /** The orders each check_orders checked, by check_id (none for tw-tools/1 and /2). */
  checked: CheckedOrders | undefined;
}

/** Build a run's runtime. Refuses to build while any catalogue tool has no handler. */
export function buildToolRuntime(handlers: Partial<Record<string, ToolHandler>>, opts: ToolRuntimeOptions): ToolRuntime {
  const set: ContractSet = offering(contractSet(opts.contractVersion), opts.offered);
  const byName = new Map(set.contracts.map((t) => [t.name, t]));
  const contractOf = (name: string): ServedContract | undefined => byName.get(name);
  const missing = set.contracts.map((t) => t.name).filter((n) => typeof handlers[n] !== "function");
  if (missing.length > 0) {
    throw new TwError("missing_handler", `tool runtime refused: no handler for ${missing.join(", ")}`, EXIT.INTERNAL_ERROR);
  }
  const pending = new PendingTracker();
  const registry = new EvidenceRegistry(opts.subjectsOf ?? (() => []));
  const masking = opts.masking;
  const checked = checkedOrdersFor(set.version);
  const rt: RunTools = {
    set,
    opts,
    handlers,
    contractOf,
    now: opts.now ?? (() => performance.now()),
    budget: opts.budgetChars ?? DEFAULT_BUDGET_CHARS,
    pending,
    registry,
    successes: new Map(),
    inFlight: new Map(),
    admission: { set, contractOf, available: set.contracts.map((t) => t.name), masking, registry, pending, checked },
    repairs: repairBudgetFor(set.version),
    checked,
  };
  const shownTools = <T>(tools: T[]): T[] => (masking ? masking.mask(tools) : tools);
  return {
    contractVersion: set.version,
    contracts: set.contracts,
    anthropicTools: (o) => shownTools(renderedTools(set, o?.strict ? "anthropic-strict" : "anthropic")),
    openaiTools: () => shownTools(renderedTools(set, "openai")),
    dispatch: (name, rawArgs, dopts = {}) => dispatchCall(rt, name, rawArgs, dopts),
    pending: () => pending.list(),
    seenEvidence: () => registry.ids,
    callCount: (tool) => rt.successes.get(tool) ?? 0,
    repeatedRefusal: () => rt.repairs?.spent(),
  };
}

/** Narrowed sets by version and offered names: one object per offer, so its rendered tool lists are cached across runs. */
const narrowed = new Map<string, ContractSet>();

/** The contract set narrowed to the offered tools (catalogue order); a name the version lacks is refused. */
function offering(set: ContractSet, offered: readonly string[] | undefined): ContractSet {
  if (offered === undefined) return set;
  const names = new Set(offered);
  const unknown = offered.filter((n) => !set.contracts.some((t) => t.name === n));
  if (unknown.length > 0) throw new TwError("unknown_tool", `${set.version} has no tool ${unknown.join(", ")}`, EXIT.INTERNAL_ERROR);
  const contracts = set.contracts.filter((t) => names.has(t.name));
  if (contracts.length === set.contracts.length) return set;
  const key = `${set.version}:${contracts.map((t) => t.name).join(",")}`;
  let hit = narrowed.get(key);
  if (!hit) {
    hit = { ...set, contracts };
    narrowed.set(key, hit);
  }
  return hit;
}

/** An admitted call: its tool, contract, real arguments and start time. */
interface Call {
  rt: RunTools;
  name: string;
  contract: ServedContract;
  args: Record<string, unknown>;
  started: number;
}

async function dispatchCall(rt: RunTools, name: string, rawArgs: unknown, dopts: { signal?: AbortSignal }): Promise<DispatchOutcome> {
  const started = rt.now();
  // 0. A repeat of a call refused on its arguments alone is refused again without checking it (./repair-budget.ts).
  const key = rt.repairs ? new BudgetCall(name, rawArgs) : undefined;
  const again = key ? rt.repairs?.repeat(key) : undefined;
  if (again) return fail(rt, again.spec, again.stage, started, again.args);
  // 1-4. Unknown tool, parse, validation, unmasking, grounding, pending corrections.
  const a = admit(rt.admission, name, rawArgs);
  if (!a.ok) return refusal(rt, key, a, started);
  const call: Call = { rt, name, contract: a.contract, args: a.args, started };
  // 5. Per-run call limit: successful calls count, and calls still running hold a slot so that
  //    concurrent dispatches of one tool cannot overshoot the limit.
  const limited = limitRefusal(call);
  if (limited) return refusal(rt, key, limited, started);
  if (key) rt.repairs?.settle(key, undefined);
  // 6. Handler.
  const ran = await runHandler(call, dopts.signal);
  if (ran.threw) {
    const message = `${name} failed: ${ran.error instanceof Error ? ran.error.message : String(ran.error)}`;
    return fail(rt, { code: "tool_execution_failed", tool: name, message, example: call.contract.example, received: call.args }, "handler", started, call.args);
  }
  return ran.result.ok ? handlerSuccess(call, ran.result) : handlerFailure(call, ran.result);
}

/** A refused call's outcome, counted by the repair budget (a repeat's message says so). */
function refusal(rt: RunTools, key: BudgetCall | undefined, refused: Refusal, started: number): DispatchOutcome {
  const r = rt.repairs && key ? (rt.repairs.settle(key, refused) ?? refused) : refused;
  return fail(rt, r.spec, r.stage, started, r.args);
}

function limitRefusal({ name, contract, args, rt }: Call): Refusal | undefined {
  const used = rt.successes.get(name) ?? 0;
  const running = rt.inFlight.get(name) ?? 0;
  if (contract.callLimit === null || used + running < contract.callLimit) return undefined;
  return {
    spec: {
      code: "tool_call_limit_reached",
      tool: name,
      message: `${name} may succeed at most ${contract.callLimit} times per run; the limit is reached`,
      example: contract.example,
      received: args,
    },
    stage: "limit",
    args,
  };
}

/** Runs the handler, holding a slot of the call limit while it runs; a throw (or no result) is reported, not raised. */
async function runHandler(
  { rt, name, args }: Call,
  signal: AbortSignal | undefined,
): Promise<{ threw: false; result: HandlerResult } | { threw: true; error: unknown }> {
  const ctx: ToolCallContext = {
    runId: rt.opts.runId,
    tradingDay: rt.opts.tradingDay,
    seenEvidence: rt.registry.ids,
    pending: rt.pending.list(),
    signal,
  };
  rt.inFlight.set(name, (rt.inFlight.get(name) ?? 0) + 1);
  try {
    const handler = rt.handlers[name];
    if (typeof handler !== "function") throw new Error("handler is not a function");
    const result = await handler(args, ctx);
    if (!isHandlerResult(result)) {
      throw new Error("the handler returned no result (expected {ok: true, data} or {ok: false, code, message})");
    }
    return { threw: false, result };
  } catch (error) {
    return { threw: true, error };
  } finally {
    rt.inFlight.set(name, (rt.inFlight.get(name) ?? 1) - 1);
  }
}

function handlerFailure({ rt, name, contract, args, started }: Call, result: HandlerFailure): DispatchOutcome {
  const code = Object.hasOwn(TOOL_ERROR_CODES, result.code) ? result.code : "tool_execution_failed";
  const failed = fail(
    rt,
    {
      code,
      tool: name,
      message: result.message,
      instruction: result.instruction,
      example: contract.example,
      received: args,
      issues: result.issues,
      details: result.details,
    },
    "handler",
    started,
    args,
  );
  if (result.verdicts) failed.verdicts = result.verdicts;
  return failed;
}

function handlerSuccess({ rt, name, args, started }: Call, result: HandlerSuccess): DispatchOutcome {
  // A check's result names its orders for submit_orders (./checked-orders.ts).
  const data = rt.checked ? rt.checked.answered(name, args, result.data ?? {}) : (result.data ?? {});
  const outcome = finish(rt, name, args, "ok", successEnvelope(data), started, data);
  if (outcome.success) {
    rt.successes.set(name, (rt.successes.get(name) ?? 0) + 1);
    if (Array.isArray(result.evidenceIds))
      rt.registry.record(
        result.evidenceIds.filter((id): id is string => typeof id === "string"),
        result.data ?? {},
      );
    if (result.verdicts) outcome.verdicts = result.verdicts;
  }
  return outcome;
}

function fail(rt: RunTools, spec: FailureSpec, stage: DispatchStage, started: number, args: unknown): DispatchOutcome {
  return finish(rt, spec.tool, args, stage, { ...failureEnvelope(spec) }, started);
}

/** The outcome of a call: its envelope serialised for the model (a result that cannot be is the tool's failure), its pending record. */
function finish(
  rt: RunTools,
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
    compacted = rt.set.serialize(shown(rt.opts.masking, envelope, stage, tool), rt.budget);
  } catch (e) {
    // A result JSON cannot carry (BigInt, a cycle) is the tool's fault, not the run's.
    envelope = {
      ...failureEnvelope({
        code: "tool_execution_failed",
        tool,
        message: `${tool} returned a result that is not JSON-serialisable: ${e instanceof Error ? e.message : String(e)}`,
        example: rt.contractOf(tool)?.example ?? {},
        received: "[not JSON-serialisable]",
      }),
    };
    stage = "handler";
    success = false;
    data = undefined;
    compacted = rt.set.serialize(shown(rt.opts.masking, envelope, stage, tool), rt.budget);
  }
  const outcome: DispatchOutcome = {
    tool,
    arguments: args,
    stage,
    success,
    envelope,
    text: compacted.text,
    truncated: compacted.truncated,
    durationMs: rt.now() - started,
    summary: summarizeEnvelope(tool, envelope),
  };
  if (!success) {
    outcome.errorCode = String(envelope.error_code);
    outcome.error = String(envelope.error);
    outcome.retryable = envelope.retryable === true;
  }
  if (data) outcome.data = data;
  const contract = rt.contractOf(tool);
  if (contract && contract.kind !== "final") {
    rt.pending.record(tool, { success, retryable: outcome.retryable, error_code: outcome.errorCode, error: outcome.error });
  }
  return outcome;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/** What the model is shown: masked when masking is on (before unmasking, only the contract's example is real). */
function shown(masking: ToolMasking | undefined, envelope: Record<string, unknown>, stage: DispatchStage, tool: string): Record<string, unknown> {
  if (!masking) return envelope;
  if (!BEFORE_UNMASK.has(stage) && !masking.selfMasked?.has(tool)) return masking.mask(envelope);
  const correction = envelope.correction;
  if (!isRecord(correction)) return envelope;
  return { ...envelope, correction: { ...correction, valid_arguments_example: masking.mask(correction.valid_arguments_example) } };
}

function isHandlerResult(r: unknown): r is HandlerResult {
  if (r === null || typeof r !== "object" || !("ok" in r)) return false;
  if (r.ok === true) {
    const data = "data" in r ? r.data : undefined;
    return data === undefined || (data !== null && typeof data === "object" && !Array.isArray(data));
  }
  return r.ok === false && "code" in r && typeof r.code === "string" && "message" in r && typeof r.message === "string";
}
