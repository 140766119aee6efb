/**
 * `tradewarden simulate report NAME`, `simulate list` and `simulate compare A B …`: a
 * simulation's report rebuilt from its day records, every simulation of the home in a table, and
 * several side by side.
 */
import { existsSync, readFileSync } from "node:fs";
import { count, decimal, pct as percent, usd } from "../core/format.js";
import { EXIT } from "../core/exit-codes.js";
import { writeReport } from "../simulation/report-files.js";
import { buildReport, type SimulationReport } from "../simulation/report.js";
import { listSimulationNames, openSimulation } from "../simulation/store.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";

/** A fraction (0.123) as a percentage (12.3%). */
const pct = (x: number, d = 1) => percent(x * 100, d);

export function cmdSimulateReport(opts: { home: string; name: string; json: boolean }, io: CommandIO): number {
  const { paths, meta, days } = openSimulation(opts.home, opts.name);
  const report = writeReport(paths, meta, days);
  if (opts.json) io.stdout(`${JSON.stringify(report)}\n`);
  else io.stdout(`report of ${meta.name} (${report.days} day(s), ${meta.status}) rebuilt:\n  ${paths.reportJson}\n  ${paths.reportHtml}\n`);
  return EXIT.OK;
}

/**
 * The saved report, or one built from the day records when it is missing or unreadable, or while the
 * simulation is still running (a report saved mid-way by `simulate report` would freeze its figures).
 */
function reportOf(home: string, name: string): SimulationReport {
  const { paths, meta, days } = openSimulation(home, name);
  if (meta.status !== "running" && existsSync(paths.reportJson)) {
    try {
      // The saved report of a simulation whose process died still says "running": the record decides.
      return { ...(JSON.parse(readFileSync(paths.reportJson, "utf8")) as SimulationReport), status: meta.status };
    } catch {
      // rebuilt below
    }
  }
  return buildReport(meta, days);
}

function renderTable(head: string[], rows: string[][], rightFrom = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= rightFrom ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return `${[line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n")}\n`;
}

/** A simulation of the list: its report, or why its records cannot be read (one damaged simulation hides no other). */
type Listed = { name: string; report: SimulationReport } | { name: string; error: string };

function listed(home: string, name: string): Listed {
  try {
    return { name, report: reportOf(home, name) };
  } catch (e) {
    if (e instanceof TwError) return { name, error: e.message };
    throw e;
  }
}

/** A simulation as `simulate list --json` shows it. */
function listRow(r: SimulationReport) {
  return {
    name: r.name,
    status: r.status,
    from: r.from,
    to: r.to,
    days: r.days,
    days_total: r.days_total,
    model: r.model.id,
    total_return: r.total_return,
    index_return: r.index_return,
    max_drawdown: r.max_drawdown,
    trips: r.trips.length,
    orders: r.orders,
    cost_usd: r.cost_usd,
  };
}

export function cmdSimulateList(opts: { home: string; json: boolean }, io: CommandIO): number {
  const all = listSimulationNames(opts.home).map((n) => listed(opts.home, n));
  const broken = all.flatMap((l) => ("error" in l ? [l] : []));
  const reports = all.flatMap((l) => ("report" in l ? [l.report] : []));
  for (const b of broken) io.stderr(`tradewarden simulate list: ${b.name}: ${b.error}\n`);
  const exit = broken.length > 0 ? EXIT.INTERNAL_ERROR : EXIT.OK;
  if (opts.json) {
    const rows = all.map((l) => ("error" in l ? { name: l.name, status: "unreadable", error: l.error } : listRow(l.report)));
    io.stdout(`${JSON.stringify(rows)}\n`);
    return exit;
  }
  if (all.length === 0) {
    io.stdout("no simulations yet: `tradewarden simulate --from YYYY-MM-DD --to YYYY-MM-DD --name NAME` starts one\n");
    return EXIT.OK;
  }
  const rows = reports.map((r) => [
    r.name,
    r.status,
    `${r.from}→${r.to}`,
    `${r.days}/${r.days_total}`,
    r.model.id,
    pct(r.total_return),
    pct(r.index_return),
    pct(r.max_drawdown),
    count(r.trips.length),
    count(r.orders),
    usd(r.cost_usd),
  ]);
  for (const b of broken) rows.push([b.name, "unreadable", "", "", "", "", "", "", "", "", ""]);
  io.stdout(renderTable(["name", "status", "period", "days", "model", "return", "index", "max dd", "trips", "orders", "cost"], rows, 3));
  return exit;
}

/** Each compared row: its label, the report field `--json` carries ("" for none), its cell. */
const COMPARED: [string, keyof SimulationReport | "", (r: SimulationReport) => string][] = [
  ["period", "", (r) => `${r.from}→${r.to}`],
  ["days", "days", (r) => `${count(r.days)}/${count(r.days_total)}`],
  ["model", "", (r) => r.model.id],
  ["total return", "total_return", (r) => pct(r.total_return, 2)],
  ["annualised", "annualised_return", (r) => pct(r.annualised_return, 2)],
  ["index return", "index_return", (r) => pct(r.index_return, 2)],
  ["volatility", "volatility", (r) => pct(r.volatility, 2)],
  ["Sharpe", "sharpe", (r) => decimal(r.sharpe)],
  ["Sortino", "sortino", (r) => decimal(r.sortino)],
  ["max drawdown", "max_drawdown", (r) => pct(r.max_drawdown, 2)],
  ["days underwater", "max_drawdown_days", (r) => count(r.max_drawdown_days)],
  ["turnover/yr", "turnover", (r) => decimal(r.turnover)],
  ["hit rate", "hit_rate", (r) => pct(r.hit_rate)],
  ["exposure", "exposure", (r) => pct(r.exposure)],
  ["trips", "trips", (r) => `${r.trips.length}${r.trips[0] ? ` (${r.trips[0].day})` : ""}`],
  ["orders", "orders", (r) => count(r.orders)],
  ["blocked", "blocked_by_rule", (r) => count(r.blocked)],
  ["cost", "cost_usd", (r) => usd(r.cost_usd)],
];

export function cmdSimulateCompare(opts: { home: string; names: string[]; json: boolean }, io: CommandIO): number {
  if (opts.names.length < 2) throw new TwError("usage", "simulate compare needs at least two simulation names", EXIT.USAGE_OR_CONFIG);
  const reports = opts.names.map((n) => reportOf(opts.home, n));
  if (opts.json) {
    const keys = COMPARED.flatMap(([, k]) => (k === "" ? [] : [k]));
    io.stdout(`${JSON.stringify(reports.map((r) => ({ name: r.name, ...Object.fromEntries(keys.map((k) => [k, r[k]])) })))}\n`);
    return EXIT.OK;
  }
  const rows = COMPARED.map(([label, , f]) => [label, ...reports.map(f)]);
  io.stdout(renderTable(["", ...reports.map((r) => r.name)], rows, 1));
  return EXIT.OK;
}
