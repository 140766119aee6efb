/**
 * The journal's account chart (issue #25, "Charts"): the legend names the peak's line only when the
 * chart draws it (a value always at its high hides the peak under the value, and a legend for a
 * line that is not there misleads), and each reset is drawn at its own day.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { MARKS, renderChart } from "../../src/screens/chart.js";
import type { JournalAccount } from "../../src/screens/journal-data.js";
import { AccountBody } from "../../src/screens/journal-chart.js";

afterEach(() => cleanup());

function account(values: number[], resets: number[] = []): JournalAccount {
  let peak = 0;
  return {
    points: values.map((value, i) => {
      peak = Math.max(peak, value);
      return { run_id: `r${i}`, trading_day: `2008-01-${String(i + 2).padStart(2, "0")}`, value, peak, ...(resets.includes(i) ? { reset: true } : {}) };
    }),
    max_drawdown_pct: 10,
    base_currency: "USD",
    trading_state: "ACTIVE",
  };
}

/** The chart's plot rows and the legend line of a rendered account view. */
function frame(a: JournalAccount): { plot: string; legend: string } {
  const f = render(<AccountBody account={a} width={70} height={16} />).lastFrame() ?? "";
  const lines = f.split("\n");
  const legend = lines.find((l) => l.includes("⣿ value")) ?? "";
  return { plot: lines.filter((l) => l.includes("┤")).join("\n"), legend };
}

describe("the journal's account chart", () => {
  it("names the peak's line in the legend when it is drawn", () => {
    const { plot, legend } = frame(account([100_000, 104_000, 108_000, 101_000, 97_000, 98_000, 99_000]));
    expect(plot).toContain("─");
    expect(legend).toContain("─ peak");
  });

  it("does not promise a peak line that is never drawn (a value always at its high)", () => {
    const { plot, legend } = frame(account([100_000, 101_000, 102_500, 104_000, 106_000, 108_000]));
    expect(plot).not.toContain("─");
    expect(legend).not.toContain("─ peak");
    expect(legend).toContain("(peak on the value line)");
  });

  it("draws each reset at its own day", () => {
    const a = account([100_000, 95_000, 89_000, 92_000, 96_000, 88_000, 90_000, 93_000], [3, 7]);
    const c = renderChart(
      a.points.map((p) => ({ label: p.trading_day, value: p.value, peak: p.peak, marks: p.reset ? { reset: true } : {} })),
      { width: 49, height: 6, maxDrawdownPct: 10 },
    );
    const cols = [...c.markers].flatMap((ch, i) => (ch === MARKS.reset ? [i - 9] : []));
    // 40 plot cells over 8 points: point i at cell ⌊round(i·79/7)/2⌋.
    expect(cols).toEqual([17, 39]);
  });
});
