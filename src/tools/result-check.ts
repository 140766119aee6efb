/**
 * TEST-ONLY: every result of the real tool handlers checked against its tool's output schema.
 *
 * In the test process, like the fault hooks (src/util/test-fault.ts), only code already running
 * there arms it, by setting the registered symbol below on globalThis (the vitest setup file
 * tests/setup/tool-results.ts does, for every test). In a CLI child the suite spawns, the CLI arms
 * it (`armChildResultCheck`) when TRADEWARDEN_CHECK_TOOL_RESULTS=1, which tests/global-setup.ts sets
 * for the whole suite: a violation is named on stderr and fails the command. The run's handler map
 * passes through `withResultCheck` (src/run/tool-handlers.ts); a checker that throws fails the call.
 *
 * Unarmed it is a no-op and the handlers are returned as they are. The check itself (a result
 * against its output schema) is src/tools/result-schema.ts.
 */
import type { HandlerResult, ToolHandler } from "../core/tool-handler.js";
import { contractOf } from "./catalogue.js";
import { schemaCheck, TOOL_RESULT_CHECK, type ToolResultCheck } from "./result-schema.js";

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

/**
 * Arms the check in a CLI child of the test suite (the CLI calls it only when
 * TRADEWARDEN_CHECK_TOOL_RESULTS=1): each violation is written to stderr at once, and `violated()`
 * tells the CLI to fail the command whatever it would have answered.
 */
export function armChildResultCheck(stderr: (text: string) => void): { violated(): boolean } {
  let violations = 0;
  (globalThis as Record<symbol, unknown>)[TOOL_RESULT_CHECK] = schemaCheck((message) => {
    violations += 1;
    stderr(`tradewarden: tool result check (TRADEWARDEN_CHECK_TOOL_RESULTS): ${message}\n`);
  });
  return { violated: () => violations > 0 };
}
