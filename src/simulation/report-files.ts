/** Writes a simulation's `report.json` and `report.html` from its records (atomically, each). */
import { loadConfig } from "../config/load.js";
import { writeFileAtomicSync } from "../util/atomic-write.js";
import type { DayRecord } from "./day-record.js";
import { renderHtml } from "./html.js";
import type { SimulationPaths } from "./paths.js";
import { buildReport, type SimulationReport } from "./report.js";
import type { SimulationMeta } from "./store.js";

export function writeReport(paths: SimulationPaths, meta: SimulationMeta, days: readonly DayRecord[]): SimulationReport {
  // The quota the liquidations are marked apart from: the simulation's own effective config.
  const config = loadConfig(paths.dir);
  const report = buildReport(meta, days, config.ok ? { quota: config.config.limits.max_orders_per_month } : {});
  writeFileAtomicSync(paths.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  writeFileAtomicSync(paths.reportHtml, renderHtml(report));
  return report;
}
