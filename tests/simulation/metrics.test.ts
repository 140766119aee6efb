/**
 * The report's figures against values worked out by hand on a tiny fixed series:
 * values 100 → 110 → 99 → 108.9 (daily returns +10%, −10%, +10%), the index 50 → 50 → 55 → 60,
 * one buy and two sells.
 */
import { describe, expect, it } from "vitest";
import {
  annualise,
  closedTrades,
  computeMetrics,
  type DayPoint,
  type FillPoint,
  METRIC_DEFINITIONS,
  maxDrawdown,
  sharpe,
  sortino,
  stdev,
} from "../../src/simulation/metrics.js";

const points: DayPoint[] = [
  { day: "start", value: 100, cash: 100, index: 50 },
  { day: "2020-01-02", value: 110, cash: 10, index: 50 },
  { day: "2020-01-03", value: 99, cash: 99, index: 55 },
  { day: "2020-01-06", value: 108.9, cash: 8.9, index: 60 },
];
const fills: FillPoint[] = [
  { day: "2020-01-02", symbol: "AAA", side: "BUY", quantity: 10, price: 10, commission: 1 },
  { day: "2020-01-03", symbol: "AAA", side: "SELL", quantity: 5, price: 12, commission: 1 },
  { day: "2020-01-06", symbol: "AAA", side: "SELL", quantity: 5, price: 9, commission: 1 },
];

describe("metrics on a hand-computed series", () => {
  const m = computeMetrics(points, fills);

  it("returns: total 108.9/100 − 1, annualised over 3 periods, the index 60/50 − 1", () => {
    expect(m.days).toBe(3);
    expect(m.total_return).toBeCloseTo(0.089, 12);
    // (1.089)^(252/3) − 1: 252 ÷ the report's own `days`, as its definition says
    expect(m.annualised_return).toBeCloseTo(1.089 ** (252 / m.days) - 1, 6);
    expect(METRIC_DEFINITIONS.annualised_return).toMatch(/^\(1 \+ total return\)\^\(252 ÷ days\) − 1/);
    expect(m.index_return).toBeCloseTo(0.2, 12);
    expect(m.excess_return).toBeCloseTo(0.089 - 0.2, 12);
  });

  it("volatility, Sharpe and Sortino: mean 1/30, sample sd √(0.02667/2) = 0.11547, downside √(0.01/3) = 0.057735", () => {
    expect(stdev([0.1, -0.1, 0.1])).toBeCloseTo(0.11547005383792516, 12);
    expect(m.volatility).toBeCloseTo(0.11547005383792516 * Math.sqrt(252), 10); // 1.83303
    expect(m.sharpe).toBeCloseTo(4.58257569495584, 10); // (1/30) / 0.11547 × √252
    expect(m.sortino).toBeCloseTo(9.16515138991168, 10); // (1/30) / 0.057735 × √252
    // A risk-free rate of 2.52% a year takes 0.0001 off each day's mean.
    expect(sharpe([0.1, -0.1, 0.1], 0.0252)).toBeCloseTo(((1 / 30 - 0.0001) / 0.11547005383792516) * Math.sqrt(252), 10);
    expect(sortino([0.01, 0.02])).toBe(0); // no down day: the ratio is reported as 0, not infinity
  });

  it("drawdown: 110 → 99 is 10%, underwater for the last 2 days (108.9 < 110 at the end)", () => {
    expect(m.max_drawdown).toBeCloseTo(0.1, 12);
    expect(m.max_drawdown_days).toBe(2);
    expect(m.index_max_drawdown).toBe(0);
    expect(maxDrawdown([100, 90, 95, 100, 80, 120])).toEqual({ depth: expect.closeTo(0.2, 12), days: 2 }); // 90, 95 underwater (2 days), back at 100; then 80 (1 day)
  });

  it("trades: average cost 10.1 a share; +8.5 then −6.5: hit rate 1/2", () => {
    expect(closedTrades(fills)).toEqual([expect.closeTo(8.5, 10), expect.closeTo(-6.5, 10)]);
    expect(m.closed_trades).toBe(2);
    expect(m.hit_rate).toBe(0.5);
    expect(m.commissions).toBe(3);
  });

  it("turnover: 205 traded over an average value of 104.475, for 3/252 of a year; exposure: mean of 0, 100/110, 0, 100/108.9", () => {
    expect(m.traded_notional).toBe(205);
    expect(m.turnover).toBeCloseTo(164.82412060301507, 8);
    expect(m.exposure).toBeCloseTo(0.45684113865932047, 12);
    expect(METRIC_DEFINITIONS.exposure).toContain("over the start (all cash) and each day's close");
  });

  it("degenerate inputs give zeros, not NaN", () => {
    const one = computeMetrics([points[0] as DayPoint], []);
    for (const [k, v] of Object.entries(one)) expect(Number.isFinite(v), k).toBe(true);
    expect(one.total_return).toBe(0);
    expect(annualise(-1, 10)).toBe(-1);
  });
});
