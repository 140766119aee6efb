/**
 * A tool call's admission, everything before the call limit and the handler: unknown tool →
 * arguments parse (a JSON string, an object, not too deep) → empty optional lists dropped
 * (tw-tools/3 on, ./empty-lists.ts) → schema validation (all issues) →
 * exactly one of orders and check_id on submit_orders (tw-tools/3 on, ./checked-orders.ts) →
 * entity unmasking (when masking is on; an ambiguous partial alias is refused) → a submission's
 * check_id replaced by the orders it names (tw-tools/3 on) → grounding
 * (evidence ids returned in this run, and about each order's own instrument) → pending check
 * (final tool). A refusal names its failure, its dispatch stage and the arguments to record.
 */
import { isTooDeepStandIn, MAX_JSON_DEPTH, nestsDeeperThan } from "../util/json-depth.js";
import { GROUNDED_TOOLS } from "./catalogue.js";
import { type CheckedOrders, eitherOrdersOrCheckId } from "./checked-orders.js";
import { dropsEmptyOptionalLists, withoutEmptyOptionalLists } from "./empty-lists.js";
import type { FailureSpec } from "./envelope.js";
import type { EvidenceRegistry } from "./grounding.js";
import type { PendingTracker } from "./pending.js";
import type { ServedContract, ToolMasking } from "./types.js";
import type { ContractSet } from "./versions.js";

export type DispatchStage = "unknown_tool" | "parse" | "validation" | "unmask" | "grounding" | "pending" | "limit" | "handler" | "ok";

export type Admission =
  | { ok: true; contract: ServedContract; args: Record<string, unknown> }
  | { ok: false; spec: FailureSpec; stage: DispatchStage; args: unknown };

/** What admission reads of the run's runtime. */
export interface AdmissionContext {
  set: ContractSet;
  contractOf(name: string): ServedContract | undefined;
  /** The names of the tools served, for an unknown tool's message. */
  available: readonly string[];
  masking: ToolMasking | undefined;
  registry: EvidenceRegistry;
  pending: PendingTracker;
  /** The run's checked orders (none for tw-tools/1 and /2). */
  checked: CheckedOrders | undefined;
}

const RECEIVED_PREVIEW_CHARS = 500;

type Refusal = Extract<Admission, { ok: false }>;
type Admitted<T> = { ok: true; value: T } | Refusal;

const refused = (spec: FailureSpec, stage: DispatchStage, args: unknown): Refusal => ({ ok: false, spec, stage, args });

/** Admits a call (its contract and real, unmasked arguments) or refuses it. */
export function admit(c: AdmissionContext, name: string, rawArgs: unknown): Admission {
  const contract = c.contractOf(name);
  if (!contract) {
    return refused(
      {
        code: "unknown_tool",
        tool: name,
        message: `unknown tool "${name}"; available tools: ${c.available.join(", ")}`,
        example: {},
        received: preview(rawArgs),
        details: { available_tools: c.available },
      },
      "unknown_tool",
      rawArgs,
    );
  }
  // 1. Parse: arguments may arrive as a JSON string.
  const parsed = parseArguments(contract, rawArgs);
  if (!parsed.ok) return parsed;
  // 1b. An empty optional list that needs an item is treated as absent (tw-tools/3 on; ./empty-lists.ts).
  const modelArgs = dropsEmptyOptionalLists(c.set.version) ? withoutEmptyOptionalLists(contract.input, parsed.value) : parsed.value;
  // 2. Schema validation: every issue at once (a refusal shows the arguments as received).
  const invalid = validationRefusal(c, contract, modelArgs, parsed.value);
  if (invalid) return invalid;
  const neither = c.checked ? eitherOrdersOrCheckId(name, modelArgs, contract.example) : undefined;
  if (neither) return refused({ ...neither, received: parsed.value }, "validation", parsed.value);
  // 2b. Unmasking: the model's aliases and shifted dates back to real terms; an ambiguous partial alias is refused.
  const unmasked = unmaskArguments(c, contract, modelArgs);
  if (!unmasked.ok) return unmasked;
  // 2c. A submission's check_id: the orders it names, checked earlier in this run.
  const resolved = c.checked ? c.checked.resolve(name, unmasked.value, contract.example) : ({ ok: true, args: unmasked.value } as const);
  if (!resolved.ok) return refused(resolved.spec, "grounding", unmasked.value);
  const args = resolved.args;
  // 3. Grounding: evidence ids must name results this run returned, and each order must cite evidence about its instrument.
  const ungrounded = GROUNDED_TOOLS.has(name) ? groundingRefusal(c, contract, args) : undefined;
  if (ungrounded) return ungrounded;
  // 4. Pending corrections block the final tool unless abandoned.
  const blocked = contract.kind === "final" ? pendingRefusal(c, contract, args) : undefined;
  if (blocked) return blocked;
  return { ok: true, contract, args };
}

function isArgumentObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The arguments as an object: a JSON string parsed, nothing or null as {}; never an array, a scalar or too deep. */
function parseArguments(contract: ServedContract, rawArgs: unknown): Admitted<Record<string, unknown>> {
  const name = contract.name;
  let args: unknown = rawArgs;
  if (typeof rawArgs === "string") {
    try {
      args = rawArgs.trim() === "" ? {} : JSON.parse(rawArgs);
    } catch (e) {
      return refused(
        {
          code: "invalid_tool_arguments_json",
          tool: name,
          message: `arguments are not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
          example: contract.example,
          received: rawArgs.slice(0, RECEIVED_PREVIEW_CHARS),
        },
        "parse",
        rawArgs,
      );
    }
  }
  if (args === undefined || args === null) args = {};
  if (!isArgumentObject(args)) {
    return refused(
      {
        code: "invalid_tool_arguments_json",
        tool: name,
        message: `arguments must be a JSON object, got ${Array.isArray(args) ? "an array" : typeof args}`,
        example: contract.example,
        received: preview(args),
      },
      "parse",
      args,
    );
  }
  if (nestsDeeperThan(args) || isTooDeepStandIn(args)) {
    const shown = typeof rawArgs === "string" ? rawArgs.slice(0, RECEIVED_PREVIEW_CHARS) : "(too deeply nested to show)";
    return refused(
      {
        code: "invalid_tool_arguments_json",
        tool: name,
        message: `arguments nest deeper than ${MAX_JSON_DEPTH} levels`,
        example: contract.example,
        received: shown,
      },
      "parse",
      shown,
    );
  }
  return { ok: true, value: args };
}

function validationRefusal(
  c: AdmissionContext,
  contract: ServedContract,
  modelArgs: Record<string, unknown>,
  received: Record<string, unknown>,
): Refusal | undefined {
  const name = contract.name;
  const report = c.set.validate(name, modelArgs);
  if (report.valid) return undefined;
  const n = report.issues.length;
  return refused(
    {
      code: "invalid_tool_arguments",
      tool: name,
      message: `${n} problem${n === 1 ? "" : "s"} in the arguments of ${name}: ${report.issues
        .slice(0, 5)
        .map((i) => `${i.path} ${i.message}`)
        .join("; ")}${n > 5 ? "; …" : ""}`,
      example: contract.example,
      received,
      issues: report.issues,
      missing: report.missing,
    },
    "validation",
    received,
  );
}

function unmaskArguments(c: AdmissionContext, contract: ServedContract, modelArgs: Record<string, unknown>): Admitted<Record<string, unknown>> {
  const name = contract.name;
  if (!c.masking || c.masking.selfMasked?.has(name)) return { ok: true, value: modelArgs };
  const u = c.masking.unmaskArguments(name, modelArgs);
  if (u.ok) return { ok: true, value: u.args };
  return refused(
    {
      code: u.code,
      tool: name,
      message: u.message,
      example: contract.example,
      received: modelArgs,
      ...(u.instruction ? { instruction: u.instruction } : {}),
      ...(u.details ? { details: u.details } : {}),
    },
    "unmask",
    modelArgs,
  );
}

function groundingRefusal(c: AdmissionContext, contract: ServedContract, args: Record<string, unknown>): Refusal | undefined {
  const name = contract.name;
  const issues = c.registry.unknownIssues(args);
  if (issues.length > 0) {
    return refused(
      {
        code: "unknown_evidence_id",
        tool: name,
        message: `${issues.length} evidence id${issues.length === 1 ? " was" : "s were"} not returned by any tool in this run: ${issues
          .slice(0, 5)
          .map((i) => i.message)
          .join("; ")}`,
        example: contract.example,
        received: args,
        issues,
        details: { known_evidence_ids: [...c.registry.ids].slice(0, 40) },
      },
      "grounding",
      args,
    );
  }
  const ungrounded = c.registry.ungroundedIssues(args);
  if (ungrounded.length === 0) return undefined;
  return refused(
    {
      code: "ungrounded_order",
      tool: name,
      message: `${ungrounded.length} order${ungrounded.length === 1 ? " is" : "s are"} not grounded in evidence about ${ungrounded.length === 1 ? "its" : "their"} own instrument: ${ungrounded
        .slice(0, 5)
        .map((i) => i.message)
        .join("; ")}`,
      example: contract.example,
      received: args,
      issues: ungrounded,
    },
    "grounding",
    args,
  );
}

function pendingRefusal(c: AdmissionContext, contract: ServedContract, args: Record<string, unknown>): Refusal | undefined {
  // The arguments passed the final tool's schema: abandon_error_codes is a list of strings when present.
  const codes = args.abandon_error_codes;
  const unresolved = c.pending.unresolved(Array.isArray(codes) ? codes.map(String) : undefined);
  if (unresolved.length === 0) return undefined;
  return refused(
    {
      code: "pending_corrections",
      tool: contract.name,
      message: `submit refused: ${unresolved.length} retryable error${unresolved.length === 1 ? " is" : "s are"} still pending: ${unresolved
        .map((p) => `${p.tool} (${p.error_code})`)
        .join(", ")}`,
      example: contract.example,
      received: args,
      details: { pending: unresolved },
    },
    "pending",
    args,
  );
}

function preview(v: unknown): unknown {
  if (typeof v === "string") return v.slice(0, RECEIVED_PREVIEW_CHARS);
  return v;
}
