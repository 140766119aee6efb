/**
 * The report of a simulation (`report.json`, a public contract): the figures of `metrics.ts` over
 * the close-of-day values, the index bought and held over the same days, trips and resets, orders,
 * fills, gate blocks per rule, the model's cost, and the daily series the charts draw. Every
 * figure is a plain number, a fraction (0.1 is 10%), never a percentage. Pure.
 */
import type { DayRecord } from "./day-record.js";
import { computeMetrics, type DayPoint, drawdowns, type FillPoint, METRIC_DEFINITIONS, type Metrics } from "./metrics.js";
import type { SimulationMeta } from "./store.js";

const REPORT_FORMAT = "tradewarden-simulation-report/1";

export interface SimulationReport extends Metrics {
  format: typeof REPORT_FORMAT;
  name: string;
  from: string;
  to: string;
  status: SimulationMeta["status"];
  days_total: number;
  model: SimulationMeta["model"];
  config: SimulationMeta["config"];
  risk_free: number;
  index_symbol: string;
  kill_switch: { limit: number; tripped: boolean };
  trips: { day: string; run_id: string; drawdown: number; reason: string }[];
  resets: { day: string; reason: string; value: number }[];
  orders: number;
  fills: number;
  blocked: number;
  blocked_by_rule: Record<string, number>;
  orders_by_month: Record<string, number>;
  /** Kill-switch liquidation orders (outside the monthly quota): those of a day the account ended HALTED. */
  liquidation_orders: number;
  liquidation_by_month: Record<string, number>;
  /** The monthly order quota (limits.max_orders_per_month) of the simulation's config; null when unknown. */
  order_quota: number | null;
  outcomes: Record<string, number>;
  cost_usd: number;
  failure: SimulationMeta["failure"];
  series: {
    day: string[];
    value: number[];
    index_value: number[];
    drawdown: number[];
    gate_drawdown: number[];
    exposure: number[];
  };
  fill_list: (FillPoint & { run_id: string })[];
  definitions: Record<string, string>;
}

const round = (x: number, digits = 10) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Every figure rounded to 10 decimals, in the order `computeMetrics` gives them (report.json keeps it). */
function roundMetrics(m: Metrics): Metrics {
  return {
    days: round(m.days),
    start_value: round(m.start_value),
    end_value: round(m.end_value),
    total_return: round(m.total_return),
    annualised_return: round(m.annualised_return),
    index_return: round(m.index_return),
    index_annualised_return: round(m.index_annualised_return),
    excess_return: round(m.excess_return),
    volatility: round(m.volatility),
    sharpe: round(m.sharpe),
    sortino: round(m.sortino),
    max_drawdown: round(m.max_drawdown),
    max_drawdown_days: round(m.max_drawdown_days),
    index_max_drawdown: round(m.index_max_drawdown),
    turnover: round(m.turnover),
    hit_rate: round(m.hit_rate),
    closed_trades: round(m.closed_trades),
    exposure: round(m.exposure),
    traded_notional: round(m.traded_notional),
    commissions: round(m.commissions),
  };
}

/**
 * A day's kill-switch liquidation orders: a run that ends HALTED sent nothing but liquidations (the
 * gate blocks every proposal of a halted account, and a tripping run halts before it proposes).
 */
const liquidationOrders = (d: DayRecord) => (d.trading_state === "HALTED" ? d.orders : 0);

export function buildReport(meta: SimulationMeta, days: readonly DayRecord[], opts: { riskFree?: number; quota?: number } = {}): SimulationReport {
  const start: DayPoint = { day: "start", value: meta.capital, cash: meta.capital, index: meta.start_index };
  const points: DayPoint[] = [start, ...days.map((d) => ({ day: d.day, value: d.value, cash: d.cash, index: d.index }))];
  const fills: (FillPoint & { run_id: string })[] = days.flatMap((d) => d.fills.map((f) => ({ day: d.day, run_id: d.run_id, ...f })));
  const metrics = computeMetrics(points, fills, opts.riskFree !== undefined ? { riskFree: opts.riskFree } : {});
  const blocked: Record<string, number> = {};
  const byMonth: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const liquidationByMonth: Record<string, number> = {};
  for (const d of days) {
    for (const [code, n] of Object.entries(d.blocked)) blocked[code] = (blocked[code] ?? 0) + n;
    const month = d.day.slice(0, 7);
    byMonth[month] = (byMonth[month] ?? 0) + d.orders;
    if (liquidationOrders(d) > 0) liquidationByMonth[month] = (liquidationByMonth[month] ?? 0) + liquidationOrders(d);
    outcomes[d.outcome] = (outcomes[d.outcome] ?? 0) + 1;
  }
  const trips = days.filter((d) => d.trip).map((d) => ({ day: d.day, run_id: d.run_id, drawdown: round(d.trip?.drawdown ?? 0), reason: d.trip?.reason ?? "" }));
  const resets = days.filter((d) => d.reset).map((d) => ({ day: d.day, reason: d.reset?.reason ?? "", value: d.reset?.value ?? 0 }));
  const dd = drawdowns(points.map((p) => p.value)).slice(1);
  const rounded = roundMetrics(metrics);
  return {
    format: "tradewarden-simulation-report/1",
    name: meta.name,
    from: meta.from,
    to: meta.to,
    status: meta.status,
    days_total: meta.days_total,
    model: meta.model,
    config: meta.config,
    risk_free: opts.riskFree ?? 0,
    index_symbol: meta.index_symbol,
    ...rounded,
    kill_switch: { limit: meta.max_drawdown_pct / 100, tripped: trips.length > 0 },
    trips,
    resets,
    orders: days.reduce((a, d) => a + d.orders, 0),
    fills: fills.length,
    blocked: Object.values(blocked).reduce((a, b) => a + b, 0),
    blocked_by_rule: blocked,
    orders_by_month: byMonth,
    liquidation_orders: days.reduce((a, d) => a + liquidationOrders(d), 0),
    liquidation_by_month: liquidationByMonth,
    order_quota: opts.quota ?? null,
    outcomes,
    cost_usd: round(
      days.reduce((a, d) => a + d.cost_usd, 0),
      6,
    ),
    failure: meta.failure,
    series: {
      day: days.map((d) => d.day),
      value: days.map((d) => d.value),
      index_value: days.map((d) => (meta.start_index > 0 ? round((meta.capital * d.index) / meta.start_index, 2) : 0)),
      drawdown: dd.map((x) => round(x, 6)),
      gate_drawdown: days.map((d) => round(d.gate_drawdown, 6)),
      exposure: days.map((d) => (d.value > 0 ? round(Math.max(0, d.value - d.cash) / d.value, 6) : 0)),
    },
    fill_list: fills,
    definitions: METRIC_DEFINITIONS,
  };
}
