/** `tradewarden audit <run-id, prefix, latest or path>`: verify a run's artifacts against every contract; exit 1 on any finding. */
import { auditRunDir } from "../records/audit.js";
import { inHomeRuns } from "../run/audit-digests.js";
import { EXIT } from "../core/exit-codes.js";
import type { CommandIO } from "./io.js";
import { resolveRun } from "./run-id.js";
import { TwError } from "../core/errors.js";

const UNSEALED =
  " (a folder outside a home's runs/: its artifacts were checked against every contract, but not against the SHA-256s a journal records when a run closes)";

export async function cmdAudit(opts: { home: string; target: string; json: boolean }, io: CommandIO): Promise<number> {
  let resolved: Awaited<ReturnType<typeof resolveRun>>;
  try {
    resolved = await resolveRun(opts.home, opts.target);
  } catch (e) {
    if (!(e instanceof TwError)) throw e;
    io.stderr(`tradewarden audit: ${e.message}\n`);
    return e.exitCode;
  }
  const dir = resolved.dir;
  // A run the journal holds whose folder is gone is a finding like any missing artifact.
  const findings = resolved.kind === "gone" ? [{ check: "files", message: resolved.message }] : auditRunDir(dir, io.env);
  if (opts.json) io.stdout(`${JSON.stringify({ run_dir: dir, ok: findings.length === 0, findings }, null, 2)}\n`);
  else if (findings.length === 0) io.stdout(`audit ok: ${dir}${inHomeRuns(dir) ? "" : UNSEALED}\n`);
  else {
    io.stdout(`audit: ${findings.length} finding(s) in ${dir}\n`);
    for (const f of findings) io.stdout(`  [${f.check}] ${f.message}\n`);
  }
  return findings.length === 0 ? EXIT.OK : EXIT.INTERNAL_ERROR;
}
