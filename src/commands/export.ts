/**
 * `tradewarden export <run> [--format json|tradecat]`: prints a run's record — tradewarden's own
 * research-cycle envelope (json), or TradeCat's research-cycle shape (tradecat), derived from the
 * run's artifacts and checked against TradeCat's schema and audit rules before it is printed.
 */
import { EXIT } from "../core/exit-codes.js";
import { researchCycleOf } from "../run/envelopes.js";
import { tradecatOfRun } from "../run/tradecat-export.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";
import { runDirOrReport } from "./run-id.js";

export const EXPORT_FORMATS = ["json", "tradecat"] as const;

export async function cmdExport(opts: { home: string; target: string; format: string }, io: CommandIO): Promise<number> {
  if (!(EXPORT_FORMATS as readonly string[]).includes(opts.format)) {
    io.stderr(`tradewarden export: unknown format "${opts.format}"; use one of: ${EXPORT_FORMATS.join(", ")}\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const run = await runDirOrReport("export", opts.home, opts.target, io);
  if ("exit" in run) return run.exit;
  const dir = run.dir;
  try {
    const doc = opts.format === "tradecat" ? tradecatOfRun(dir) : researchCycleOf(dir);
    io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof TwError) {
      io.stderr(`tradewarden export: ${e.code}: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
