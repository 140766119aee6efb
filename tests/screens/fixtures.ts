/** Shared fixtures of the screen tests: a journal with three runs, one run's detail, an account history, an approval on screen. */
import type { EventSink } from "../../src/run/event-sink.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import type { KillSwitchFacts } from "../../src/screens/KillSwitchScreen.js";
import type { JournalBrowserSource, JournalRunDetail, JournalRunSummary } from "../../src/screens/journal-data.js";
import { type Mounted, mountRunConsole } from "../../src/screens/run-app.js";
import type { io } from "./fake-terminal.js";
import { ev, fakeGate, fakeRequest, order, resetSeq, waitFor } from "./helpers.js";

export const runs: JournalRunSummary[] = [
  {
    run_id: "run-0302",
    started_at: "2026-03-02T14:00:00Z",
    trading_day: "2026-03-02",
    mode: "paper",
    outcome: "executed",
    orders: 2,
    fills: 2,
    cost_usd: 0.0312,
  },
  { run_id: "run-0303", started_at: "2026-03-03T14:00:00Z", trading_day: "2026-03-03", mode: "paper", outcome: "hold", orders: 0, fills: 0, cost_usd: 0.02 },
  {
    run_id: "run-0304",
    started_at: "2026-03-04T14:00:00Z",
    trading_day: "2026-03-04",
    mode: "observe",
    outcome: "rejected",
    orders: 0,
    fills: 0,
    cost_usd: 0.025,
  },
];

export function detail(): JournalRunDetail {
  resetSeq();
  const decisions = fakeGate({ prices: { AAPL: 100 }, cash: 10_000 })([order("AAPL", "BUY", 10, 100)]);
  return {
    run_id: "run-0302",
    events: [
      ev({
        type: "run.started",
        run_id: "run-0302",
        mode: "paper",
        trading_day: "2026-03-02",
        model: { provider: "scripted", id: "demo" },
        broker: { kind: "sim", account_id: "SIM", endpoint: "x" },
        base_currency: "USD",
      }),
      ev({ type: "model.turn_started", turn: 1, max_turns: 4, time_left_ms: 60_000, cost_usd: 0, budget_usd: 0.5 }),
      ev({ type: "model.text", turn: 1, delta: "Buying \u001b[31mAAPL\u001b[0m " }),
      ev({ type: "model.text", turn: 1, delta: "on strength." }),
      ev({ type: "proposal", orders: [order("AAPL", "BUY", 10, 100)], summary: "buy AAPL", decisions, abandoned: [] }),
      ev({ type: "approval.decided", decision: "approved", by: "operator", orders: [order("AAPL", "BUY", 10, 100)], orders_hash: "0123456789abcdef" }),
      ev({ type: "gate.final", decisions }),
      ev({
        type: "order.filled",
        client_order_id: "tw-1",
        symbol: "AAPL",
        side: "BUY",
        quantity: 10,
        limit_price: 100,
        filled_quantity: 10,
        avg_price: 99.9,
        commission: 1,
      }),
      ev({ type: "run.finished", outcome: "executed", exit_code: 0, message: "1 order filled", cost_usd: 0.0312 }),
    ],
    orders: [{ client_order_id: "tw-1", symbol: "AAPL", side: "BUY", quantity: 10, limit_price: 100, status: "filled", filled_quantity: 10, avg_price: 99.9 }],
    fills: [{ at: "2026-03-02T15:00:00Z", symbol: "AAPL", side: "BUY", quantity: 10, price: 99.9, commission: 1 }],
    decision: null,
    transcript: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", text: `message number ${i}` })),
    cost: { total_usd: 0.0312, input_tokens: 5000, output_tokens: 400, cache_read_tokens: 3000, cache_write_tokens: 1000, turns: 1 },
  };
}

export const source = (): JournalBrowserSource => ({
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

/** An account holding MSFT, with one fill: what the approval screens are shown over. */
const approvalPortfolio = {
  currency: "USD",
  cash: 12_345.67,
  value: 101_234.56,
  holdings: [{ symbol: "MSFT", quantity: 120, price: 205.1, value: 24_612, weight: 0.2431, cost_basis: 23_000, unrealised_pnl: 1_612, currency: "USD" }],
  last_fills: [{ at: "2026-02-27T15:00:00Z", run_id: "run-0", trading_day: "2026-02-27", symbol: "MSFT", side: "BUY" as const, quantity: 120, price: 191.67 }],
};

/**
 * The run console mounted over `sink` (its account valued), asked to approve three orders (a buy,
 * a sell of the holding, a buy): resolves with the approval screen's last frame. The app is added
 * to `mounted` for the caller's cleanup.
 */
export async function approvalOnScreen(sink: EventSink, t: ReturnType<typeof io>, mounted: Mounted[]): Promise<string> {
  sink.emit({
    type: "valuation",
    value: 101_234.56,
    cash: 12_345.67,
    peak: 103_000,
    drawdown_pct: 1.71,
    max_drawdown_pct: 25,
    trading_state: "ACTIVE",
    orders_used: 3,
    orders_left: 7,
    first_of_run: true,
    portfolio: approvalPortfolio,
  });
  const queue = new ApprovalQueue();
  mounted.push(mountRunConsole({ subscribe: (l) => sink.subscribe(l), replay: sink.events, queue, onInterrupt: () => {}, ...t.opts }));
  const req = fakeRequest([order("AAPL", "BUY", 10, 100), order("MSFT", "SELL", 20, 201), order("TSLA", "BUY", 3, 60)], { holdings: { MSFT: 120 } });
  req.portfolio = approvalPortfolio;
  req.tradingDay = "2026-03-02";
  void queue.decide(req);
  await waitFor(() => t.stdout.lastFrameWith("Approve orders?") !== "", 3000, "the approval screen");
  return t.stdout.lastFrameWith("Approve orders?");
}

/** A halted account: the kill switch tripped at 11% against a 10% limit, its liquidation partial. */
export const halted: KillSwitchFacts = {
  trading_state: "HALTED",
  base_currency: "USD",
  tripped_at: "2026-03-02T15:30:00Z",
  run_id: "run-7",
  value_at_trip: 89_000,
  peak: 100_000,
  drawdown_pct: 11,
  limit_pct: 10,
  reason: "drawdown 11.00% reached the 10% limit",
  liquidation: { status: "partial", detail: "TSLA 3 unsold" },
  current_value: 88_500,
  reducing_runs_after_reset: 3,
};
