/**
 * Words that are true: the operator's own kill switch is not "drawdown ≥ limit"; no "by none";
 * no "orders_blocked: orders_blocked:"; no "error.;"; no headroom on a halted account; the chart
 * marks trips, resets and fills; numbers in one format.
 */
import { describe, expect, it } from "vitest";
import { decisionText, joinClauses, price, quantity, tickDecimals, withoutCodePrefix } from "../../src/printers/format.js";
import { renderChart } from "../../src/screens/chart.js";
import { headroomText } from "../../src/screens/journal-chart.js";
import { finishedItems, initialRunState, reduceRun } from "../../src/screens/run-state.js";
import { ev, resetSeq } from "./helpers.js";

const notes = (events: Parameters<typeof reduceRun>[1][]) => {
  resetSeq();
  let s = initialRunState();
  for (const e of events) s = reduceRun(s, e);
  return finishedItems(s).map((i) => (i.kind === "note" ? i.text : i.kind === "tool" ? `${i.status} ${i.error_code ?? ""}: ${i.message}` : i.kind));
};

describe("run console words", () => {
  it("an operator's kill switch says who tripped it and claims no drawdown breach", () => {
    const [op] = notes([
      ev({ type: "killswitch.tripped", value: 100_000, peak: 100_000, drawdown_pct: 0, limit_pct: 25, reason: "drill", liquidation: [], by: "operator" }),
    ]);
    expect(op).toBe("KILL SWITCH TRIPPED by the operator: drill (drawdown 0.00%, limit 25%)");
    expect(op).not.toContain("≥");
    const [dd] = notes([
      ev({
        type: "killswitch.tripped",
        value: 74_000,
        peak: 100_000,
        drawdown_pct: 26,
        limit_pct: 25,
        reason: "drawdown 26.00% reached the 25% limit",
        liquidation: [],
      }),
    ]);
    expect(dd).toContain("(drawdown 26.00% ≥ limit 25%)");
  });

  it("decisions without an operator say what happened, never 'by none'", () => {
    const lines = notes([
      ev({ type: "approval.decided", decision: "awaiting", by: "none", orders: [], orders_hash: "h", reason: "no terminal" }),
      ev({ type: "approval.decided", decision: "none", by: "none", orders: [], orders_hash: "h", reason: "observe mode places nothing" }),
    ]);
    expect(lines[0]).toBe("decision: awaiting approval (no operator at a terminal): no terminal");
    expect(lines[1]).toBe("decision: no decision (nothing is placed in this mode): observe mode places nothing");
    expect(lines.join("\n")).not.toMatch(/by none/);
  });

  it("a failed tool names its code once; a finished run joins clauses without '.;'", () => {
    const lines = notes([
      ev({
        type: "tool.result",
        turn: 1,
        call_id: "c1",
        tool: "submit_orders",
        success: false,
        error_code: "orders_blocked",
        summary: "orders_blocked: The risk gate blocked 1 of 2 orders.",
        truncated: false,
        duration_ms: 1,
      }),
      ev({ type: "run.finished", outcome: "error", exit_code: 4, message: "model call failed on turn 1: Connection error.", cost_usd: 0 }),
    ]);
    expect(lines[0]).toBe("failed orders_blocked: The risk gate blocked 1 of 2 orders.");
    expect(lines[1]).toBe("run finished: error (exit 4): model call failed on turn 1: Connection error; LLM cost $0.0000");
    expect(joinClauses("a.", undefined, "b;", false, "c")).toBe("a; b; c");
    expect(withoutCodePrefix("x: x: y", "x")).toBe("y");
    expect(decisionText("approved", "auto")).toBe("approved by --yes (unattended)");
  });
});

describe("journal account view words and markers", () => {
  const account = { points: [], max_drawdown_pct: 25, base_currency: "USD" };
  it("a halted account has no headroom; an account under the line says it will trip", () => {
    expect(headroomText({ ...account, trading_state: "HALTED" }, 74_000, 74_306.01).text).toMatch(/^trading is halted: the kill switch has tripped/);
    expect(headroomText({ ...account, trading_state: "ACTIVE" }, 74_000, 74_306.01).text).toBe(
      "value is 306.01 USD under the limit line 74,306.01 USD: the next run's valuation trips the kill switch",
    );
    expect(headroomText({ ...account, trading_state: "ACTIVE" }, 80_000, 75_000).text).toBe(
      "limit line 75,000.00 USD · headroom 5,000.00 USD before the kill switch trips",
    );
  });

  it("the chart marks trips (T), resets (R) and fills (f) under the runs they happened in", () => {
    const pts = [
      { label: "d1", value: 100, peak: 100, marks: { fills: 2 } },
      { label: "d2", value: 70, peak: 100, marks: { trip: true } },
      { label: "d3", value: 71, peak: 71, marks: { reset: true } },
      { label: "d4", value: 72, peak: 71 },
    ];
    const c = renderChart(pts, { width: 29, height: 5, maxDrawdownPct: 25 });
    expect(c.markers.trim()).toMatch(/^f\s+T\s+R$/);
    expect(c.markers.indexOf("f")).toBe(9);
    expect(
      renderChart(
        pts.map(({ marks: _m, ...p }) => p),
        { width: 29, height: 5, maxDrawdownPct: 25 },
      ).markers,
    ).toBe("");
  });
});

describe("one number format", () => {
  it("thousands separators; price decimals from the tick", () => {
    expect(tickDecimals(0.01)).toBe(2);
    expect(tickDecimals(0.0001)).toBe(4);
    expect(tickDecimals(0.05)).toBe(2);
    expect(tickDecimals(1)).toBe(0);
    expect(price(1234.5, 0.01)).toBe("1,234.50");
    expect(price(0.12345, 0.0001)).toBe("0.1235");
    expect(quantity(12000)).toBe("12,000");
    expect(quantity(1.5)).toBe("1.5");
  });
});
