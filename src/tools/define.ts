/**
 * `defineTool`: what one tool is, in one object. Its name, kind and contract (the model-facing
 * description, example, input and output schemas, call limit) plus what the runtime needs to know
 * of it (`mutates`, `grounded`) and the one-line summary of a result (`summarize`). The handler's type follows from the schemas: it receives
 * `Static<typeof input>` and answers `Static<typeof output>` (without the envelope's `success`), and
 * the catalogue's handler map is a mapped type over the tool names, so a tool without a handler, or
 * a handler answering a field its output schema lacks, does not compile.
 */
import type { Static, TObject } from "@sinclair/typebox";
import type { GateDecision } from "../core/gate-types.js";
import type { HandlerFailure, ToolCallContext, ToolHandler } from "../core/tool-handler.js";
import type { ToolContract } from "./types.js";

export interface ToolDefinition<N extends string = string, I extends TObject = TObject, O extends TObject = TObject> extends ToolContract<I, O> {
  readonly name: N;
  /** A successful call changes the account's state (kind `write`) or ends the run (kind `final`). */
  readonly mutates: boolean;
  /** The call's `orders[*].evidence_ids` must name evidence returned earlier in the run. */
  readonly grounded: boolean;
  /**
   * One line about a successful result, for the console and the headless log (the `tool.result`
   * event's `summary`); the runtime hands it to the agent with the dispatch outcome.
   */
  summarize(result: Omit<Static<O>, "success">): string;
}

/** Defines a tool. Refuses a definition whose `mutates` disagrees with its kind. */
export function defineTool<const N extends string, I extends TObject, O extends TObject>(def: ToolDefinition<N, I, O>): ToolDefinition<N, I, O> {
  const writes = def.kind === "write" || def.kind === "final";
  if (def.mutates !== writes)
    throw new Error(`tool ${def.name}: mutates is ${def.mutates} but kind ${def.kind} ${writes ? "changes" : "does not change"} state`);
  return def;
}

/** The arguments a tool's handler receives (validated against its input schema before the call). */
export type ArgsOf<T extends ToolDefinition> = Static<T["input"]>;
/** What a tool's handler answers on success: its output schema, less the envelope's `success`. */
export type ResultOf<T extends ToolDefinition> = Omit<Static<T["output"]>, "success">;

/**
 * A handler's typed answer: the result, the evidence ids it returned and (check_orders,
 * submit_orders) the gate's typed decisions for the run's events; or a failure.
 */
type TypedHandlerResult<R> = { ok: true; data: R; evidenceIds?: string[]; verdicts?: GateDecision[] } | HandlerFailure;

/** The handler of one defined tool. */
export type HandlerOf<T extends ToolDefinition> = (
  args: ArgsOf<T>,
  ctx: ToolCallContext,
) => TypedHandlerResult<ResultOf<T>> | Promise<TypedHandlerResult<ResultOf<T>>>;

/** One handler per tool of a list of definitions, keyed by name. */
export type HandlersFor<Tools extends readonly ToolDefinition[]> = { [T in Tools[number] as T["name"]]: HandlerOf<T> };

/**
 * The runtime's view of a typed handler map: it dispatches by name and hands each handler only
 * arguments already validated against that tool's input schema (runtime.ts, admission), which is
 * what makes this one widening sound.
 */
export function dispatchable<H extends object>(handlers: H): Record<string, ToolHandler> {
  return handlers as unknown as Record<string, ToolHandler>;
}

/** A defined tool's handler answer (success or failure). */
export type AnswerOf<T extends ToolDefinition> = TypedHandlerResult<ResultOf<T>>;

/** The summary of a result without a line of its own: `ok (a, b, …)`, its first six fields. */
export function fieldList(result: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(result).filter((k) => k !== "success");
  return `ok (${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", …" : ""})`;
}
