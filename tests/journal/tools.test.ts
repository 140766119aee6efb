import { describe, expect, it } from "vitest";
import type { PriceSource } from "../../src/core/domain.js";
import { makeJournalToolHandlers } from "../../src/tools/handlers/journal.js";
import type { ToolCallContext } from "../../src/tools/types.js";
import { buy, freshJournal, startRun } from "./helpers.js";
import { checkedAll } from "../tools/checked.js";

const ctx: ToolCallContext = { runId: "r2", tradingDay: "2024-01-03", seenEvidence: new Set(), pending: [] };
const prices: PriceSource = {
  referencePrice: (s) => (s === "AAA" ? { symbol: "AAA", price: 120, as_of: "2024-01-02", currency: "USD", fx_to_base: 1 } : undefined),
};

describe("journal tool handlers", () => {
  it("get_portfolio reports cash, holdings with weights and P&L, peak, drawdown, quota and activity", async () => {
    const j = await freshJournal({ capital: 10_000 });
    await startRun(j, "r1");
    await j.observeFirstValuation("r1", 10_000, new Date());
    await buy(j, "r1", "c1", "AAA", 10, 100, 2);
    await buy(j, "r1", "c2", "BBB", 5, 10, 0);
    await j.finishRun("r1", { status: "completed", outcome: "executed", exit_code: 0, message: "", at: new Date() });
    await startRun(j, "r2", "2024-01-03T14:00:00Z");
    const h = checkedAll(
      makeJournalToolHandlers({
        journal: j,
        prices,
        limits: { max_orders_per_month: 10, max_drawdown_pct: 15 },
        now: () => new Date("2024-01-03T14:00:00Z"),
        runId: "r2",
        tradingDay: "2024-01-03",
      }),
    );
    const res = await h.get_portfolio({}, ctx);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.evidenceIds).toEqual(["portfolio:r2"]);
    const d = res.data as Record<string, unknown>;
    expect(d).toMatchObject({
      evidence_id: "portfolio:r2",
      as_of: "2024-01-03",
      base_currency: "USD",
      cash: 8948,
      value: 10_148, // 8948 + 1200; BBB has no price
      peak: 10_000,
      drawdown_pct: 0,
      max_drawdown_pct: 15,
      trading_state: "ACTIVE",
      orders_used_this_month: 2,
      orders_left_this_month: 8,
    });
    const holdings = d.holdings as Record<string, unknown>[];
    expect(holdings[0]).toEqual({
      symbol: "AAA",
      quantity: 10,
      currency: "USD",
      reference_price: 120,
      price_as_of: "2024-01-02",
      market_value: 1200,
      weight_pct: 11.82,
      avg_cost: 100.2,
      unrealized_pnl: 198,
      unrealized_pnl_pct: 19.76,
    });
    expect(holdings[1]).toMatchObject({ symbol: "BBB", reference_price: null, market_value: null, weight_pct: null, unrealized_pnl: null });
    expect((d.recent_activity as unknown[]).length).toBe(2);
  });

  it("remember and recall", async () => {
    const j = await freshJournal();
    await startRun(j, "r2");
    const h = checkedAll(
      makeJournalToolHandlers({
        journal: j,
        prices,
        limits: { max_orders_per_month: 10, max_drawdown_pct: 15 },
        now: () => new Date(),
        runId: "r2",
        tradingDay: "2024-01-03",
      }),
    );
    const a = await h.remember({ kind: "watch", text: "AAA momentum", symbol: "AAA" }, ctx);
    expect(a).toMatchObject({ ok: true, data: { note: { id: "n-1", kind: "watch", run_id: "r2" } } });
    const bad = await h.remember({ kind: "plan", text: "x", supersedes: "n-9" }, ctx);
    expect(bad).toMatchObject({ ok: false, code: "note_not_found" });
    const r = await h.recall({ symbol: "AAA" }, ctx);
    expect(r).toMatchObject({ ok: true, data: { total: 1, notes: [{ id: "n-1" }] } });
    for (let i = 0; i < 49; i++) await h.remember({ kind: "observation", text: `n${i}` }, ctx);
    expect(await h.remember({ kind: "observation", text: "full" }, ctx)).toMatchObject({ ok: false, code: "memory_full" });
  });
});
