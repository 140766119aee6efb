/**
 * A buy the cash held does not cover, paid by the proceeds of the same batch's sells: approved as
 * *funded by this batch's sells*, with the amount (placed only after the sells fill — the run's
 * second wave). What stays blocked: a buy that does not fit even with the sells, a buy "funded" by a
 * sell the gate blocked, and proceeds counted twice.
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/gate/evaluate.js";
import { fundedBySellsText } from "../../src/gate/format.js";
import { verdictLine } from "../../src/printers/format.js";
import type { GateMarket, GateOrder, GateResult, GateState } from "../../src/core/gate-types.js";
import { buy, LIMITS, MARKET, sell, state, UNIVERSE } from "./helpers.js";

const run = (orders: GateOrder[], st: GateState, market: GateMarket = MARKET): GateResult =>
  evaluate(orders, st, market, { ...LIMITS, max_position_pct: 100 }, UNIVERSE);
const held = (cash: number, holdings: GateState["holdings"]) => state({ cash, holdings, peak: 0 });

describe("a buy funded by this batch's sells", () => {
  it("guardrail-trader's SELL BBB 20 @45 + BUY CCC 30 → ok: approved, funded by the sell, with the amount", () => {
    const market = { ...MARKET, BBB: { price: 45, commission: 1 }, CCC: { price: 30, commission: 1 } };
    // Cash 500; BUY 30 CCC @30 costs 901; the sell brings 20 × 45 − 1 = 899.
    const r = run([sell("BBB", 20, 45), buy("CCC", 30, 30)], held(500, { BBB: { quantity: 20 } }), market);
    expect(r.decisions.map((d) => d.approved)).toEqual([true, true]);
    expect(r.decisions[0]?.funded_by_sells).toBeUndefined();
    // 901 − 500 = 401.00 USD of the buy's cost comes from the sell.
    expect(r.decisions[1]?.funded_by_sells).toEqual({ amount_minor: 40100, currency: "USD" });
    expect(r.cash_after_minor).toBe(50000 + 89900 - 90100);
  });

  it("says so in words: the verdict line and the gate's sentence", () => {
    const r = run([sell("AAA", 10, 10), buy("CCC", 3, 50)], held(100, { AAA: { quantity: 10 } }));
    const d = r.decisions[1];
    expect(d?.funded_by_sells).toEqual({ amount_minor: 5000, currency: "USD" });
    expect(fundedBySellsText({ amount_minor: 123456, currency: "USD" })).toBe("funded by this batch's sells: 1,234.56 USD; placed after the sells fill");
    expect(d && verdictLine(d)).toBe(
      "BUY 3 CCC @ 50.00: approved, funded by this batch's sells: 50.00 USD; placed after the sells fill (notional 150.00, commission 0.00)",
    );
  });

  it("a buy that does not fit even with the sells stays blocked, the message naming both", () => {
    const market = { ...MARKET, AAA: { price: 10, commission: 1 } };
    // Cash 100, the sell brings 10 × 10 − 1 = 99: a 200 buy is 1.00 short.
    const r = run([sell("AAA", 10, 10), buy("CCC", 4, 50)], held(100, { AAA: { quantity: 10 }, BBB: { quantity: 100 } }), market);
    expect(r.decisions.map((d) => d.approved)).toEqual([true, false]);
    expect(r.decisions[1]?.funded_by_sells).toBeUndefined();
    expect(r.decisions[1]?.reasons).toEqual([
      {
        code: "insufficient_cash",
        message: "cost 200.00 USD (notional 200.00 + commission 0.00) exceeds cash 100.00 USD plus 99.00 USD of proceeds from this batch's sells",
      },
    ]);
  });

  it("no margin through a sell the gate blocked: a blocked sell funds nothing", () => {
    // Selling 20 AAA while holding 10 is blocked (no shorting): its proceeds do not exist.
    const r = run([sell("AAA", 20, 10), buy("CCC", 3, 50)], held(100, { AAA: { quantity: 10 } }));
    expect(r.decisions.map((d) => d.approved)).toEqual([false, false]);
    expect(r.decisions[1]?.reasons.map((x) => x.code)).toEqual(["insufficient_cash"]);
    expect(r.decisions[1]?.reasons[0]?.message).not.toContain("proceeds");
  });

  it("proceeds are spent once: two buys share them, the one beyond is blocked", () => {
    // Cash 0, the sell brings 200: 150 + 50 fit, a further 110 does not.
    const r = run([buy("CCC", 3, 50), buy("AAA", 5, 10), buy("EUR1", 1, 100), sell("BBB", 10, 20)], held(0, { BBB: { quantity: 10 } }));
    expect(r.decisions.map((d) => [d.order.symbol, d.approved, d.funded_by_sells?.amount_minor])).toEqual([
      ["BBB", true, undefined],
      ["CCC", true, 15000],
      ["AAA", true, 5000],
      ["EUR1", false, undefined],
    ]);
    expect(r.decisions[3]?.reasons[0]?.message).toBe("cost 110.00 USD (notional 110.00 + commission 0.00) exceeds cash 0.00 USD");
  });

  it("only the part beyond the cash held (less open buys) is funded; open sells fund nothing", () => {
    const st = state({
      cash: 100,
      holdings: { AAA: { quantity: 10 }, BBB: { quantity: 5 } },
      peak: 0,
      open_orders: [
        { symbol: "EUR1", side: "BUY", quantity: 0.5, limit_price: 100 },
        { symbol: "BBB", side: "SELL", quantity: 5, limit_price: 20 },
      ],
    });
    // Available: 100 − 55 (open buy) = 45; the buy of 150 needs 105 of the sell's 100: blocked.
    expect(run([sell("AAA", 10, 10), buy("CCC", 3, 50)], st).decisions[1]?.approved).toBe(false);
    // A buy of 100 needs 55 of them: funded by 55.00.
    expect(run([sell("AAA", 10, 10), buy("AAA", 10, 10)], st).decisions[1]?.funded_by_sells).toEqual({ amount_minor: 5500, currency: "USD" });
  });

  it("a buy the cash held covers is never marked funded, whatever the batch sells", () => {
    const r = run([sell("AAA", 10, 10), buy("CCC", 1, 50)], held(1000, { AAA: { quantity: 10 } }));
    expect(r.decisions.map((d) => d.funded_by_sells)).toEqual([undefined, undefined]);
  });
});
