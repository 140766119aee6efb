import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderChart } from "../../src/screens/chart.js";
import { filterRuns, type JournalBrowserSource, type JournalRunDetail, JournalScreen, scrollBy } from "../../src/screens/JournalScreen.js";
import { ev, fakeGate, KEY, order, resetSeq, sendInputAndWaitForChange, typeText, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

const runs = [
  { run_id: "run-0302", started_at: "2026-03-02T14:00:00Z", trading_day: "2026-03-02", mode: "paper", outcome: "executed", orders: 2, fills: 2, cost_usd: 0.0312 },
  { run_id: "run-0303", started_at: "2026-03-03T14:00:00Z", trading_day: "2026-03-03", mode: "paper", outcome: "hold", orders: 0, fills: 0, cost_usd: 0.02 },
  { run_id: "run-0304", started_at: "2026-03-04T14:00:00Z", trading_day: "2026-03-04", mode: "observe", outcome: "rejected", orders: 0, fills: 0, cost_usd: 0.025 },
];

function detail(): JournalRunDetail {
  resetSeq();
  const decisions = fakeGate({ prices: { AAPL: 100 }, cash: 10_000 })([order("AAPL", "BUY", 10, 100)]);
  return {
    run_id: "run-0302",
    events: [
      ev({ type: "run.started", run_id: "run-0302", mode: "paper", trading_day: "2026-03-02", model: { provider: "scripted", id: "demo" }, broker: { kind: "sim", account_id: "SIM", endpoint: "x" }, base_currency: "USD" }),
      ev({ type: "model.turn_started", turn: 1, max_turns: 4, time_left_ms: 60_000, cost_usd: 0, budget_usd: 0.5 }),
      ev({ type: "model.text", turn: 1, delta: "Buying \u001b[31mAAPL\u001b[0m " }),
      ev({ type: "model.text", turn: 1, delta: "on strength." }),
      ev({ type: "proposal", orders: [order("AAPL", "BUY", 10, 100)], summary: "buy AAPL", decisions, abandoned: [] }),
      ev({ type: "approval.decided", decision: "approved", by: "operator", orders: [order("AAPL", "BUY", 10, 100)], orders_hash: "0123456789abcdef" }),
      ev({ type: "gate.final", decisions }),
      ev({ type: "order.filled", client_order_id: "tw-1", symbol: "AAPL", side: "BUY", quantity: 10, limit_price: 100, filled_quantity: 10, avg_price: 99.9, commission: 1 }),
      ev({ type: "run.finished", outcome: "executed", exit_code: 0, message: "1 order filled", cost_usd: 0.0312 }),
    ],
    orders: [{ client_order_id: "tw-1", symbol: "AAPL", side: "BUY", quantity: 10, limit_price: 100, status: "filled", filled_quantity: 10, avg_price: 99.9 }],
    fills: [{ at: "2026-03-02T15:00:00Z", symbol: "AAPL", side: "BUY", quantity: 10, price: 99.9, commission: 1 }],
    decision: null,
    transcript: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", text: `message number ${i}` })),
    cost: { total_usd: 0.0312, input_tokens: 5000, output_tokens: 400, cache_read_tokens: 3000, cache_write_tokens: 1000, turns: 1 },
  };
}

const source = (): JournalBrowserSource => ({
  listRuns: async () => runs,
  runDetail: async (id) => (id === "run-0302" ? detail() : null),
  account: async () => ({
    points: [
      { run_id: "a", trading_day: "2026-03-02", value: 100_000, peak: 100_000 },
      { run_id: "b", trading_day: "2026-03-03", value: 103_000, peak: 100_000 },
      { run_id: "c", trading_day: "2026-03-04", value: 101_000, peak: 103_000 },
      { run_id: "d", trading_day: "2026-03-05", value: 95_000, peak: 103_000 },
    ],
    max_drawdown_pct: 10,
    base_currency: "USD",
  }),
});

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
    expect(f).toMatch(/› 2026-03-02\s+2026-03-02 14:00\s+paper\s+executed\s+2\s+2\s+\$0.0312 run-0302/);
    f = await sendInputAndWaitForChange(inst, KEY.enter);
    f = await waitForFrame(inst, "Timeline");
    expect(f).toContain("Run run-0302 · day 2026-03-02 · paper");
    expect(f).toContain("Outcome: executed (exit 0): 1 order filled");
    expect(f).toContain("Decision: approved by operator · 1 order(s) · orders 0123456789ab");
    expect(f).toContain("Cost: $0.0312 · 1 turn(s) · 5000 in (3000 cache read, 1000 cache write) · 400 out");
    expect(f).toMatch(/BUY\s+10 AAPL\s+@\s+100\s+filled/);
    expect(f).toContain("2026-03-02T15:00:00Z  BUY 10 AAPL @ 99.9");
    expect(f).toContain("✓ BUY 10 AAPL @ 100");
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
    expect(f).toContain("Journal · 1 of 3 run(s)");
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
    expect(f).toContain("now 95,000.00 USD · peak 103,000.00 USD · drawdown 7.77% of max 10%");
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
