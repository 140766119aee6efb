import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderChart } from "../../src/screens/chart.js";
import { filterRuns, JournalScreen } from "../../src/screens/JournalScreen.js";
import { runs, source } from "./fixtures.js";
import { scrollBy } from "../../src/screens/scroll.js";
import { KEY, sendInputAndWaitForChange, typeText, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

function setup() {
  const onExit = vi.fn();
  const onInterrupt = vi.fn();
  const inst = render(<JournalScreen source={source()} onExit={onExit} onInterrupt={onInterrupt} />);
  return { inst, onExit, onInterrupt };
}

describe("JournalScreen", () => {
  it("lists runs; navigates into a run and back", async () => {
    const { inst } = setup();
    let f = await waitForFrame(inst, "run-0304");
    expect(f).toContain("Journal · 3 run(s)");
    expect(f).toMatch(/› 2026-03-02\s+you\s+paper\s+executed\s+2\/2\s+\$0.0312 run-0302/);
    expect(f).toContain("run 1 of 3");
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    f = await waitForFrame(inst, "Timeline");
    expect(f).toContain("Run run-0302 · trading day 2026-03-02 · paper");
    expect(f).toContain("Outcome: executed (exit 0): 1 order filled");
    expect(f).toContain("Decision: approved by operator · 1 order(s) · orders 0123456789ab");
    expect(f).toContain("Cost: $0.0312 · 1 turn(s) · tokens: 5,000 in, 3,000 cache read, 1,000 cache write, 400 out");
    expect(f).toMatch(/BUY\s+10 AAPL\s+@\s+100.00\s+filled/);
    // The fill's trading day and its wall-clock booking time are said apart, never merged into one timestamp.
    expect(f).toMatch(/BUY 10 AAPL @ 99\.90 .*· trading day 2026-03-02 · booked 2026-03-02 15:00 UTC/);
    expect(f).toContain("✓ BUY 10 AAPL @ 100.00");
    // Scroll to the end: the timeline, with the model text sanitised.
    f = await sendInputAndWaitForChange(inst, "G");
    expect(f).toContain("model: Buying AAPL on strength.");
    expect(f).not.toContain("\u001b[31m");
    f = await sendInputAndWaitForChange(inst, "b");
    expect(f).toContain("Journal · 3 run(s)");
    // Down to the second run, open, Esc back.
    await sendInputAndWaitForChange(inst, KEY.down);
    await sendInputAndWaitForChange(inst, KEY.enter);
    f = await waitForFrame(inst, "run not found");
    f = await sendInputAndWaitForChange(inst, KEY.esc);
    expect(f).toMatch(/› 2026-03-03/);
  });

  it("filters with /", async () => {
    const { inst } = setup();
    await waitForFrame(inst, "run-0304");
    await sendInputAndWaitForChange(inst, "/");
    await typeText(inst, "hold");
    let f = await sendInputAndWaitForChange(inst, KEY.enter);
    expect(f).toContain("Journal · 1 of 3 run(s) match");
    expect(f).toContain("run-0303");
    expect(f).not.toContain("run-0302");
    f = await sendInputAndWaitForChange(inst, KEY.esc);
    expect(f).toContain("Journal · 3 run(s)");
  });

  it("transcript viewer scrolls with PgDn/PgUp/↓/↑ and goes back to the detail", async () => {
    const { inst } = setup();
    await waitForFrame(inst, "run-0304");
    await sendInputAndWaitForChange(inst, KEY.enter);
    await waitForFrame(inst, "Timeline");
    let f = await sendInputAndWaitForChange(inst, "t");
    expect(f).toContain("Transcript of run run-0302");
    expect(f).toContain("message number 0");
    f = await sendInputAndWaitForChange(inst, KEY.pageDown);
    expect(f).not.toContain("message number 0\n");
    expect(f).toMatch(/lines (\d+)–/);
    const first = Number(/lines (\d+)–/.exec(f)?.[1]);
    expect(first).toBeGreaterThan(1);
    f = await sendInputAndWaitForChange(inst, KEY.down);
    expect(Number(/lines (\d+)–/.exec(f)?.[1])).toBe(first + 1);
    f = await sendInputAndWaitForChange(inst, KEY.up);
    f = await sendInputAndWaitForChange(inst, KEY.pageUp);
    expect(f).toContain("lines 1–");
    f = await sendInputAndWaitForChange(inst, KEY.esc);
    expect(f).toContain("Run run-0302");
  });

  it("account view draws value against peak and the limit line", async () => {
    const { inst } = setup();
    await waitForFrame(inst, "run-0304");
    await sendInputAndWaitForChange(inst, "v");
    const f = await waitForFrame(inst, "headroom");
    expect(f).toMatch(/[\u2801-\u28ff]/); // braille value line
    expect(f).toContain("─"); // peak
    expect(f).toContain("┄"); // limit line
    expect(f).toContain("2026-03-02");
    expect(f).toContain("2026-03-05");
    expect(f).toContain("day 2026-03-05: value 95,000.00 USD · peak 103,000.00 USD · drawdown 7.77% of max 10%");
    const back = await sendInputAndWaitForChange(inst, "b");
    expect(back).toContain("Journal · 3 run(s)");
  });

  it("q quits and Ctrl+C interrupts", async () => {
    const { inst, onExit, onInterrupt } = setup();
    await waitForFrame(inst, "run-0304");
    await sendInputAndWaitForChange(inst, KEY.ctrlC, { expectChange: false });
    expect(onInterrupt).toHaveBeenCalledTimes(1);
    await sendInputAndWaitForChange(inst, "q", { expectChange: false });
    expect(onExit).toHaveBeenCalledTimes(1);
  });
});

describe("journal helpers", () => {
  it("filterRuns matches every term", () => {
    expect(filterRuns(runs, "paper 03-03").map((r) => r.run_id)).toEqual(["run-0303"]);
    expect(filterRuns(runs, "")).toHaveLength(3);
  });

  it("scrollBy clamps", () => {
    expect(scrollBy("pageDown", 0, 100, 10)).toBe(9);
    expect(scrollBy("bottom", 0, 100, 10)).toBe(90);
    expect(scrollBy("up", 0, 100, 10)).toBe(0);
    expect(scrollBy("down", 90, 100, 10)).toBe(90);
  });

  it("renderChart is width-aware and puts the limit under the peak", () => {
    const pts = [
      { label: "d1", value: 100, peak: 100 },
      { label: "d2", value: 92, peak: 100 },
    ];
    for (const width of [30, 60, 120]) {
      const c = renderChart(pts, { width, height: 8, maxDrawdownPct: 10 });
      expect(c.rows).toHaveLength(8);
      for (const r of c.rows) expect(r).toHaveLength(width);
      const rowOf = (ch: string) => c.rows.findIndex((r) => r.some((x) => x.ch === ch));
      expect(rowOf("┄")).toBeGreaterThan(rowOf("─"));
    }
  });
});
