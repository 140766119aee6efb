/**
 * `tradewarden doctor [--json] [--ping]`: what is wrong with this set-up and how to fix it. Each
 * check ✔ or ✖ (with its fix on the next line); exit 0 only when every check passes, 1 otherwise.
 */
import { noticeTo } from "../journal/load.js";
import { type DoctorReport, runDoctor } from "../run/doctor/index.js";
import { EXIT } from "../core/exit-codes.js";
import type { CommandIO } from "./io.js";

export function formatDoctor(report: DoctorReport): string {
  const lines = [`tradewarden doctor: ${report.home}`];
  let section = "";
  for (const c of report.checks) {
    if (c.section !== section) {
      section = c.section;
      lines.push("", section);
    }
    lines.push(`  ${c.ok ? "✔" : "✖"} ${c.summary}`);
    if (!c.ok && c.fix) lines.push(`      fix: ${c.fix}`);
  }
  const failed = report.checks.filter((c) => !c.ok).length;
  lines.push("", failed === 0 ? `all ${report.checks.length} checks passed` : `${failed} of ${report.checks.length} checks failed`);
  return `${lines.join("\n")}\n`;
}

export async function cmdDoctor(opts: { home: string; json: boolean; ping: boolean }, io: CommandIO): Promise<number> {
  const report = await runDoctor({ home: opts.home, env: io.env, ping: opts.ping, notice: noticeTo(io.stderr) });
  io.stdout(opts.json ? `${JSON.stringify(report)}\n` : formatDoctor(report));
  return report.ok ? EXIT.OK : EXIT.INTERNAL_ERROR;
}
