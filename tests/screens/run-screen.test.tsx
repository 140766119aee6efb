import { TYPE_AHEAD_GUARD_MS } from "../../src/screens/ApprovalScreen.js";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { RunApp } from "../../src/screens/run-app.js";
import { createRunStore } from "../../src/screens/run-state.js";
import { createTheme } from "../../src/screens/theme.js";
import { ev, fakeGate, fakeRequest, KEY, order, resetSeq, sendInputAndWaitForChange, waitForFrame } from "./helpers.js";

afterEach(() => cleanup());

function setup() {
  resetSeq();
  const store = createRunStore();
  const queue = new ApprovalQueue();
  const onInterrupt = vi.fn();
  const inst = render(<RunApp store={store} queue={queue} onInterrupt={onInterrupt} />);
  store.dispatch(
    ev({
      type: "run.started",
      run_id: "run-1",
      mode: "paper",
      trading_day: "2026-03-02",
      model: { provider: "scripted", id: "demo" },
      broker: { kind: "sim", account_id: "SIM-1", endpoint: "local" },
      base_currency: "USD",
    }),
  );
  store.dispatch(
    ev({
      type: "valuation",
      value: 98_000,
      cash: 50_000,
      peak: 100_000,
      drawdown_pct: 2,
      max_drawdown_pct: 10,
      trading_state: "ACTIVE",
      orders_used: 3,
      orders_left: 7,
      first_of_run: true,
    }),
  );
  return { inst, store, queue, onInterrupt };
}

