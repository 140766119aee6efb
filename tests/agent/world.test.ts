/**
 * The agent tests' world answers with the real gate, the real gate inputs, the real price summaries
 * and the simulated broker's real commission schedule. Each case below is a place where the old
 * "tiny gate" of tests/agent/world.ts answered differently from the product; the expected numbers
 * are computed by hand in the comments, never by re-running a rule.
 */
import { describe, expect, test } from "vitest";
import { summarizeHistory } from "../../src/market/index.js";
import { makeWorld, UP } from "./world.js";

const order = (symbol: string, side: "BUY" | "SELL", quantity: number, limit_price: number) => ({
  symbol,
  side,
  quantity,
  limit_price,
  reason: "world test",
  evidence_ids: [`price:${symbol}:2024-05-03`],
});

/** check_orders through the tool runtime, after the histories that ground the orders. */
async function checkOrders(w: ReturnType<typeof makeWorld>, orders: ReturnType<typeof order>[]) {
  for (const s of new Set(orders.map((o) => o.symbol))) {
    const h = await w.runtime.dispatch("get_price_history", JSON.stringify({ symbol: s }));
    expect(h.success).toBe(true);
  }
  const out = await w.runtime.dispatch("check_orders", JSON.stringify({ orders }));
  expect(out.success, out.text).toBe(true);
  return out.data as unknown as {
    all_approved: boolean;
    decisions: { symbol: string; side: string; approved: boolean; reasons: { code: string }[]; notional: number; commission: number | null }[];
  };
}

// The default world: cash 100,000, no holdings; last closes (2024-05-03) ALFA 167.64, BETA 67.51, GAMA 83.82.
describe("the agent tests' world is the product's gate", () => {
  test("get_price_history is the real summary of the world's bars (evidence dated by the last bar)", async () => {
    const w = makeWorld();
    const out = await w.runtime.dispatch("get_price_history", JSON.stringify({ symbol: "ALFA" }));
    const data = out.data ?? {};
    expect(data).toMatchObject({ symbol: "ALFA", as_of: "2024-05-03", last_close: 167.64, evidence_id: "price:ALFA:2024-05-03", bars_used: 127 });
    const real = summarizeHistory("ALFA", w.market.asOf("2024-05-06").history("ALFA"), "2024-05-06");
    expect(real.ok && real.summary.sma50).toBe(data.sma50);
    expect(UP().at(-1)).toBe(167.64);
  });

  test("the position limit is taken at the reference price, not the limit price", async () => {
    // 59 × 170.98 (limit, +1.99%) = 10,087.82: over 10% of 100,000 at the limit price (the tiny gate
    // blocked it), but 59 × 167.64 (reference) = 9,890.76 is under 10%: the real gate approves.
    const d = await checkOrders(makeWorld(), [order("ALFA", "BUY", 59, 170.98)]);
    expect(d.decisions[0]).toMatchObject({ symbol: "ALFA", approved: true, notional: 10_087.82 });
    // 60 × 167.64 = 10,058.40 > 10,000: blocked by the position limit.
    const over = await checkOrders(makeWorld(), [order("ALFA", "BUY", 60, 167.64)]);
    expect(over.decisions[0]?.reasons.map((r) => r.code)).toContain("position_limit");
  });

  test("sells are evaluated first: the verdicts come back in the gate's order", async () => {
    const w = makeWorld({ holdings: [{ symbol: "BETA", quantity: 40 }] });
    const d = await checkOrders(w, [order("ALFA", "BUY", 10, 167.64), order("BETA", "SELL", 40, 67.51)]);
    expect(d.decisions.map((x) => [x.side, x.symbol, x.approved])).toEqual([
      ["SELL", "BETA", true],
      ["BUY", "ALFA", true],
    ]);
    expect(w.evaluate([order("ALFA", "BUY", 10, 167.64), order("BETA", "SELL", 40, 67.51)]).map((x) => x.order.side)).toEqual(["SELL", "BUY"]);
  });

  test("commission by the simulated broker's schedule: max(1.00, 0.005/share), at most 1% of the value", async () => {
    // 400 BETA @ 67.51: max(1.00, 400 × 0.005 = 2.00) = 2.00 (the cap, 1% of 27,004, is 270.04).
    // 1 BETA @ 67.51: max(1.00, 0.005) = 1.00, capped at 1% of 67.51 = 0.6751 → 0.68.
    const d = await checkOrders(makeWorld({ maxPositionPct: 50 }), [order("BETA", "BUY", 400, 67.51)]);
    expect(d.decisions[0]).toMatchObject({ approved: true, notional: 27_004, commission: 2 });
    const one = await checkOrders(makeWorld(), [order("BETA", "BUY", 1, 67.51)]);
    expect(one.decisions[0]).toMatchObject({ approved: true, notional: 67.51, commission: 0.68 });
  });

  test("cash covers the notional and the commission", async () => {
    // cash 1,000: 5 × 199.00 = 995.00 + commission max(1.00, 0.025) = 1.00 (cap 9.95) → 996.00 fits;
    // 5 × 199.90 = 999.50 + 1.00 = 1,000.50 does not (the tiny gate compared the notional alone).
    const series = { ALFA: UP().map((x) => Math.round((x + 31.36) * 100) / 100) }; // last close 199.00
    const fits = await checkOrders(makeWorld({ cash: 1000, maxPositionPct: 100, series }), [order("ALFA", "BUY", 5, 199)]);
    expect(fits.decisions[0]?.approved).toBe(true);
    const short = await checkOrders(makeWorld({ cash: 1000, maxPositionPct: 100, series }), [order("ALFA", "BUY", 5, 199.9)]);
    expect(short.decisions[0]?.reasons.map((r) => r.code)).toEqual(["insufficient_cash"]);
  });
});
