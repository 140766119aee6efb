/**
 * The tool-contract layer's types. A tool is one definition (contract, `defineTool`) plus a handler
 * bound at registry build time by its adapter under `handlers/`, which calls the domain modules.
 */
import type { TSchema } from "@sinclair/typebox";

/**
 * What a tool does: `read` looks; `write` changes the account's own notes, watchlist or standing
 * orders (proposals, never orders); `dry_run` runs orders through the gate on a copy; `final` ends the run.
 */
type ToolKind = "read" | "write" | "dry_run" | "final";
type ToolGroup = "portfolio" | "market" | "research" | "screening" | "watchlist" | "memory" | "sandbox" | "orders";

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

/**
 * A contract as a contract set serves it (src/tools/versions.ts): today's tools carry TypeBox
 * schemas, a frozen version's tools its snapshot's plain JSON Schema; either is rendered, validated
 * and compared as plain JSON, so here the schemas are only known to be objects.
 */
export type ServedContract = Omit<ToolContract, "input" | "output"> & { input: object; output: object };

export type { HandlerFailure, HandlerResult, HandlerSuccess, ToolCallContext, ToolHandler, ToolMasking } from "../core/tool-handler.js";
