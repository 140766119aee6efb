/**
 * `tradewarden tools call NAME 'JSON-ARGS' [--as-of DAY] [--json]`: one tool as a run on that day
 * would call it, printing what the model would receive.
 */
import { EXIT } from "../core/exit-codes.js";
import { noticeTo } from "../journal/load.js";
import { callTool } from "../run/tool-call.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";

export async function cmdToolsCall(opts: { home: string; tool: string; args?: string; asOf?: string; json: boolean }, io: CommandIO): Promise<number> {
  try {
    const report = await callTool({
      home: opts.home,
      tool: opts.tool,
      args: opts.args ?? "{}",
      ...(opts.asOf ? { asOf: opts.asOf } : {}),
      env: io.env,
      notice: noticeTo(io.stderr),
    });
    const o = report.outcome;
    const note = report.state === "throwaway_copy" ? "state-changing tool: it ran against a throwaway copy of the state; nothing was kept" : "read-only tool";
    if (opts.json) {
      io.stdout(
        `${JSON.stringify({
          tool: report.tool,
          trading_day: report.trading_day,
          contract_version: report.contract_version,
          state: report.state,
          stage: o.stage,
          success: o.success,
          truncated: o.truncated,
          result: JSON.parse(o.text),
        })}\n`,
      );
    } else {
      io.stderr(`tools call: ${report.tool} as a run on ${report.trading_day} would (${report.contract_version}); ${note}\n`);
      io.stdout(`${JSON.stringify(JSON.parse(o.text), null, 2)}\n`);
    }
    // The caller's own mistakes (no such tool, arguments that are not JSON) are usage errors.
    return o.stage === "unknown_tool" || o.stage === "parse" ? EXIT.USAGE_OR_CONFIG : EXIT.OK;
  } catch (e) {
    if (e instanceof TwError) {
      io.stderr(`tradewarden tools call: ${e.code}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
