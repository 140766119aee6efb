import { describe, expect, it } from "vitest";
import { drawdownPct, evaluate, killSwitchTriggered, portfolioValue } from "../../src/gate/evaluate.js";
import type { GateOrder, GateResult, GateState, Limits } from "../../src/core/gate-types.js";
import { buy, deepFreeze, LIMITS, MARKET, sell, state, UNIVERSE } from "./helpers.js";

const run = (orders: GateOrder[], st: GateState = state(), limits: Partial<Limits> = {}, market = MARKET): GateResult =>
  evaluate(orders, st, market, { ...LIMITS, ...limits }, UNIVERSE);
const codes = (r: GateResult, i = 0) => r.decisions[i]?.reasons.map((x) => x.code) ?? [];
const one = (o: GateOrder, st?: GateState, limits?: Partial<Limits>, market = MARKET) => run([o], st, limits, market);

describe("side", () => {
  it("accepts BUY/SELL in any case", () => {
    expect(one(buy("AAA", 1, 10, { side: "buy" })).decisions[0]?.approved).toBe(true);
    expect(one(sell("AAA", 1, 10, { side: "Sell" }), state({ holdings: { AAA: { quantity: 1 } } })).decisions[0]?.approved).toBe(true);
  });
  it("blocks any other side with that reason alone", () => {
    const r = one({ symbol: "ZZZ", side: "HOLD", quantity: -1, limit_price: 0 });
    expect(codes(r)).toEqual(["invalid_side"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain('"HOLD"');
    expect(codes(one({ symbol: "AAA", side: 7 as unknown as string, quantity: 1, limit_price: 10 }))).toEqual(["invalid_side"]);
  });
});

describe("allowlist and exchange", () => {
  it("blocks a symbol outside the universe, accepts any case of a listed one", () => {
    expect(codes(one(buy("ZZZ", 1, 10)))).toEqual(["not_allowlisted"]);
    expect(one(buy("aaa", 1, 10)).decisions[0]?.approved).toBe(true);
  });
  it("blocks the wrong exchange, accepts the right one in any case and any exchange when the instrument has none", () => {
    const r = one(buy("AAA", 1, 10, { exchange: "NYSE" }));
    expect(codes(r)).toEqual(["wrong_exchange"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("AAA trades on SMART, not NYSE");
    expect(one(buy("AAA", 1, 10, { exchange: "smart" })).decisions[0]?.approved).toBe(true);
    expect(one(buy("CCC", 1, 50, { exchange: "ARCA" })).decisions[0]?.approved).toBe(true);
  });
});

describe("non-finite numbers", () => {
  it("blocks NaN, Infinity and non-numbers without throwing, replacing every other reason", () => {
    for (const q of [Number.NaN, Number.POSITIVE_INFINITY, "10" as unknown as number]) {
      const r = one(buy("ZZZ", q, 10, { exchange: "X" }));
      expect(codes(r)).toEqual(["non_finite_number"]);
    }
    expect(codes(one(buy("AAA", 1, Number.NEGATIVE_INFINITY)))).toEqual(["non_finite_number"]);
  });
  it("blocks everything when the portfolio has non-finite numbers", () => {
    const r = run([buy("AAA", 1, 10), sell("AAA", 1, 10)], state({ cash: Number.NaN }));
    expect(r.decisions.every((d) => !d.approved && d.reasons[0]?.code === "non_finite_number")).toBe(true);
    const r2 = run([buy("AAA", 1, 10)], state({ holdings: { AAA: { quantity: Number.POSITIVE_INFINITY } } }));
    expect(codes(r2)).toEqual(["non_finite_number"]);
  });
  it("blocks everything when a holding has no price (the portfolio cannot be valued)", () => {
    const r = run([buy("AAA", 1, 10)], state({ holdings: { ZZZ: { quantity: 5 } } }));
    expect(codes(r)).toEqual(["no_reference_price"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain("ZZZ");
  });
});

describe("quantity and limit price", () => {
  it("quantity must be > 0", () => {
    expect(codes(one(buy("AAA", 0, 10)))).toEqual(["non_positive_quantity"]);
    expect(codes(one(buy("AAA", -1, 10)))).toEqual(["non_positive_quantity"]);
    expect(one(buy("AAA", 1, 10)).decisions[0]?.approved).toBe(true);
  });
  it("whole shares unless fractional is allowed", () => {
    expect(codes(one(buy("AAA", 1.5, 10)))).toEqual(["fractional_quantity"]);
    expect(one(buy("AAA", 1.5, 10), state(), { allow_fractional: true }).decisions[0]?.approved).toBe(true);
  });
  it("a positive limit price is required; zero or negative has its own code", () => {
    expect(codes(one(buy("AAA", 1, 0)))).toEqual(["non_positive_limit_price"]);
    expect(codes(one(buy("AAA", 1, -3)))).toEqual(["non_positive_limit_price"]);
    expect(codes(one({ symbol: "AAA", side: "BUY", quantity: 1 } as GateOrder))).toEqual(["limit_price_required"]);
    expect(codes(one(buy("AAA", 1, null as unknown as number)))).toEqual(["limit_price_required"]);
  });
  it("reports every pre-check failure, then stops", () => {
    const r = one(buy("AAA", 0.5, 0, { exchange: "NYSE" }));
    expect(codes(r)).toEqual(["wrong_exchange", "fractional_quantity", "non_positive_limit_price"]);
  });
});

describe("reference price", () => {
  it("must exist and be > 0", () => {
    expect(codes(one(buy("AAA", 1, 10), state(), {}, { ...MARKET, AAA: { price: 0 } }))).toEqual(["no_reference_price"]);
    expect(codes(one(buy("AAA", 1, 10), state(), {}, { BBB: { price: 1 } }))).toEqual(["no_reference_price"]);
    expect(codes(one(buy("AAA", 1, 10), state(), {}, { AAA: { price: Number.NaN } }))).toEqual(["no_reference_price"]);
    expect(codes(one(buy("AAA", 1, 10), state(), {}, { AAA: { price: 10, fx_to_base: 0 } }))).toEqual(["no_reference_price"]);
  });
  it("must be fresh when max_price_age_days is set: exactly the age passes, a day older blocks", () => {
    const m = (as_of?: string) => ({ ...MARKET, AAA: { price: 10, as_of } });
    const st = state({ as_of: "2024-05-10" });
    expect(one(buy("AAA", 1, 10), st, { max_price_age_days: 5 }, m("2024-05-05")).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 1, 10), st, { max_price_age_days: 5 }, m("2024-05-04"));
    expect(codes(r)).toEqual(["stale_reference_price"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("AAA: reference price from 2024-05-04 is 6 days old on 2024-05-10 (max 5 days)");
    expect(codes(one(buy("AAA", 1, 10), st, { max_price_age_days: 5 }, m(undefined)))).toEqual(["stale_reference_price"]);
    expect(codes(one(buy("AAA", 1, 10), state(), { max_price_age_days: 5 }, m("2024-05-05")))).toEqual(["stale_reference_price"]);
    expect(one(buy("AAA", 1, 10), st, { max_price_age_days: null }, m("2000-01-01")).decisions[0]?.approved).toBe(true);
  });
});

describe("price band", () => {
  it("allows exactly ±2%, blocks beyond, with the numbers", () => {
    expect(one(buy("AAA", 1, 10.2)).decisions[0]?.approved).toBe(true);
    expect(one(buy("AAA", 1, 9.8)).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 1, 10.21));
    expect(codes(r)).toEqual(["price_band"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("limit 10.21 is 2.10% from price 10.00 (max 2%)");
    expect(codes(one(buy("AAA", 1, 9.79)))).toEqual(["price_band"]);
  });
  it("applies to sells", () => {
    expect(codes(one(sell("AAA", 1, 11), state({ holdings: { AAA: { quantity: 1 } } })))).toEqual(["price_band"]);
  });
  it("the anchor's example message", () => {
    const r = one(buy("AAA", 1, 5.5), state(), {}, { AAA: { price: 5 } });
    expect(r.decisions[0]?.reasons[0]?.message).toBe("limit 5.50 is 10.00% from price 5.00 (max 2%)");
  });
});

describe("monthly quota", () => {
  it("allows the last order of the month, blocks the next", () => {
    expect(one(buy("AAA", 1, 10), state({ orders_this_month: 9 })).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 1, 10), state({ orders_this_month: 10 }));
    expect(codes(r)).toEqual(["monthly_order_limit"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("monthly order limit reached: 10 of 10 orders used this month");
  });
  it("counts approved orders of the batch; 0 means nothing trades", () => {
    const r = run([buy("AAA", 1, 10), buy("BBB", 1, 20)], state({ orders_this_month: 9 }));
    expect(r.decisions.map((d) => d.approved)).toEqual([true, false]);
    expect(r.portfolio_after.orders_this_month).toBe(10);
    expect(codes(one(sell("AAA", 1, 10), state({ holdings: { AAA: { quantity: 1 } } }), { max_orders_per_month: 0 }))).toEqual(["monthly_order_limit"]);
  });
  it("a blocked order uses no quota", () => {
    const r = run([buy("AAA", 1, 50), buy("BBB", 1, 20)], state({ orders_this_month: 9 }));
    expect(r.decisions.map((d) => d.approved)).toEqual([false, true]);
  });
});

describe("commission cap", () => {
  const m = (commission?: number) => ({ ...MARKET, AAA: { price: 10, commission } });
  it("allows exactly 10% of notional, blocks above", () => {
    expect(one(buy("AAA", 10, 10), state(), {}, m(10)).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 10, 10), state(), {}, m(10.01));
    expect(codes(r)).toEqual(["commission_cap"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("commission 10.01 USD is 10.01% of notional 100.00 USD (max 10%)");
  });
  it("defaults to 0 when the quote has none", () => {
    const r = one(buy("AAA", 1, 10), state(), {}, m(undefined));
    expect(r.decisions[0]?.approved).toBe(true);
    expect(r.decisions[0]?.commission).toBe(0);
  });
  it("an unknown commission counts as infinite", () => {
    expect(codes(one(buy("AAA", 1, 10), state(), {}, m(Number.NaN)))).toEqual(["commission_cap"]);
    const r = evaluate([buy("AAA", 1, 10)], state(), MARKET, LIMITS, UNIVERSE, { commission: () => undefined });
    expect(codes(r)).toEqual(["commission_cap"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain("unknown");
  });
  it("the callback overrides the quote and sees the base notional", () => {
    const seen: number[] = [];
    const r = evaluate([buy("EUR1", 2, 100)], state(), MARKET, LIMITS, UNIVERSE, {
      commission: (_o, n) => {
        seen.push(n);
        return 3;
      },
    });
    expect(seen[0]).toBeCloseTo(220, 9);
    expect(r.decisions[0]?.commission).toBe(3);
    expect(r.portfolio_after.cash).toBeCloseTo(10_000 - 223, 9);
  });
});

describe("max order notional", () => {
  it("allows exactly the maximum, blocks above, on both sides", () => {
    expect(one(buy("AAA", 100, 10), state(), { max_order_notional: 1000 }).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 101, 10), state(), { max_order_notional: 1000 });
    expect(codes(r)).toEqual(["max_order_notional"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("notional 1010.00 USD exceeds the per-order maximum 1000.00 USD");
    const held = state({ holdings: { AAA: { quantity: 200 } } });
    expect(codes(one(sell("AAA", 101, 10), held, { max_order_notional: 1000 }))).toEqual(["max_order_notional"]);
  });
  it("is measured in the base currency", () => {
    // 9 × 100 EUR × 1.1 = 990 USD ≤ 1000; 10 × 100 × 1.1 = 1100 > 1000
    expect(one(buy("EUR1", 9, 100), state(), { max_order_notional: 1000 }).decisions[0]?.approved).toBe(true);
    expect(codes(one(buy("EUR1", 10, 100), state(), { max_order_notional: 1000 }))).toEqual(["max_order_notional"]);
  });
});

describe("no shorting", () => {
  const held = state({ holdings: { AAA: { quantity: 10 } } });
  it("sells up to the quantity held", () => {
    expect(one(sell("AAA", 10, 10), held).decisions[0]?.approved).toBe(true);
    const r = one(sell("AAA", 11, 10), held);
    expect(codes(r)).toEqual(["no_shorting"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("sell 11 AAA exceeds the 10 held (no shorting)");
    expect(codes(one(sell("BBB", 1, 20), held))).toEqual(["no_shorting"]);
  });
  it("nets open sell orders", () => {
    const st = state({ holdings: { AAA: { quantity: 10 } }, open_orders: [{ symbol: "AAA", side: "SELL", quantity: 4, limit_price: 10 }] });
    expect(one(sell("AAA", 6, 10), st).decisions[0]?.approved).toBe(true);
    const r = one(sell("AAA", 7, 10), st);
    expect(codes(r)).toEqual(["no_shorting"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("sell 7 AAA exceeds the sellable 6 (held 10, 4 in open sell orders)");
  });
  it("removes a holding sold to zero", () => {
    expect(one(sell("AAA", 10, 10), held).portfolio_after.holdings).toEqual({});
  });
});

describe("cash (no margin)", () => {
  it("allows a cost exactly equal to cash, blocks a cent more", () => {
    const st = state({ cash: 101, holdings: { CCC: { quantity: 1000 } }, peak: 0 });
    const m = { ...MARKET, AAA: { price: 10, commission: 1 } };
    expect(one(buy("AAA", 10, 10), st, {}, m).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 10, 10), { ...st, cash: 100.99 }, {}, m);
    expect(codes(r)).toEqual(["insufficient_cash"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe("cost 101.00 USD (notional 100.00 + commission 1.00) exceeds cash 100.99 USD");
  });
  it("nets open buy orders", () => {
    const st = state({
      cash: 1000,
      holdings: { CCC: { quantity: 1000 } },
      peak: 0,
      open_orders: [{ symbol: "BBB", side: "BUY", quantity: 10, limit_price: 20 }],
    });
    expect(one(buy("AAA", 80, 10), st).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 81, 10), st);
    expect(codes(r)).toEqual(["insufficient_cash"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain("less 200.00 in open buy orders");
  });
  it("uses the base currency", () => {
    const st = state({ cash: 1100, holdings: { CCC: { quantity: 1000 } }, peak: 0 });
    expect(one(buy("EUR1", 10, 100), st).decisions[0]?.approved).toBe(true);
    expect(codes(one(buy("EUR1", 10, 100.5), st))).toEqual(["insufficient_cash"]);
  });
});

describe("position limit", () => {
  it("allows exactly 25% at the reference price, blocks above", () => {
    expect(one(buy("AAA", 250, 10)).decisions[0]?.approved).toBe(true);
    const r = one(buy("AAA", 251, 10));
    expect(codes(r)).toEqual(["position_limit"]);
    expect(r.decisions[0]?.reasons[0]?.message).toBe(
      "AAA position after the buy would be 251 × 10.00 USD = 2510.00 USD, 25.10% of portfolio value 10000.00 USD (max 25%)",
    );
  });
  it("uses the reference price, not the limit price", () => {
    // 250 at limit 10.2: notional 2550 but position 2500 at the reference.
    expect(one(buy("AAA", 250, 10.2)).decisions[0]?.approved).toBe(true);
  });
  it("subtracts the commission from the portfolio value", () => {
    const m = { ...MARKET, AAA: { price: 10, commission: 1 } };
    expect(codes(one(buy("AAA", 250, 10), state(), {}, m))).toEqual(["position_limit"]);
  });
  it("counts what is held and open buys", () => {
    const st = state({ cash: 9000, holdings: { AAA: { quantity: 100 } } });
    expect(one(buy("AAA", 150, 10), st).decisions[0]?.approved).toBe(true);
    expect(codes(one(buy("AAA", 151, 10), st))).toEqual(["position_limit"]);
    const st2 = state({ open_orders: [{ symbol: "AAA", side: "buy", quantity: 50, limit_price: 10 }] });
    expect(one(buy("AAA", 200, 10), st2).decisions[0]?.approved).toBe(true);
    expect(codes(one(buy("AAA", 201, 10), st2))).toEqual(["position_limit"]);
  });
  it("does not apply to sells", () => {
    const st = state({ cash: 0, holdings: { AAA: { quantity: 900 } }, peak: 9000 });
    expect(one(sell("AAA", 1, 10), st).decisions[0]?.approved).toBe(true);
  });
});

describe("duplicates", () => {
  it("allows one order per symbol and side", () => {
    const st = state({ holdings: { AAA: { quantity: 10 } } });
    const r = run([buy("AAA", 1, 10), buy("aaa", 1, 10), sell("AAA", 1, 10)], st);
    expect(r.decisions.map((d) => [d.order.side, d.approved])).toEqual([
      ["SELL", true],
      ["BUY", true],
      ["BUY", false],
    ]);
    expect(codes(r, 2)).toEqual(["duplicate_order"]);
  });
});

describe("trading states", () => {
  const held = { AAA: { quantity: 10 } };
  it("ACTIVE allows both sides", () => {
    expect(run([sell("AAA", 1, 10), buy("BBB", 1, 20)], state({ holdings: held })).decisions.every((d) => d.approved)).toBe(true);
  });
  it("REDUCING allows sells only", () => {
    const r = run([buy("BBB", 1, 20), sell("AAA", 1, 10)], state({ holdings: held, trading_state: "REDUCING" }));
    expect(r.decisions.map((d) => d.approved)).toEqual([true, false]);
    expect(codes(r, 1)).toEqual(["reducing_only"]);
  });
  it("HALTED blocks everything with the anchor's message", () => {
    const r = run([buy("BBB", 1, 20), sell("AAA", 1, 10)], state({ holdings: held, trading_state: "HALTED" }));
    expect(r.decisions.every((d) => !d.approved)).toBe(true);
    expect(r.decisions[0]?.reasons).toEqual([{ code: "trading_halted", message: "trading halted by kill switch – manual reset required" }]);
    expect(r.portfolio_after.cash).toBe(10_000);
  });
  it("an unknown state is treated as halted", () => {
    expect(codes(one(buy("AAA", 1, 10), state({ trading_state: "PAUSED" as GateState["trading_state"] })))).toEqual(["trading_halted"]);
  });
});

describe("drawdown kill switch", () => {
  it("blocks everything at exactly the limit, not just under it", () => {
    const at = run([buy("AAA", 1, 10)], state({ cash: 7500, peak: 10_000 }));
    expect(codes(at)).toEqual(["drawdown_kill_switch"]);
    expect(at.kill_switch).toBe(true);
    expect(at.drawdown_pct).toBeCloseTo(25, 9);
    expect(at.decisions[0]?.reasons[0]?.message).toBe("drawdown 25.00% (value 7500.00 vs peak 10000.00) reaches the kill-switch limit 25%");
    const under = run([buy("AAA", 1, 10)], state({ cash: 7501, peak: 10_000 }));
    expect(under.decisions[0]?.approved).toBe(true);
    expect(under.kill_switch).toBe(false);
  });
  it("measures from max(peak, value)", () => {
    expect(drawdownPct(120, 100)).toBe(0);
    expect(drawdownPct(75, 100)).toBe(25);
    expect(drawdownPct(0, 0)).toBe(0);
    expect(killSwitchTriggered(75, 100, 25)).toBe(true);
    expect(killSwitchTriggered(75.01, 100, 25)).toBe(false);
    expect(killSwitchTriggered(Number.NaN, 100, 25)).toBe(true);
  });
});

describe("portfolio value", () => {
  it("uses the holding's own price, else the market price, times fx", () => {
    const st = state({ cash: 100, holdings: { AAA: { quantity: 2, price: 12 }, EUR1: { quantity: 1 } } });
    expect(portfolioValue(st, MARKET)).toBeCloseTo(100 + 24 + 110, 9);
    expect(portfolioValue(state({ holdings: { ZZZ: { quantity: 1 } } }), MARKET)).toBeNaN();
  });
});

describe("batches", () => {
  it("evaluates sells first, stable within each side", () => {
    const st = state({ cash: 0, holdings: { AAA: { quantity: 100 }, BBB: { quantity: 100 } }, peak: 0 });
    const r = run([buy("CCC", 1, 50), sell("AAA", 10, 10), buy("EUR1", 1, 100), sell("BBB", 5, 20)], st);
    expect(r.decisions.map((d) => d.order.symbol)).toEqual(["AAA", "BBB", "CCC", "EUR1"]);
    // the sells' proceeds (100 + 100) pay for the buys (50 + 110), which are funded by this batch's
    // sells: approved with the amount, placed only after the sells fill (no margin through an unfilled sell)
    expect(r.decisions.map((d) => d.approved)).toEqual([true, true, true, true]);
    expect(r.decisions.map((d) => d.funded_by_sells)).toEqual([
      undefined,
      undefined,
      { amount_minor: 5000, currency: "USD" },
      { amount_minor: 11000, currency: "USD" },
    ]);
    expect(r.portfolio_after.cash).toBeCloseTo(40, 9);
    // with the cash already held, the same buys pass alongside the sells
    const funded = run([buy("CCC", 1, 50), sell("AAA", 10, 10), buy("EUR1", 1, 100), sell("BBB", 5, 20)], { ...st, cash: 160 });
    expect(funded.decisions.map((d) => d.approved)).toEqual([true, true, true, true]);
    expect(funded.decisions.every((d) => d.funded_by_sells === undefined)).toBe(true);
    expect(funded.portfolio_after.cash).toBeCloseTo(200, 9);
  });
  it("cannot jointly break the cash limit", () => {
    const st = state({ cash: 1000, holdings: { CCC: { quantity: 1000 } }, peak: 0 });
    const r = run([buy("AAA", 60, 10), buy("BBB", 30, 20)], st);
    expect(r.decisions.map((d) => d.approved)).toEqual([true, false]);
    expect(codes(r, 1)).toEqual(["insufficient_cash"]);
    expect(r.portfolio_after.cash).toBeCloseTo(400, 9);
  });
  it("accumulates reasons", () => {
    const r = one(buy("AAA", 5000, 10.5), state(), { max_order_notional: 1000 });
    expect(codes(r)).toEqual(["price_band", "max_order_notional", "insufficient_cash", "position_limit"]);
  });
  it("blocked orders change nothing", () => {
    const r = run([buy("AAA", 5000, 10), buy("BBB", 10, 20)]);
    expect(r.decisions[0]?.approved).toBe(false);
    expect(r.decisions[1]?.approved).toBe(true);
    expect(r.portfolio_after).toEqual({ cash: 9800, holdings: { BBB: { quantity: 10 } }, orders_this_month: 1 });
  });
  it("never mutates its input (deep-frozen) and echoes copies of the orders", () => {
    const orders = deepFreeze([sell("AAA", 5, 10), buy("BBB", 10, 20), buy("ZZZ", 1, 1)]);
    const st = deepFreeze(
      state({
        holdings: { AAA: { quantity: 10 } },
        open_orders: [{ symbol: "AAA", side: "SELL", quantity: 1, limit_price: 10 }],
      }),
    );
    const market = deepFreeze(structuredClone(MARKET));
    const limits = deepFreeze({ ...LIMITS });
    const universe = deepFreeze(structuredClone(UNIVERSE));
    const before = JSON.stringify([orders, st, market, limits, universe]);
    const r = evaluate(orders, st, market, limits, universe);
    expect(JSON.stringify([orders, st, market, limits, universe])).toBe(before);
    expect(r.decisions[0]?.order).not.toBe(orders[0]);
    expect(r.decisions[0]?.order).toEqual(orders[0]);
    expect(r.portfolio_after.holdings.AAA).not.toBe(st.holdings.AAA);
  });
  it("an empty batch is fine", () => {
    const r = run([]);
    expect(r.decisions).toEqual([]);
    expect(r.portfolio_after.cash).toBe(10_000);
  });
});
