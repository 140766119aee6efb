import { describe, expect, it } from "vitest";
import { makeCheckOrdersHandler } from "../../src/tools/handlers/check-orders.js";
import type { ToolCallContext } from "../../src/tools/types.js";
import { deepFreeze, LIMITS, MARKET, state, UNIVERSE } from "./helpers.js";
import { checked } from "../tools/checked.js";

const ctx: ToolCallContext = { runId: "r1", tradingDay: "2024-05-02", seenEvidence: new Set(), pending: [] };

describe("check_orders handler", () => {
  it("tells the model a buy is funded by the batch's sells: the amount, placed after they fill, shrunk or dropped if short", async () => {
    const st = deepFreeze(state({ cash: 100, holdings: { AAA: { quantity: 10 } }, peak: 0 }));
    const handler = checked(
      "check_orders",
      makeCheckOrdersHandler(() => ({ state: st, market: MARKET, limits: { ...LIMITS, max_position_pct: 100 }, universe: UNIVERSE })),
    );
    const orders = [
      { symbol: "AAA", side: "SELL", quantity: 10, limit_price: 10, reason: "r", evidence_ids: [] },
      { symbol: "CCC", side: "BUY", quantity: 3, limit_price: 50, reason: "r", evidence_ids: [] },
    ];
    const r = await handler({ orders }, ctx);
    if (!r.ok) throw new Error("expected success");
    expect(r.data.all_approved).toBe(true);
    expect(r.data.decisions).toMatchObject([
      { symbol: "AAA", approved: true },
      {
        symbol: "CCC",
        approved: true,
        funded_by_sells: {
          amount: 50,
          currency: "USD",
          placed_after_sells_fill: true,
          note: "funded by this batch's sells: 50.00 USD; placed after the sells fill; if they fill short or not at all, the buy is shrunk to the cash received or dropped",
        },
      },
    ]);
    expect(JSON.stringify(r.data.decisions).match(/funded_by_sells/g)).toHaveLength(1);
  });
  it("returns the gate's verdicts on a copy and places nothing", async () => {
    const st = deepFreeze(state({ holdings: { AAA: { quantity: 10 } } }));
    const handler = checked(
      "check_orders",
      makeCheckOrdersHandler(() => ({ state: st, market: MARKET, limits: LIMITS, universe: UNIVERSE })),
    );
    const orders = [
      { symbol: "BBB", side: "BUY", quantity: 10, limit_price: 20, reason: "r", evidence_ids: [] },
      { symbol: "AAA", side: "SELL", quantity: 11, limit_price: 10, reason: "r", evidence_ids: [] },
    ];
    const r = await handler({ orders }, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.data.all_approved).toBe(false);
    expect(r.data.decisions).toEqual([
      {
        symbol: "AAA",
        side: "SELL",
        quantity: 11,
        limit_price: 10,
        approved: false,
        reasons: [{ code: "no_shorting", message: "sell 11 AAA exceeds the 10 held (no shorting)" }],
        notional: 110,
        commission: 0,
      },
      { symbol: "BBB", side: "BUY", quantity: 10, limit_price: 20, approved: true, reasons: [], notional: 200, commission: 0 },
    ]);
    expect(r.data.portfolio_after).toEqual({ cash: 9800, orders_this_month: 1 });
    expect(st.cash).toBe(10_000);
  });
  it("uses the run's commission model; an unknown commission is reported as null and blocks", async () => {
    const handler = checked(
      "check_orders",
      makeCheckOrdersHandler(() => ({
        state: state(),
        market: MARKET,
        limits: LIMITS,
        universe: UNIVERSE,
        commission: (o) => (o.symbol === "AAA" ? 1.5 : undefined),
      })),
    );
    const r = await handler(
      {
        orders: [
          { symbol: "AAA", side: "BUY", quantity: 10, limit_price: 10, reason: "", evidence_ids: [] },
          { symbol: "BBB", side: "BUY", quantity: 1, limit_price: 20, reason: "", evidence_ids: [] },
        ],
      },
      ctx,
    );
    if (!r.ok) throw new Error("expected success");
    const d = r.data.decisions as Array<{ commission: number | null; approved: boolean }>;
    expect(d.map((x) => [x.approved, x.commission])).toEqual([
      [true, 1.5],
      [false, null],
    ]);
    expect(JSON.parse(JSON.stringify(r.data))).toEqual(r.data);
  });
  it("fails cleanly when the run's state is unavailable", async () => {
    const handler = checked(
      "check_orders",
      makeCheckOrdersHandler(() => {
        throw new Error("prices not loaded");
      }),
    );
    const r = await handler({ orders: [] }, ctx);
    expect(r).toMatchObject({ ok: false, code: "tool_execution_failed" });
  });
});
