/** `tradewarden replay <run-id or path>`: re-run the agent loop from a run's recorded model traffic; fails closed on drift. */
import { EXIT } from "../core/exit-codes.js";
import { replayRun } from "../records/replay.js";
import { requireConfig } from "../config/require.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";
import { runDirOrReport } from "./run-id.js";

export async function cmdReplay(opts: { home: string; target: string; json: boolean; mask?: boolean }, io: CommandIO): Promise<number> {
  const run = await runDirOrReport("replay", opts.home, opts.target, io);
  if ("exit" in run) return run.exit;
  const dir = run.dir;
  const { config, universe } = requireConfig(opts.home);
  try {
    // A masked run always replays masked (its requests were masked); --mask insists on it.
    const report = await replayRun(dir, config, undefined, { requireMask: opts.mask === true, universe });
    const same = report.outcome === report.recordedOutcome;
    if (opts.json) io.stdout(`${JSON.stringify({ ok: same, ...report })}\n`);
    else
      io.stdout(
        `replay of ${report.runId}: ${report.calls} model call(s) replayed with identical requests; outcome ${report.outcome} (recorded ${report.recordedOutcome ?? "none"})\n`,
      );
    if (!same) {
      if (!opts.json) io.stderr("tradewarden replay: the outcome differs from the recording\n");
      return EXIT.INTERNAL_ERROR;
    }
    return EXIT.OK;
  } catch (e) {
    if (e instanceof TwError) {
      if (opts.json) io.stdout(`${JSON.stringify({ ok: false, code: e.code, error: e.message })}\n`);
      io.stderr(`tradewarden replay: ${e.code}: ${e.message}\n`);
      return e.exitCode === EXIT.USAGE_OR_CONFIG ? EXIT.USAGE_OR_CONFIG : EXIT.INTERNAL_ERROR;
    }
    throw e;
  }
}
