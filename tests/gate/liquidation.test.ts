import { describe, expect, it } from "vitest";
import { floorToTick, liquidation, liquidationLimit } from "../../src/gate/liquidation.js";
import { deepFreeze, MARKET, state, UNIVERSE } from "./helpers.js";

describe("liquidation", () => {
  it("sells every priced holding in the universe at reference less the discount, rounded down to the tick", () => {
    const st = deepFreeze(
      state({
        holdings: { CCC: { quantity: 3 }, AAA: { quantity: 10 }, EUR1: { quantity: 2 }, ZZZ: { quantity: 5 } },
      }),
    );
    const market = deepFreeze({ ...MARKET, AAA: { price: 10.07 }, EUR1: { price: 101.37, fx_to_base: 1.1 } });
    const orders = liquidation(st, market, UNIVERSE, 1);
    expect(orders.map((o) => [o.symbol, o.side, o.quantity, o.limit_price, o.exchange])).toEqual([
      ["AAA", "SELL", 10, 9.96, "SMART"], // 10.07 × 0.99 = 9.9693 → 9.96
      ["CCC", "SELL", 3, 49.5, undefined], // 50 × 0.99 = 49.5 exactly
      ["EUR1", "SELL", 2, 100.35, "XETRA"], // 101.37 × 0.99 = 100.3563 → tick 0.05 → 100.35
    ]);
    expect(orders[0]?.reason).toBe("kill switch: liquidate 10 AAA at 9.96 (reference 10.07 less 1%, rounded down to the tick)");
  });
  it("skips holdings without a usable price and nets open sell orders", () => {
    const st = state({
      holdings: { AAA: { quantity: 10 }, BBB: { quantity: 4 } },
      open_orders: [
        { symbol: "AAA", side: "SELL", quantity: 4, limit_price: 10 },
        { symbol: "BBB", side: "SELL", quantity: 4, limit_price: 20 },
      ],
    });
    const orders = liquidation(st, { AAA: MARKET.AAA!, BBB: { price: 0 } }, UNIVERSE, 1);
    expect(orders.map((o) => [o.symbol, o.quantity])).toEqual([["AAA", 6]]);
  });
  it("rounds exactly on the grid", () => {
    expect(liquidationLimit(10, 1)).toBe(9.9);
    expect(liquidationLimit(100, 1)).toBe(99);
    expect(liquidationLimit(0.005, 1)).toBe(0.01);
    expect(floorToTick(9.999, 0.01)).toBe(9.99);
    expect(floorToTick(1.23, 0.25)).toBe(1);
    expect(floorToTick(4.3, 0.1)).toBe(4.3);
  });
});
