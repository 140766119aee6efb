/** `tradewarden audit <run-id or path>`: verify a run's artifacts against every contract; exit 1 on any finding. */
import { existsSync, statSync } from "node:fs";
import { auditRunDir } from "../records/audit.js";
import { EXIT } from "../core/exit-codes.js";
import { homePaths } from "../util/paths.js";
import type { CommandIO } from "./io.js";

export function resolveRunDir(home: string, target: string): string | null {
  if (existsSync(target) && statSync(target).isDirectory()) return target;
  const inHome = homePaths(home).runDir(target);
  return existsSync(inHome) ? inHome : null;
}

export function cmdAudit(opts: { home: string; target: string; json: boolean }, io: CommandIO): number {
  const dir = resolveRunDir(opts.home, opts.target);
  if (!dir) {
    io.stderr(`tradewarden audit: no run "${opts.target}" (neither a folder nor a run id under ${homePaths(opts.home).runs})\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const findings = auditRunDir(dir, io.env);
  if (opts.json) io.stdout(`${JSON.stringify({ run_dir: dir, ok: findings.length === 0, findings }, null, 2)}\n`);
  else if (findings.length === 0) io.stdout(`audit ok: ${dir}\n`);
  else {
    io.stdout(`audit: ${findings.length} finding(s) in ${dir}\n`);
    for (const f of findings) io.stdout(`  [${f.check}] ${f.message}\n`);
  }
  return findings.length === 0 ? EXIT.OK : EXIT.INTERNAL_ERROR;
}
