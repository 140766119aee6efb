/**
 * A synthetic long run for the performance test and the benchmark: a fixed 20-event cycle (a turn
 * with streamed text, tool calls, results, a rejection, a dry run), so any window of events has
 * the same mix; mounted on real Ink with a counting stdout (debug mode: one synchronous frame per
 * event, so each dispatch's time is reducer + React commit + Ink layout + frame output).
 */
import { EventEmitter } from "node:events";
import { FakeStdin } from "./fake-terminal.js";
import { render } from "ink";
import type { RunEvent, RunEventBody } from "../../src/core/events.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { RunApp } from "../../src/screens/run-app.js";
import { createRunStore } from "../../src/screens/run-state.js";
import { fakeGate, order } from "./helpers.js";

class CountingStdout extends EventEmitter {
  columns = 100;
  constructor(public rows: number) {
    super();
  }
  isTTY = true;
  frames = 0;
  chars = 0;
  write = (s: string) => {
    this.frames++;
    this.chars += s.length; // .length of a concatenated string does not flatten it
    return true;
  };
}

const decisions = fakeGate({ prices: { AAPL: 100, MSFT: 200 }, cash: 1e6 })([order("AAPL", "BUY", 10, 100), order("MSFT", "SELL", 2, 260)]);

export function scenarioEvents(n: number): RunEvent[] {
  const out: RunEvent[] = [];
  let seq = 0;
  const at = new Date().toISOString();
  const push = (b: RunEventBody) => out.push({ ...b, seq: ++seq, at, run_id: "bench" } as RunEvent);
  push({
    type: "run.started",
    run_id: "bench",
    mode: "paper",
    trading_day: "2026-03-02",
    model: { provider: "scripted", id: "demo" },
    broker: { kind: "sim", account_id: "SIM", endpoint: "x" },
    base_currency: "USD",
  });
  push({
    type: "valuation",
    value: 1e5,
    cash: 5e4,
    peak: 1e5,
    drawdown_pct: 0,
    max_drawdown_pct: 10,
    trading_state: "ACTIVE",
    orders_used: 0,
    orders_left: 10,
    first_of_run: true,
  });
  let turn = 0;
  while (out.length < n) {
    turn++;
    const c = `c${turn}`;
    push({ type: "model.turn_started", turn, max_turns: 10_000, time_left_ms: 600_000, cost_usd: turn * 0.001, budget_usd: 100 });
    for (let i = 0; i < 8; i++)
      push({ type: "model.text", turn, delta: `Turn ${turn}, thought ${i}: the quick brown fox checks AAPL and MSFT against the limits.\n` });
    push({
      type: "model.response",
      turn,
      stop_reason: "tool_use",
      usage: { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 800 },
      cost_usd: 0.001,
      total_cost_usd: turn * 0.001,
      duration_ms: 900,
    });
    push({ type: "tool.called", turn, call_id: `${c}a`, tool: "get_quote", arguments: { symbol: "AAPL" } });
    push({
      type: "tool.result",
      turn,
      call_id: `${c}a`,
      tool: "get_quote",
      success: true,
      summary: "AAPL 100.00 as of 2026-02-27",
      truncated: false,
      duration_ms: 2,
    });
    push({ type: "tool.called", turn, call_id: `${c}b`, tool: "check_orders", arguments: { orders: [{ symbol: "AAPL", side: "BUY", quantity: 10 }] } });
    push({
      type: "tool.rejected",
      turn,
      call_id: `${c}b`,
      tool: "check_orders",
      error_code: "validation_error",
      error: "limit_price is required",
      retryable: true,
      correction: {
        tool: "check_orders",
        instruction: "Add limit_price.",
        valid_arguments_example: {},
        received_arguments: {},
        issues: [{ path: "/orders/0/limit_price", message: "is required" }],
      },
    });
    push({ type: "tool.pending", pending: [{ tool: "check_orders", error_code: "validation_error", error: "limit_price is required" }] });
    push({
      type: "tool.called",
      turn,
      call_id: `${c}c`,
      tool: "check_orders",
      arguments: { orders: [{ symbol: "AAPL", side: "BUY", quantity: 10, limit_price: 100 }] },
    });
    push({ type: "gate.dry_run", turn, call_id: `${c}c`, decisions });
    push({
      type: "tool.result",
      turn,
      call_id: `${c}c`,
      tool: "check_orders",
      success: true,
      summary: "1 approved, 1 blocked",
      truncated: false,
      duration_ms: 3,
    });
    push({ type: "tool.pending", pending: [] });
  }
  return out.slice(0, n);
}

export interface Measurement {
  perEventMs: number[];
  frames: number;
  heapDeltaMb: number;
}

/**
 * Dispatch every event through the mounted console, timing each: React flushes a store update in a
 * microtask, so each dispatch is followed by an await that lets that render (and Ink's frame) run.
 */
export async function measureRun(events: readonly RunEvent[], rows = 40): Promise<Measurement> {
  const stdout = new CountingStdout(rows);
  const store = createRunStore();
  const inst = render(<RunApp store={store} queue={new ApprovalQueue()} onInterrupt={() => {}} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  // Let the passive effects (the store subscription) attach before the first event.
  await new Promise((r) => setImmediate(r));
  const heap0 = process.memoryUsage().heapUsed;
  const perEventMs: number[] = [];
  for (const e of events) {
    const t = performance.now();
    store.dispatch(e);
    await Promise.resolve();
    perEventMs.push(performance.now() - t);
  }
  const heapDeltaMb = (process.memoryUsage().heapUsed - heap0) / 1e6;
  inst.unmount();
  inst.cleanup();
  return { perEventMs, frames: stdout.frames, heapDeltaMb };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Last 100 events' total time over the first 100's (after a warm-up run), median of `runs`. */
export async function flatnessRatio(
  n = 2000,
  runs = 3,
  opts: { rows?: number; warmup?: number } = {},
): Promise<{ ratio: number; first100Ms: number; last100Ms: number; meanMs: number; frames: number; heapDeltaMb: number }> {
  const events = scenarioEvents(n);
  await measureRun(events.slice(0, opts.warmup ?? n), opts.rows); // warm-up: JIT and Yoga
  const results = [];
  for (let i = 0; i < runs; i++) {
    const m = await measureRun(events, opts.rows);
    const first = sum(m.perEventMs.slice(0, 100));
    const last = sum(m.perEventMs.slice(-100));
    results.push({
      ratio: last / first,
      first100Ms: first,
      last100Ms: last,
      meanMs: sum(m.perEventMs) / m.perEventMs.length,
      frames: m.frames,
      heapDeltaMb: m.heapDeltaMb,
    });
  }
  results.sort((a, b) => a.ratio - b.ratio);
  return results[Math.floor(results.length / 2)] ?? { ratio: Number.NaN, first100Ms: 0, last100Ms: 0, meanMs: 0, frames: 0, heapDeltaMb: 0 };
}
