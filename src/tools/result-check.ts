/**
 * TEST-ONLY: every result of the real tool handlers checked against its tool's output schema. Like
 * the fault hooks (src/util/test-fault.ts), nothing in the environment arms it: only code already
 * running in the process can, by setting the registered symbol below on globalThis (the vitest
 * setup file tests/setup/tool-results.ts does, for every test). The run's handler map passes
 * through `withResultCheck` (src/run/tool-handlers.ts); a checker that throws fails the call, and
 * the setup file fails the test that produced it.
 *
 * Without the symbol it is a no-op and the handlers are returned as they are.
 */
import type { HandlerResult, ToolHandler } from "../core/tool-handler.js";
import { contractOf } from "./catalogue.js";
import type { ToolContract } from "./types.js";

export const TOOL_RESULT_CHECK = Symbol.for("tradewarden.tests.tool-result-check");

export type ToolResultCheck = (contract: ToolContract, envelope: Readonly<Record<string, unknown>>) => void;

function installed(): ToolResultCheck | undefined {
  const check = (globalThis as Record<symbol, unknown>)[TOOL_RESULT_CHECK];
  return typeof check === "function" ? (check as ToolResultCheck) : undefined;
}

/** The handlers, each of whose successful answers is handed to the test checker when one is installed. */
export function withResultCheck(handlers: Record<string, ToolHandler>): Record<string, ToolHandler> {
  const check = installed();
  if (!check) return handlers;
  const out: Record<string, ToolHandler> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    const contract = contractOf(name);
    const seen = (r: HandlerResult): HandlerResult => {
      if (r.ok && contract) check(contract, { success: true, ...r.data });
      return r;
    };
    out[name] = (args, ctx) => {
      const r = handler(args, ctx);
      return r instanceof Promise ? r.then(seen) : seen(r);
    };
  }
  return out;
}
