/** The console shows the new tools' results and standing orders firing at the start of a run. */
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/agent/loop.js";
import { initialRunState, type RunItem, type RunState, reduceRun } from "../../src/screens/run-state.js";
import type { RunEvent } from "../../src/core/events.js";
import { ev, order } from "./helpers.js";

const lastItem = (s: RunState): RunItem | undefined => s.items[s.itemCount - 1];
const reduceAll = (events: RunEvent[]) => events.reduce(reduceRun, initialRunState());

const outcome = (tool: string, envelope: Record<string, unknown>) =>
  ({ tool, success: true, envelope: { success: true, ...envelope }, text: "", truncated: false, durationMs: 1, stage: "ok", arguments: {} }) as Parameters<typeof summarize>[0];

describe("the console and the new tools", () => {
  it("summarises each new tool's result in one line", () => {
    expect(summarize(outcome("screen_universe", { returned: 2, matched: 9, sort: { by: "rsi_14", order: "asc" }, results: [{ symbol: "ALFA", rsi_14: 28.1 }, { symbol: "BETA", rsi_14: 31 }] }))).toBe(
      "2 of 9 by rsi_14 asc: ALFA 28.1, BETA 31",
    );
    expect(summarize(outcome("execute_code", { elapsed_ms: 12, result: { a: 1 }, output: "x\ny\n" }))).toBe('ran in 12 ms → {"a":1} (+2 output line(s))');
    expect(summarize(outcome("add_watchlist", { item: { symbol: "ALFA", ttl_trading_days: 10, expires_on: "2024-01-19", alert_below: 95 }, replaced: null }))).toBe(
      "watching ALFA for 10 trading days (until 2024-01-19), alert ≤ 95",
    );
    expect(summarize(outcome("get_watchlist", { total: 1, items: [{ symbol: "ALFA", change_since_added_pct: -2.5 }] }))).toBe("1 on the watchlist: ALFA -2.5%");
    expect(summarize(outcome("place_standing_order", { standing_order: { id: "so-1", status: "proposed", type: "stop_loss", symbol: "ALFA", trigger_price: 90, side: "SELL", quantity: 5, limit_price: 89.5, expires_on: "2024-02-01" } }))).toBe(
      "standing order so-1 proposed: stop_loss ALFA at 90 → SELL 5 @ 89.5 (through 2024-02-01)",
    );
  });

  it("a fired standing order is a line on the run screen, placed or blocked", () => {
    const base = { type: "standing.fired" as const, id: "so-1", standing_type: "stop_loss", trigger_price: 90, reference_price: 89.8, order: order("ALFA", "SELL", 5, 89.5), approved_by: "alice", binding_hash: "h" };
    expect(lastItem(reduceAll([ev({ ...base, result: "placed", reasons: [] })]))).toMatchObject({
      kind: "note",
      tone: "ok",
      text: "standing order so-1 (stop_loss at 90: SELL 5 ALFA @ 89.5, approved by alice) fired at reference 89.8: passed the final gate, placing it",
    });
    expect(lastItem(reduceAll([ev({ ...base, result: "blocked", reasons: [{ code: "quota", message: "monthly quota used up" }] })]))).toMatchObject({
      tone: "warn",
      text: expect.stringMatching(/blocked by the final gate, not placed \(monthly quota used up\)$/),
    });
    expect(lastItem(reduceAll([ev({ ...base, reference_price: null, result: "expired", reasons: [] })]))).toMatchObject({ text: expect.stringMatching(/expired unfired$/) });
  });
});
