import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.js";
import { createRunStore, finishedItems, initialRunState, type RunItem, type RunState, reduceRun } from "../../src/screens/run-state.js";
import { ev, fakeGate, order } from "./helpers.js";

const reduceAll = (events: RunEvent[], s: RunState = initialRunState()) => events.reduce(reduceRun, s);
const lastItem = (s: RunState): RunItem | undefined => s.items[s.itemCount - 1];
const decisions = fakeGate({ prices: { AAPL: 100, MSFT: 200 }, cash: 5000 })([order("AAPL", "BUY", 10, 100), order("MSFT", "BUY", 10, 250)]);

const started = ev({
  type: "run.started",
  run_id: "run-1",
  mode: "paper",
  trading_day: "2026-03-02",
  model: { provider: "scripted", id: "demo" },
  broker: { kind: "sim", account_id: "SIM-1", endpoint: "local" },
  base_currency: "USD",
});
const valuation = ev({
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
});

describe("reduceRun", () => {
  it("run.started fills the header and logs a note", () => {
    const s = reduceAll([started]);
    expect(s.header).toMatchObject({
      run_id: "run-1",
      mode: "paper",
      trading_day: "2026-03-02",
      model: "scripted/demo",
      broker: "sim",
      account: "SIM-1",
      base_currency: "USD",
    });
    expect(s.status.phase).toBe("preflight");
    expect(lastItem(s)).toMatchObject({ kind: "note", tone: "accent" });
  });

  it("preflight.failed, reconcile.ok and reconcile.failed", () => {
    expect(lastItem(reduceAll([ev({ type: "preflight.failed", code: "lock", message: "another run holds the lock" })]))).toMatchObject({
      kind: "note",
      tone: "error",
      text: expect.stringContaining("lock"),
    });
    const ok = reduceAll([ev({ type: "reconcile.ok", positions: 3 })]);
    expect(ok.status.phase).toBe("valuation");
    expect(lastItem(ok)).toMatchObject({ text: expect.stringContaining("3 positions") });
    const bad = reduceAll([
      ev({
        type: "reconcile.failed",
        differences: [{ kind: "position_mismatch", symbol: "AAPL", journal_quantity: 1, broker_quantity: 2, message: "journal 1, broker 2" }],
      }),
    ]);
    expect(lastItem(bad)).toMatchObject({ kind: "note", tone: "error", detail: ["position_mismatch AAPL: journal 1, broker 2"] });
    expect(bad.status.phase).toBe("finished");
  });

  it("news searches and masking show as lines; a mask leak as an error", () => {
    const search = reduceAll([
      ev({
        type: "research.search",
        query: "ALFA",
        provider: "embedded",
        status: "success",
        duration_ms: 1,
        retrieved: 6,
        returned: 2,
        removed: { cutoff: 3, undated: 0, policy: 0, duplicates: 1 },
        invalid: 0,
      }),
    ]);
    expect(lastItem(search)).toMatchObject({
      kind: "note",
      tone: "dim",
      text: "news search (embedded) success: 2 returned of 6; removed cutoff 3, undated 0, policy 0, duplicates 1",
    });
    const leak = reduceAll([ev({ type: "mask.leak", turn: 2, kind: "symbol", found: "ALFA", where: "text" })]);
    expect(lastItem(leak)).toMatchObject({ kind: "note", tone: "error", text: expect.stringContaining('a real symbol "ALFA"') });
  });

  it("valuation updates value, peak, drawdown, state and orders left", () => {
    const s = reduceAll([started, valuation]);
    expect(s.header).toMatchObject({
      value: 98_000,
      cash: 50_000,
      peak: 100_000,
      drawdown_pct: 2,
      max_drawdown_pct: 10,
      trading_state: "ACTIVE",
      orders_left: 7,
      orders_used: 3,
    });
  });

  it("killswitch.tripped halts and lists the liquidation", () => {
    const s = reduceAll([
      started,
      ev({
        type: "killswitch.tripped",
        value: 89_000,
        peak: 100_000,
        drawdown_pct: 11,
        limit_pct: 10,
        reason: "drawdown 11% ≥ 10%",
        liquidation: [order("AAPL", "SELL", 5, 99)],
      }),
    ]);
    expect(s.header.trading_state).toBe("HALTED");
    expect(lastItem(s)).toMatchObject({ kind: "note", tone: "error", detail: ["liquidate: SELL 5 AAPL @ 99"] });
  });

  it("run.note appends with its level", () => {
    expect(lastItem(reduceAll([ev({ type: "run.note", level: "warn", message: "stale prices" })]))).toMatchObject({ tone: "warn", text: "note: stale prices" });
    expect(lastItem(reduceAll([ev({ type: "run.note", level: "info", message: "hello" })]))).toMatchObject({ tone: "dim" });
  });

  it("turn_started sets thinking and the status; text streams live; model.response finishes the block", () => {
    let s = reduceAll([
      started,
      ev({ type: "model.turn_started", turn: 1, max_turns: 8, time_left_ms: 60_000, cost_usd: 0, budget_usd: 0.5 }, "2026-03-02T14:00:00.000Z"),
    ]);
    expect(s.status).toMatchObject({
      thinking: true,
      turn: 1,
      max_turns: 8,
      budget_usd: 0.5,
      phase: "agent",
      deadline_ms: Date.parse("2026-03-02T14:01:00.000Z"),
    });
    const count = s.itemCount;
    s = reduceAll([ev({ type: "model.text", turn: 1, delta: "Looking at " }), ev({ type: "model.text", turn: 1, delta: "AAPL." })], s);
    expect(s.live).toEqual({ turn: 1, text: "Looking at AAPL." });
    expect(s.itemCount).toBe(count);
    s = reduceRun(
      s,
      ev({
        type: "model.response",
        turn: 1,
        stop_reason: "tool_use",
        usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 50 },
        cost_usd: 0.01,
        total_cost_usd: 0.01,
        duration_ms: 1200,
      }),
    );
    expect(s.live).toBeNull();
    expect(s.status.thinking).toBe(false);
    expect(s.status.cost_usd).toBe(0.01);
    const items = finishedItems(s);
    expect(items[items.length - 2]).toMatchObject({ kind: "text", turn: 1, text: "Looking at AAPL." });
    expect(items[items.length - 1]).toMatchObject({ kind: "note", text: expect.stringContaining("turn 1: tool_use") });
  });

  it("model.retry shows in the status without ending the text", () => {
    const s = reduceAll([
      ev({ type: "model.turn_started", turn: 1, max_turns: 8, time_left_ms: 1000, cost_usd: 0, budget_usd: 1 }),
      ev({ type: "model.text", turn: 1, delta: "x" }),
      ev({ type: "model.retry", turn: 1, attempt: 2, message: "overloaded" }),
    ]);
    expect(s.status.retry).toBe("retry 2: overloaded");
    expect(s.live?.text).toBe("x");
  });

  it("tool.called is live until tool.result, which records args and the result", () => {
    let s = reduceAll([ev({ type: "tool.called", turn: 1, call_id: "c1", tool: "get_quote", arguments: { symbol: "AAPL" } })]);
    expect(s.pendingTools).toEqual([{ call_id: "c1", tool: "get_quote", args: '{"symbol":"AAPL"}', turn: 1 }]);
    s = reduceRun(
      s,
      ev({ type: "tool.result", turn: 1, call_id: "c1", tool: "get_quote", success: true, summary: "AAPL 100.00", truncated: false, duration_ms: 3 }),
    );
    expect(s.pendingTools).toEqual([]);
    expect(lastItem(s)).toMatchObject({ kind: "tool", tool: "get_quote", args: '{"symbol":"AAPL"}', status: "ok", message: "AAPL 100.00", duration_ms: 3 });
    s = reduceRun(
      s,
      ev({ type: "tool.result", turn: 1, call_id: "c2", tool: "x", success: false, error_code: "not_found", summary: "nope", truncated: true, duration_ms: 1 }),
    );
    expect(lastItem(s)).toMatchObject({ status: "failed", error_code: "not_found", truncated: true });
  });

  it("tool.rejected records the error code, correction instruction and issues", () => {
    const s = reduceAll([
      ev({ type: "tool.called", turn: 2, call_id: "c9", tool: "check_orders", arguments: { orders: [] } }),
      ev({
        type: "tool.rejected",
        turn: 2,
        call_id: "c9",
        tool: "check_orders",
        error_code: "validation_error",
        error: "orders must not be empty",
        retryable: true,
        correction: {
          tool: "check_orders",
          instruction: "Send at least one order.",
          valid_arguments_example: {},
          received_arguments: {},
          issues: [{ path: "/orders", message: "must NOT have fewer than 1 items" }],
          missing_fields: ["orders.0.symbol"],
        },
      }),
    ]);
    expect(lastItem(s)).toMatchObject({
      kind: "tool",
      status: "rejected",
      error_code: "validation_error",
      retryable: true,
      args: '{"orders":[]}',
      correction: { instruction: "Send at least one order.", issues: ["/orders: must NOT have fewer than 1 items"], missing: ["orders.0.symbol"] },
    });
  });

  it("tool.pending sets and clears the pending corrections", () => {
    let s = reduceAll([ev({ type: "tool.pending", pending: [{ tool: "check_orders", error_code: "validation_error", error: "fix it" }] })]);
    expect(s.pending).toHaveLength(1);
    expect(lastItem(s)).toMatchObject({ kind: "pending" });
    s = reduceRun(s, ev({ type: "tool.pending", pending: [] }));
    expect(s.pending).toEqual([]);
  });

  it("gate.dry_run, submit.bounced, proposal and gate.final list per-order verdicts", () => {
    const dry = reduceAll([ev({ type: "gate.dry_run", turn: 1, call_id: "c1", decisions })]);
    expect(lastItem(dry)).toMatchObject({
      kind: "verdicts",
      title: "gate dry run: 1 approved, 1 blocked",
      rows: [{ approved: true }, { approved: false, reasons: [expect.stringContaining("price_band")] }],
    });
    expect(lastItem(reduceAll([ev({ type: "submit.bounced", turn: 1, decisions })]))).toMatchObject({ kind: "verdicts", tone: "warn" });
    const prop = reduceAll([
      ev({
        type: "proposal",
        orders: decisions.map((d) => order(d.order.symbol, "BUY", d.order.quantity, d.order.limit_price)),
        summary: "buy two",
        decisions,
        abandoned: ["check_orders"],
      }),
    ]);
    expect(lastItem(prop)).toMatchObject({
      kind: "verdicts",
      title: "proposal: 2 order(s)",
      footer: ["summary: buy two", "abandoned corrections: check_orders"],
    });
    expect(prop.status.phase).toBe("proposal");
    const fin = reduceAll([ev({ type: "gate.final", decisions: decisions.slice(0, 1) })]);
    expect(lastItem(fin)).toMatchObject({ title: "final gate: 1 approved, 0 blocked", tone: "ok" });
    expect(fin.status.phase).toBe("executing");
  });

  it("agent.finished records the outcome and clears thinking", () => {
    const s = reduceAll([
      ev({ type: "model.turn_started", turn: 1, max_turns: 2, time_left_ms: 1, cost_usd: 0, budget_usd: 1 }),
      ev({ type: "agent.finished", outcome: "submitted", reason: "valid submit_orders", turns: 1, cost_usd: 0.02 }),
    ]);
    expect(s.agent).toEqual({ outcome: "submitted", reason: "valid submit_orders", turns: 1, cost_usd: 0.02 });
    expect(s.status.thinking).toBe(false);
    expect(s.status.cost_usd).toBe(0.02);
  });

  it("approval.requested and approval.decided", () => {
    let s = reduceAll([ev({ type: "approval.requested", orders_hash: "abcdef0123456789", approvable: 1, blocked: 1 })]);
    expect(s.approval).toEqual({ orders_hash: "abcdef0123456789", approvable: 1, blocked: 1 });
    expect(s.status.phase).toBe("approval");
    s = reduceRun(s, ev({ type: "approval.decided", decision: "approved", by: "operator", orders: [order("AAPL", "BUY", 10, 100)], orders_hash: "abc" }));
    expect(s.approval).toBeNull();
    expect(lastItem(s)).toMatchObject({ kind: "note", tone: "ok", text: "decision: approved by operator (1 order(s))", detail: ["BUY 10 AAPL @ 100"] });
  });

  it("every order.* event becomes an order line", () => {
    const base = { client_order_id: "tw-1", symbol: "AAPL", side: "BUY" as const, quantity: 10, limit_price: 100 };
    const s = reduceAll([
      ev({ type: "order.placed", ...base }),
      ev({ type: "order.partially_filled", ...base, filled_quantity: 4, avg_price: 99.9 }),
      ev({ type: "order.filled", ...base, filled_quantity: 10, avg_price: 99.95, commission: 1 }),
      ev({ type: "order.cancelled", ...base, filled_quantity: 0, message: "end of day" }),
      ev({ type: "order.rejected", ...base, message: "no buying power" }),
      ev({ type: "order.uncertain", ...base, message: "timeout" }),
      ev({ type: "order.expired", ...base, filled_quantity: 2 }),
    ]);
    const items = finishedItems(s);
    expect(items.map((i) => (i.kind === "order" ? `${i.tone}:${i.text.split(":")[0]}` : i.kind))).toEqual([
      "plain:order placed",
      "plain:order partially filled",
      "ok:order filled",
      "warn:order cancelled",
      "error:order rejected",
      "error:order uncertain",
      "warn:order expired",
    ]);
  });

  it("run.finished records the final outcome", () => {
    const s = reduceAll([
      started,
      ev({ type: "run.finished", outcome: "executed", exit_code: 0, message: "2 orders filled", value_after: 98_100, cost_usd: 0.03 }),
    ]);
    expect(s.final).toEqual({ outcome: "executed", exit_code: 0, message: "2 orders filled", value_after: 98_100, cost_usd: 0.03 });
    expect(s.status.phase).toBe("finished");
    expect(lastItem(s)).toMatchObject({ tone: "ok", text: expect.stringContaining("run finished: executed") });
  });

  it("a non-text event ends the streamed text block before its own item (order kept)", () => {
    const s = reduceAll([
      ev({ type: "model.turn_started", turn: 1, max_turns: 2, time_left_ms: 1, cost_usd: 0, budget_usd: 1 }),
      ev({ type: "model.text", turn: 1, delta: "thinking aloud" }),
      ev({ type: "tool.result", turn: 1, call_id: "z", tool: "t", success: true, summary: "ok", truncated: false, duration_ms: 1 }),
    ]);
    expect(finishedItems(s).map((i) => i.kind)).toEqual(["text", "tool"]);
  });

  it("sanitises model and tool text of escape codes", () => {
    const s = reduceAll([
      ev({ type: "model.turn_started", turn: 1, max_turns: 2, time_left_ms: 1, cost_usd: 0, budget_usd: 1 }),
      ev({ type: "model.text", turn: 1, delta: "red \u001b[31mALERT\u001b[0m \u001b]0;pwned\u0007done" }),
      ev({ type: "tool.result", turn: 1, call_id: "z", tool: "t\u001b[2J", success: true, summary: "sum\u001b[1Amary", truncated: false, duration_ms: 1 }),
    ]);
    const text = JSON.stringify(finishedItems(s));
    expect(text).not.toMatch(/\\u001b/);
    expect(finishedItems(s)[0]).toMatchObject({ kind: "text", text: "red ALERT done" });
    expect(finishedItems(s)[1]).toMatchObject({ tool: "t", message: "summary" });
  });

  it("keys are unique and stable; the list is append-only with O(1) growth", () => {
    let s = initialRunState();
    const states: RunState[] = [];
    for (let i = 0; i < 50; i++) {
      s = reduceRun(s, ev({ type: "run.note", level: "info", message: `n${i}` }));
      states.push(s);
    }
    const keys = finishedItems(s).map((i) => i.key);
    expect(new Set(keys).size).toBe(50);
    // Older states see the same items (the array is shared, appended in place).
    expect(states[10]?.items).toBe(s.items);
    expect(states[10]?.itemCount).toBe(11);
    expect(finishedItems(states[10] as RunState).map((i) => i.key)).toEqual(keys.slice(0, 11));
  });

  it("the store runs the reducer exactly once per event and notifies", () => {
    const store = createRunStore();
    let n = 0;
    store.subscribe(() => n++);
    store.dispatch(ev({ type: "run.note", level: "info", message: "a" }));
    store.dispatch(ev({ type: "run.note", level: "info", message: "b" }));
    expect(n).toBe(2);
    expect(store.getState().itemCount).toBe(2);
  });
});
