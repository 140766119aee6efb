/** Writes a simulation's `report.json` and `report.html` from its records (atomically, each). */
import { renameSync, writeFileSync } from "node:fs";
import type { DayRecord } from "./day-record.js";
import { renderHtml } from "./html.js";
import type { SimulationPaths } from "./paths.js";
import { buildReport, type SimulationReport } from "./report.js";
import type { SimulationMeta } from "./store.js";

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function writeReport(paths: SimulationPaths, meta: SimulationMeta, days: readonly DayRecord[]): SimulationReport {
  const report = buildReport(meta, days);
  writeAtomic(paths.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  writeAtomic(paths.reportHtml, renderHtml(report));
  return report;
}
