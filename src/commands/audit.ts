/** `tradewarden audit <run-id, prefix, latest or path>`: verify a run's artifacts against every contract; exit 1 on any finding. */
import { auditRunDir } from "../records/audit.js";
import { EXIT } from "../core/exit-codes.js";
import type { CommandIO } from "./io.js";
import { runDirOrReport } from "./run-id.js";

export function cmdAudit(opts: { home: string; target: string; json: boolean }, io: CommandIO): number {
  const dir = runDirOrReport("audit", opts.home, opts.target, io);
  if (dir === null) return EXIT.USAGE_OR_CONFIG;
  const findings = auditRunDir(dir, io.env);
  if (opts.json) io.stdout(`${JSON.stringify({ run_dir: dir, ok: findings.length === 0, findings }, null, 2)}\n`);
  else if (findings.length === 0) io.stdout(`audit ok: ${dir}\n`);
  else {
    io.stdout(`audit: ${findings.length} finding(s) in ${dir}\n`);
    for (const f of findings) io.stdout(`  [${f.check}] ${f.message}\n`);
  }
  return findings.length === 0 ? EXIT.OK : EXIT.INTERNAL_ERROR;
}