describe("RunScreen / RunApp", () => {
  it("draws the header, finished items and the status with a spinner while thinking", async () => {
    const { inst, store } = setup();
    store.dispatch(ev({ type: "model.turn_started", turn: 2, max_turns: 8, time_left_ms: 90_000, cost_usd: 0.01, budget_usd: 0.5 }, new Date().toISOString()));
    const f = await waitForFrame(inst, "thinking");
    expect(f).toContain("tradewarden PAPER · day 2026-03-02 · account SIM-1 (USD) · broker sim · model scripted/demo");
    expect(f).toContain("value 98,000.00 USD · peak 100,000.00 · drawdown 2.00% / max 10% · ACTIVE · orders left 7");
    expect(f).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking · turn 2\/8 · 1m\d\ds left · cost \$0.0100 of \$0.5000/);
    expect(f).toContain("Ctrl+C stop the run (nothing more is placed)");
    store.dispatch(ev({ type: "tool.called", turn: 2, call_id: "c1", tool: "check_orders", arguments: { orders: [{ symbol: "AAPL" }] } }));
    await waitForFrame(inst, 'check_orders {"orders":[{"symbol":"AAPL"}]}');
    store.dispatch(
      ev({
        type: "tool.rejected",
        turn: 2,
        call_id: "c1",
        tool: "check_orders",
        error_code: "validation_error",
        error: "quantity is required",
        retryable: true,
        correction: {
          tool: "check_orders",
          instruction: "Add quantity to each order.",
          valid_arguments_example: {},
          received_arguments: {},
          issues: [{ path: "/orders/0/quantity", message: "is required" }],
        },
      }),
    );
    const g = await waitForFrame(inst, "correction: Add quantity to each order.");
    expect(g).toContain("✗ rejected validation_error (retryable): quantity is required");
    expect(g).toContain("issue /orders/0/quantity: is required");
    store.dispatch(
      ev({
        type: "gate.dry_run",
        turn: 2,
        call_id: "c2",
        decisions: fakeGate({ prices: { AAPL: 100 }, cash: 1e6 })([order("AAPL", "BUY", 1, 100), order("AAPL", "SELL", 1, 150)]),
      }),
    );
    const h = await waitForFrame(inst, "gate dry run: 1 approved, 1 blocked");
    expect(h).toContain("✓ BUY 1 AAPL @ 100");
    expect(h).toContain("✗ SELL 1 AAPL @ 150");
    expect(h).toContain("price_band: limit 150.00 is 50.00% from price 100.00 (max 2%)");
  });

  it("keeps the live region short: streamed text is clipped to its last lines until the turn ends", async () => {
    const { inst, store } = setup();
    store.dispatch(ev({ type: "model.turn_started", turn: 1, max_turns: 8, time_left_ms: 90_000, cost_usd: 0, budget_usd: 0.5 }));
    for (let i = 1; i <= 60; i++) store.dispatch(ev({ type: "model.text", turn: 1, delta: `line ${String(i).padStart(3, "0")}\n` }));
    const f = await waitForFrame(inst, "line 060");
    expect(f).not.toContain("line 001");
    expect(f).toContain("earlier lines above are clipped");
    // Live region (everything after the static notes) stays under the default 24 rows.
    const live = f.slice(f.indexOf("tradewarden "));
    expect(live.split("\n").length).toBeLessThan(24);
    store.dispatch(
      ev({
        type: "model.response",
        turn: 1,
        stop_reason: "end_turn",
        usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        cost_usd: 0.001,
        total_cost_usd: 0.001,
        duration_ms: 10,
      }),
    );
    const g = await waitForFrame(inst, "line 001");
    expect(g).toContain("model · turn 1");
    expect(g).toContain("line 060");
  });

  it("draws model text with escape codes sanitised", async () => {
    const { inst, store } = setup();
    store.dispatch(ev({ type: "model.turn_started", turn: 1, max_turns: 8, time_left_ms: 90_000, cost_usd: 0, budget_usd: 0.5 }));
    store.dispatch(ev({ type: "model.text", turn: 1, delta: "clear \u001b[2J\u001b[Hscreen \u001b]8;;http://evil\u0007link\u001b]8;;\u0007 bell\u0007 done" }));
    const f = await waitForFrame(inst, "done");
    expect(f).toContain("clear screen link bell done");
    expect(f).not.toMatch(/\u001b|\u0007/);
  });

  it("Ctrl+C calls onInterrupt", async () => {
    const { inst, onInterrupt } = setup();
    await waitForFrame(inst, "orders left 7");
    await sendInputAndWaitForChange(inst, KEY.ctrlC, { expectChange: false });
    expect(onInterrupt).toHaveBeenCalledTimes(1);
  });

  it("switches to the approval screen while a decision is pending, and back", async () => {
    const { inst, store, queue } = setup();
    await waitForFrame(inst, "orders left 7");
    const req = fakeRequest([order("AAPL", "BUY", 10, 100)]);
    const decided = queue.decide(req);
    store.dispatch(ev({ type: "approval.requested", orders_hash: "abc", approvable: 1, blocked: 0 }));
    let f = await waitForFrame(inst, "Approve orders? 1 proposed");
    expect(f).toContain("orders left 7"); // the header stays
    expect(f).not.toContain("Ctrl+C stop the run (nothing more is placed)"); // the run's key help gives way to the approval's
    // A person reads the prompt before confirming (the type-ahead guard cancels faster keys).
    const pause = () => new Promise((r) => setTimeout(r, TYPE_AHEAD_GUARD_MS + 50));
    await sendInputAndWaitForChange(inst, "a");
    await pause();
    await sendInputAndWaitForChange(inst, "y");
    await pause();
    await sendInputAndWaitForChange(inst, KEY.enter);
    await expect(decided).resolves.toMatchObject({ kind: "approve", orders: [{ symbol: "AAPL", quantity: 10 }] });
    f = await waitForFrame(inst, "Ctrl+C stop the run (nothing more is placed)");
    expect(f).not.toContain("Approve orders?");
  });

  it("NO_COLOR turns every colour off", () => {
    expect(createTheme({ NO_COLOR: "1" }).c("error")).toBeUndefined();
    expect(createTheme({}).c("error")).toBe("red");
    expect(createTheme({ NO_COLOR: "" }).color).toBe(true);
  });

  it("shows the portfolio while the model works; a finished run offers no key it no longer has", async () => {
    const { inst, store } = setup();
    store.dispatch(
      ev({
        type: "valuation",
        value: 98_000,
        cash: 50_000,
        peak: 100_000,
        drawdown_pct: 2,
        max_drawdown_pct: 10,
        trading_state: "ACTIVE",
        orders_used: 3,
        orders_left: 7,
        first_of_run: true,
        portfolio: {
          currency: "USD",
          cash: 50_000,
          value: 98_000,
          holdings: [{ symbol: "MSFT", quantity: 200, price: 240, value: 48_000, weight: 0.4898, cost_basis: 50_000, unrealised_pnl: -2_000, currency: "USD" }],
          last_fills: [{ at: "2026-02-27T15:00:00Z", run_id: "r0", trading_day: "2026-02-27", symbol: "MSFT", side: "BUY", quantity: 200, price: 250 }],
        },
      }),
    );
    let f = await waitForFrame(inst, "MSFT");
    expect(f).toMatch(/MSFT\s+200\s+48,000.00\s+49.0%\s+−2,000.00/);
    expect(f).toContain("last fills (day 2026-02-27): BUY 200 MSFT @ 250.00");
    expect(f).toContain("Ctrl+C stop the run");
    store.dispatch(ev({ type: "run.finished", outcome: "hold", exit_code: 0, message: "the model proposed to hold.", cost_usd: 0.01 }));
    f = await waitForFrame(inst, "finished: hold");
    expect(f).toContain("✓ finished: hold (exit 0): the model proposed to hold; LLM $0.0100");
    expect(f).not.toContain("Ctrl+C");
  });
});
