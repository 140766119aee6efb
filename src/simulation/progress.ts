/**
 * What a simulation says while it runs and when it ends: the live line (terminal), one plain line
 * per day, the JSONL objects (`--json`) and the closing summary. Pure formatting.
 */
import { count, decimal, money, pct as percent, usd } from "../core/format.js";
import type { DayRecord } from "./day-record.js";
import type { SimulationReport } from "./report.js";
import type { SimulationProgress } from "./runner.js";
import type { SimulationMeta } from "./store.js";

/** A fraction (0.1234) as a percentage (12.34%). */
const pct = (x: number, d = 2) => percent(x * 100, d);

function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}` : `${m}:${String(sec).padStart(2, "0")}`;
}

/** Time left at the pace so far (null before the first day). */
function eta(p: SimulationProgress): number | null {
  return p.done === 0 ? null : (p.elapsedMs / p.done) * (p.total - p.done);
}

/** Running totals the live line shows. */
export class Tally {
  orders = 0;
  trips = 0;
  peak = 0;
  worst = 0;
  /** The kill switch's limit (fraction of the peak), once the simulation has said it. */
  limit: number | null = null;
  /** The account's base currency, named beside its value once the simulation has said it. */
  currency = "";
  add(d: DayRecord): void {
    this.orders += d.orders;
    if (d.trip) this.trips++;
    this.peak = Math.max(this.peak, d.value);
    this.worst = Math.max(this.worst, this.drawdown(d));
  }
  /** The drawdown from the running high of the day values (not the kill switch's measure). */
  drawdown(d: DayRecord): number {
    return this.peak > 0 ? 1 - d.value / this.peak : 0;
  }
}

/** The kill switch's drawdown (from its confirmed peak) beside its limit: the figure that trips it. */
function killSwitchDrawdown(d: DayRecord, t: Tally): string {
  return `dd ${pct(d.gate_drawdown)}${t.limit === null ? "" : ` of ${pct(t.limit, 1)} limit`}`;
}

/**
 * The live line, fitted to the terminal: the day, value, the kill switch's drawdown and the ETA
 * always stay; the running-high drawdown, spend, trips and orders go first, in that order, when the
 * line would not fit (never cut mid-word).
 */
export function liveLine(d: DayRecord, p: SimulationProgress, t: Tally, columns = 120): string {
  const e = eta(p);
  const width = String(p.total).length;
  const fromHigh = t.drawdown(d);
  const parts: { text: string; drop: number }[] = [
    { text: `[${String(p.done).padStart(width)}/${p.total}] ${d.day}`, drop: 0 },
    { text: `value ${money(d.value, t.currency)}`, drop: 0 },
    { text: killSwitchDrawdown(d, t), drop: 0 },
    { text: Math.abs(fromHigh - d.gate_drawdown) >= 0.0005 ? `(from high ${pct(fromHigh)})` : "", drop: 1 },
    { text: `orders ${count(t.orders)}`, drop: 4 },
    { text: t.trips ? `trips ${t.trips}` : "", drop: 3 },
    { text: `spend ${usd(p.costUsd)}`, drop: 2 },
    { text: `ETA ${e === null ? "—" : formatDuration(e)}`, drop: 0 },
  ];
  const join = (ps: typeof parts) =>
    ps
      .filter((x) => x.text)
      .map((x) => x.text)
      .join("  ");
  let shown = parts;
  for (const level of [1, 2, 3, 4]) {
    if (join(shown).length <= columns - 1) break;
    shown = shown.filter((x) => x.drop !== level);
  }
  const line = join(shown);
  return line.length > columns - 1 ? line.slice(0, columns - 1) : line;
}

export function plainLine(d: DayRecord, t: Tally): string {
  return `${d.day}  ${d.outcome.padEnd(18)} ${money(d.value, t.currency).padStart(18)}  ${killSwitchDrawdown(d, t)}  orders ${count(d.orders)}${d.trip ? `  KILL SWITCH TRIPPED: ${d.trip.reason}` : ""}${d.reset ? `  reset: ${d.reset.reason}` : ""}`;
}

export function dayJson(d: DayRecord, p: SimulationProgress): Record<string, unknown> {
  return {
    type: "day",
    trading_day: d.day,
    run_id: d.run_id,
    outcome: d.outcome,
    exit_code: d.exit_code,
    value: d.value,
    peak: d.peak,
    drawdown: d.gate_drawdown,
    orders: d.orders,
    cost_usd: d.cost_usd,
    trading_state: d.trading_state,
    ...(d.trip ? { trip: d.trip } : {}),
    ...(d.reset ? { reset: d.reset } : {}),
    done: p.done,
    total: p.total,
    spend_usd: p.costUsd,
  };
}

export function summaryJson(meta: SimulationMeta, r: SimulationReport, dir: string, exitCode: number): Record<string, unknown> {
  return {
    summary: {
      name: meta.name,
      dir,
      status: meta.status,
      runs: r.days,
      days_total: r.days_total,
      outcomes: r.outcomes,
      total_return: r.total_return,
      index_return: r.index_return,
      max_drawdown: r.max_drawdown,
      kill_switch_tripped: r.kill_switch.tripped,
      trips: r.trips,
      orders: r.orders,
      blocked_by_rule: r.blocked_by_rule,
      cost_usd: r.cost_usd,
      failure: meta.failure,
      report_json: `${dir}/report.json`,
      report_html: `${dir}/report.html`,
      exit_code: exitCode,
    },
  };
}

export function summaryText(meta: SimulationMeta, r: SimulationReport, dir: string): string {
  const lines = [
    `simulation ${meta.name}: ${meta.status}, ${count(r.days)} of ${count(r.days_total)} trading day(s) ${r.days > 0 ? `${meta.from} → ${r.series.day.at(-1) ?? meta.to}` : `(none run; planned ${meta.from} → ${meta.to})`}, ${formatDuration(meta.elapsed_ms)}`,
    `total return ${pct(r.total_return)} (${r.index_symbol} bought and held ${pct(r.index_return)}), annualised ${pct(r.annualised_return)}, volatility ${pct(r.volatility)}, Sharpe ${decimal(r.sharpe)}, Sortino ${decimal(r.sortino)}`,
    `max drawdown ${pct(r.max_drawdown)}, ${count(r.max_drawdown_days)} trading day(s) underwater at most; exposure ${pct(r.exposure, 1)}, turnover ${decimal(r.turnover)}/year, hit rate ${pct(r.hit_rate, 1)} of ${count(r.closed_trades)} trade(s)`,
  ];
  if (r.trips.length > 0) {
    for (const t of r.trips) lines.push(`KILL SWITCH TRIPPED on ${t.day}: ${t.reason}`);
    lines.push(
      r.resets.length > 0
        ? `${r.resets.length} automatic reset(s): ${r.resets.map((x) => x.day).join(", ")}`
        : "trading stayed halted after the trip (see --reset-after)",
    );
  } else lines.push(`kill switch not tripped (limit ${pct(r.kill_switch.limit, 1)})`);
  const blocked = Object.entries(r.blocked_by_rule)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${count(n)}`)
    .join(", ");
  lines.push(
    `${count(r.orders)} order(s) sent, ${count(r.fills)} fill(s), ${count(r.blocked)} blocked by the gate${blocked ? ` (${blocked})` : ""}; model cost ${usd(r.cost_usd)}`,
  );
  if (meta.failure) lines.push(`stopped: ${meta.failure.message}${meta.failure.run_id ? ` (run ${meta.failure.run_id})` : ""}`);
  lines.push(`report: ${dir}/report.html (and report.json)`);
  // Only once a day has run: before that there is no run to audit.
  if (r.days > 0) lines.push(`audit or replay a day: tradewarden --home ${dir} audit <run-id>`);
  return `${lines.join("\n")}\n`;
}
