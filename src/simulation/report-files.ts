/** Writes a simulation's `report.json` and `report.html` from its records (atomically, each). */
import { writeFileAtomicSync } from "../util/atomic-write.js";
import type { DayRecord } from "./day-record.js";
import { renderHtml } from "./html.js";
import type { SimulationPaths } from "./paths.js";
import { buildReport, type SimulationReport } from "./report.js";
import type { SimulationMeta } from "./store.js";

export function writeReport(paths: SimulationPaths, meta: SimulationMeta, days: readonly DayRecord[]): SimulationReport {
  const report = buildReport(meta, days);
  writeFileAtomicSync(paths.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  writeFileAtomicSync(paths.reportHtml, renderHtml(report));
  return report;
}
