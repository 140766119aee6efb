/**
 * The figures of a simulation, from its daily series. Pure: no I/O, no clock.
 *
 * Conventions (each also defined in the report): returns are simple daily returns of the account
 * value between consecutive simulated days; a year is 252 trading days; the risk-free rate is an
 * annual fraction (0 unless set), taken daily as rf/252; every figure is a plain fraction (0.1 is
 * 10%), never a percentage; a ratio whose denominator is 0 is reported as 0.
 */

import { type Static, Type } from "@sinclair/typebox";

const TRADING_DAYS_PER_YEAR = 252;

export interface DayPoint {
  day: string;
  /** Account value (base currency) at the day's reference prices. */
  value: number;
  /** Cash (base currency) at the same moment. */
  cash: number;
  /** The index's reference price that day (for the buy-and-hold comparison). */
  index: number;
}

export interface FillPoint {
  day: string;
  symbol: string;
  side: "BUY" | "SELL";
  quantity: number;
  /** Price in the base currency. */
  price: number;
  /** Commission in the base currency. */
  commission: number;
}

/** The figures of a simulation (report.json carries them at its top level, in this order). */
const MetricsSchema = Type.Object({
  days: Type.Number(),
  start_value: Type.Number(),
  end_value: Type.Number(),
  total_return: Type.Number(),
  annualised_return: Type.Number(),
  index_return: Type.Number(),
  index_annualised_return: Type.Number(),
  excess_return: Type.Number(),
  volatility: Type.Number(),
  sharpe: Type.Number(),
  sortino: Type.Number(),
  max_drawdown: Type.Number(),
  max_drawdown_days: Type.Number(),
  index_max_drawdown: Type.Number(),
  turnover: Type.Number(),
  hit_rate: Type.Number(),
  closed_trades: Type.Number(),
  exposure: Type.Number(),
  traded_notional: Type.Number(),
  commissions: Type.Number(),
});
export type Metrics = Static<typeof MetricsSchema>;

function dailyReturns(values: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < values.length; i++) {
    const prev = values[i - 1] as number;
    out.push(prev === 0 ? 0 : (values[i] as number) / prev - 1);
  }
  return out;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Sample standard deviation (n − 1); 0 below two points. */
