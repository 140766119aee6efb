/**
 * The simulation's live line and per-day line: the drawdown shown is the kill switch's own measure
 * (from its confirmed peak) beside its limit, not the drawdown from the running high of day values
 * (which showed "dd 16.15%" under a 10% limit while nothing tripped); at 80 columns the ETA stays
 * and nothing is cut mid-word.
 */
import { describe, expect, it } from "vitest";
import type { DayRecord } from "../../src/simulation/day-record.js";
import { liveLine, plainLine, summaryText, Tally } from "../../src/simulation/progress.js";
import { buildReport } from "../../src/simulation/report.js";
import type { SimulationMeta } from "../../src/simulation/store.js";

function day(day: string, value: number, gateDrawdown: number, extra: Partial<DayRecord> = {}): DayRecord {
  return {
    day,
    run_id: `r-${day}`,
    outcome: "executed",
    exit_code: 0,
    value,
    cash: value,
    index: 100,
    peak: 100_000,
    gate_drawdown: gateDrawdown,
    trading_state: "ACTIVE",
    orders: 2,
    fills: [],
    blocked: {},
    cost_usd: 0,
    message: "",
    ...extra,
  };
}

const progress = { done: 12, total: 754, costUsd: 0.0123, elapsedMs: 12_000 };

describe("simulation progress lines", () => {
  it("show the kill switch's drawdown beside its limit, and the running-high drawdown labelled apart", () => {
    const t = new Tally();
    t.limit = 0.1;
    t.add(day("2008-01-02", 120_000, 0));
    const d = day("2008-10-10", 100_644, 0.017); // 16.13% below the running high, 1.7% by the kill switch's peak
    t.add(d);
    const line = liveLine(d, progress, t, 200);
    expect(line).toContain("dd 1.70% of 10.0% limit");
    expect(line).toContain("(from high 16.13%)");
    expect(line).not.toMatch(/dd 16/);
    expect(plainLine(d, t)).toContain("dd 1.70% of 10.0% limit");
  });

  it("at 80 columns keep the day, value, drawdown and ETA whole, dropping the extras first", () => {
    const t = new Tally();
    t.limit = 0.1;
    t.add(day("2008-01-02", 120_000, 0, { trip: { drawdown: 0.11, reason: "drawdown" } }));
    const d = day("2008-10-10", 1_234_567.89, 0.017);
    t.add(d);
    for (const columns of [80, 100]) {
      const line = liveLine(d, progress, t, columns);
      expect(line.length).toBeLessThanOrEqual(columns - 1);
      expect(line).toMatch(/^\[ 12\/754\] 2008-10-10 {2}value 1,234,567\.89 {2}dd 1\.70% of 10\.0% limit .*ETA \d+:\d\d$/);
    }
    const wide = liveLine(d, progress, t, 200);
    expect(wide).toMatch(/orders 4 {2}trips 1 {2}spend \$0\.0123 {2}ETA/);
  });
});

describe("the closing summary", () => {
  const meta: SimulationMeta = {
    format: "tradewarden-simulation/1",
    name: "early",
    from: "2010-01-04",
    to: "2010-03-01",
    days_total: 39,
    days_done: 0,
    status: "interrupted",
    created_at: "2026-12-02T00:00:00.000Z",
    finished_at: "2026-12-02T00:00:01.000Z",
    elapsed_ms: 300,
    model: { provider: "scripted", id: "scripted:momentum" },
    config: { file: null, model: "scripted:momentum", sets: [] },
    reset_after: null,
    max_drawdown_pct: 25,
    capital: 100_000,
    base_currency: "USD",
    index_symbol: "SPX",
    start_index: 1115.1,
    failure: null,
  };

  it("of a simulation stopped before its first day: the days planned, and no run to audit", () => {
    const text = summaryText(meta, buildReport(meta, []), "/sims/early");
    expect(text).toMatch(/^simulation early: interrupted, 0 of 39 trading day\(s\) \(none run; planned 2010-01-04 → 2010-03-01\)/);
    expect(text).not.toMatch(/audit or replay a day/);
  });

  it("of one that ran days: the days it ran, and how to audit one", () => {
    const text = summaryText(
      { ...meta, days_done: 2 },
      buildReport({ ...meta, days_done: 2 }, [day("2010-01-04", 100_000, 0), day("2010-01-05", 100_500, 0)]),
      "/sims/early",
    );
    expect(text).toMatch(/^simulation early: interrupted, 2 of 39 trading day\(s\) 2010-01-04 → 2010-01-05/);
    expect(text).toContain("audit or replay a day: tradewarden --home /sims/early audit <run-id>");
  });
});
