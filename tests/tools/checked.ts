/**
 * A handler as a test calls it directly: arguments as loose as the test needs, and every
 * successful answer checked against the tool's output schema (the same checker the runtime runs
 * in tests, tests/setup/tool-results.ts).
 */
import { contractOf, type ToolHandlers, type ToolName } from "../../src/tools/catalogue.js";
import { dispatchable } from "../../src/tools/define.js";
import type { HandlerResult, ToolHandler } from "../../src/tools/types.js";
import { checkResult } from "../setup/tool-results.js";

export function checked<N extends ToolName>(name: N, handler: ToolHandlers[N]): ToolHandler {
  const contract = contractOf(name);
  if (!contract) throw new Error(`no tool ${name}`);
  const loose = dispatchable({ [name]: handler })[name] as ToolHandler;
  const check = (r: HandlerResult): HandlerResult => {
    if (r.ok) checkResult(contract, { success: true, ...r.data });
    return r;
  };
  // A synchronous handler stays synchronous.
  return (args, ctx) => {
    const r = loose(args, ctx);
    return r instanceof Promise ? r.then(check) : check(r);
  };
}

/** Every handler of a map, checked. */
export function checkedAll<H extends Partial<ToolHandlers>>(handlers: H): { [K in keyof H]: ToolHandler } {
  const out: Record<string, ToolHandler> = {};
  for (const [name, h] of Object.entries(handlers)) out[name] = checked(name as ToolName, h as ToolHandlers[ToolName]);
  return out as { [K in keyof H]: ToolHandler };
}