export function stdev(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

function totalReturn(values: readonly number[]): number {
  if (values.length < 2 || values[0] === 0) return 0;
  return (values.at(-1) as number) / (values[0] as number) - 1;
}

/** (1 + total)^(252 / periods) − 1, periods = days − 1. */
export function annualise(total: number, periods: number): number {
  if (periods <= 0 || total <= -1) return total <= -1 ? -1 : 0;
  return (1 + total) ** (TRADING_DAYS_PER_YEAR / periods) - 1;
}

function volatility(returns: readonly number[]): number {
  return stdev(returns) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

/** (mean daily return − rf/252) / sample stdev × √252. */
export function sharpe(returns: readonly number[], riskFree = 0): number {
  const sd = stdev(returns);
  if (sd === 0) return 0;
  return ((mean(returns) - riskFree / TRADING_DAYS_PER_YEAR) / sd) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

/** (mean daily return − rf/252) / downside deviation × √252; downside deviation = √(mean of min(0, r − rf/252)²) over all days. */
export function sortino(returns: readonly number[], riskFree = 0): number {
  if (returns.length === 0) return 0;
  const rf = riskFree / TRADING_DAYS_PER_YEAR;
  const dd = Math.sqrt(mean(returns.map((r) => Math.min(0, r - rf) ** 2)));
  if (dd === 0) return 0;
  return ((mean(returns) - rf) / dd) * Math.sqrt(TRADING_DAYS_PER_YEAR);
}

/** Drawdown each day: 1 − value / running peak (a fraction, 0 at a new high). */
export function drawdowns(values: readonly number[]): number[] {
  let peak = Number.NEGATIVE_INFINITY;
  return values.map((v) => {
    peak = Math.max(peak, v);
    return peak > 0 ? 1 - v / peak : 0;
  });
}

/** The deepest drawdown, and the longest stretch underwater in trading days (from a peak to the first day back at it, or to the last day). */
export function maxDrawdown(values: readonly number[]): { depth: number; days: number } {
  const dd = drawdowns(values);
  let depth = 0;
  let longest = 0;
  let run = 0;
  for (const d of dd) {
    depth = Math.max(depth, d);
    run = d > 0 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return { depth, days: longest };
}

/** Realised trades: each SELL fill closes shares at the average cost (commissions included on both sides). */
export function closedTrades(fills: readonly FillPoint[]): number[] {
  const book = new Map<string, { qty: number; cost: number }>();
  const pnl: number[] = [];
  for (const f of fills) {
    const pos = book.get(f.symbol) ?? { qty: 0, cost: 0 };
    if (f.side === "BUY") {
      pos.qty += f.quantity;
      pos.cost += f.quantity * f.price + f.commission;
    } else if (pos.qty > 0) {
      const q = Math.min(f.quantity, pos.qty);
      const avg = pos.cost / pos.qty;
      pnl.push(q * f.price - f.commission - q * avg);
      pos.cost -= q * avg;
      pos.qty -= q;
    }
    book.set(f.symbol, pos);
  }
  return pnl;
}

export function computeMetrics(points: readonly DayPoint[], fills: readonly FillPoint[], opts: { riskFree?: number } = {}): Metrics {
  const values = points.map((p) => p.value);
  const index = points.map((p) => p.index);
  const returns = dailyReturns(values);
  const periods = Math.max(0, points.length - 1);
  const total = totalReturn(values);
  const indexTotal = totalReturn(index);
  const md = maxDrawdown(values);
  const traded = fills.reduce((a, f) => a + f.quantity * f.price, 0);
  const avgValue = mean(values);
  const years = periods / TRADING_DAYS_PER_YEAR;
  const trades = closedTrades(fills);
  const rf = opts.riskFree ?? 0;
  return {
    days: periods,
    start_value: values[0] ?? 0,
    end_value: values.at(-1) ?? 0,
    total_return: total,
    annualised_return: annualise(total, periods),
    index_return: indexTotal,
    index_annualised_return: annualise(indexTotal, periods),
    excess_return: total - indexTotal,
    volatility: volatility(returns),
    sharpe: sharpe(returns, rf),
    sortino: sortino(returns, rf),
    max_drawdown: md.depth,
    max_drawdown_days: md.days,
    index_max_drawdown: maxDrawdown(index).depth,
    turnover: avgValue > 0 && years > 0 ? traded / avgValue / years : 0,
    hit_rate: trades.length === 0 ? 0 : trades.filter((p) => p > 0).length / trades.length,
    closed_trades: trades.length,
    exposure: mean(points.map((p) => (p.value > 0 ? Math.max(0, p.value - p.cash) / p.value : 0))),
    traded_notional: traded,
    commissions: fills.reduce((a, f) => a + f.commission, 0),
  };
}

/** Definitions shown in the report, one per figure. */
export const METRIC_DEFINITIONS: Record<string, string> = {
  total_return: "End value ÷ start value − 1 (start: the first day's value, before any trade).",
  annualised_return: "(1 + total return)^(252 ÷ days) − 1 (days: the trading days simulated, each a daily return on the value before it).",
  index_return: "The index (SPX) bought and held over the same days: last reference price ÷ first − 1.",
  excess_return: "Total return − index return.",
  volatility: "Sample standard deviation of daily returns × √252.",
  sharpe: "(Mean daily return − risk-free ÷ 252) ÷ standard deviation of daily returns × √252; 0 when returns do not vary.",
  sortino: "(Mean daily return − risk-free ÷ 252) ÷ downside deviation × √252; downside deviation = √(mean of min(0, r − risk-free ÷ 252)²) over all days.",
  max_drawdown: "Deepest fall of the value from its running peak: max of 1 − value ÷ peak.",
  max_drawdown_days: "Longest stretch underwater, in trading days: from a peak to the first day back at it (or to the last day).",
  turnover: "Traded notional (buys + sells) ÷ average account value, per year (1 = the account traded once a year).",
  hit_rate: "Share of closed trades (sells, at average cost with commissions) that made money.",
  exposure: "Average share of the account's value held in instruments rather than cash, over the start (all cash) and each day's close.",
  orders: "Orders sent to the broker (kill-switch liquidation included).",
  blocked_by_rule: "Orders the risk gate blocked (in the proposal or at the final gate), counted per rule.",
  cost_usd: "What the model calls cost, in USD (0 for the scripted model).",
  trips: "Kill-switch trips: when the drawdown from the confirmed peak reached the limit (trading then halts until a reset).",
};
