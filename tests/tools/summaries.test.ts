/** The one-line summary of a tool result (the `tool.result` event's `summary`), from each tool's definition. */
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/tools/catalogue.js";
import { summarizeEnvelope } from "../../src/tools/summary.js";

const ok = (tool: string, result: Record<string, unknown>) => summarizeEnvelope(tool, { success: true, ...result });

describe("tool result summaries", () => {
  it("every catalogue tool defines its summary", () => {
    for (const t of CATALOGUE) expect(typeof t.summarize, t.name).toBe("function");
  });

  it("summarises each tool's result in one line", () => {
    expect(
      ok("screen_universe", {
        returned: 2,
        matched: 9,
        sort: { by: "rsi_14", order: "asc" },
        results: [
          { symbol: "ALFA", rsi_14: 28.1 },
          { symbol: "BETA", rsi_14: 31 },
        ],
      }),
    ).toBe("2 of 9 by rsi_14 asc: ALFA 28.1, BETA 31");
    expect(ok("execute_code", { elapsed_ms: 12, result: { a: 1 }, output: "x\ny\n" })).toBe('ran in 12 ms → {"a":1} (+2 output line(s))');
    expect(ok("add_watchlist", { item: { symbol: "ALFA", ttl_trading_days: 10, expires_on: "2024-01-19", alert_below: 95 }, replaced: null })).toBe(
      "watching ALFA for 10 trading days (until 2024-01-19), alert ≤ 95",
    );
    expect(ok("get_watchlist", { total: 1, items: [{ symbol: "ALFA", change_since_added_pct: -2.5 }] })).toBe("1 on the watchlist: ALFA -2.5%");
    expect(
      ok("place_standing_order", {
        standing_order: {
          id: "so-1",
          status: "proposed",
          type: "stop_loss",
          symbol: "ALFA",
          trigger_price: 90,
          side: "SELL",
          quantity: 5,
          limit_price: 89.5,
          expires_on: "2024-02-01",
        },
      }),
    ).toBe("standing order so-1 proposed: stop_loss ALFA at 90.00 → SELL 5 @ 89.50 (through 2024-02-01)");
    expect(ok("check_orders", { all_approved: false, decisions: [{ approved: true }, { approved: false }, { approved: false }], portfolio_after: {} })).toBe(
      "3 order(s): 1 approved, 2 blocked",
    );
    expect(ok("submit_orders", { accepted_orders: 0, hold: true })).toBe("hold submitted");
    expect(ok("recall", { about_these_notes: "x", notes: [], total: 0 })).toBe("ok (about_these_notes, notes, total)");
  });

  it("a failure is its code and message; an unknown tool's success lists its fields", () => {
    expect(summarizeEnvelope("get_portfolio", { success: false, error: "x".repeat(300), error_code: "tool_execution_failed" })).toBe(
      `tool_execution_failed: ${"x".repeat(200)}`,
    );
    expect(ok("no_such_tool", { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 })).toBe("ok (a, b, c, d, e, f, …)");
  });
});
