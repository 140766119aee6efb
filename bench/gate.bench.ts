/**
 * The gate on a large batch: 1,000 orders against 500 holdings (target: median under 5 ms).
 * The gate keeps a running portfolio value, so each order is O(1) after an O(n) setup.
 */
import { bench, describe } from "vitest";
import type { Instrument } from "../src/core/domain.js";
import { evaluate } from "../src/gate/evaluate.js";
import type { GateMarket, GateOrder, GateState, Limits } from "../src/core/gate-types.js";
import { LIMITS } from "../tests/gate/helpers.js";

const N_SYMBOLS = 1000;
const symbols = Array.from({ length: N_SYMBOLS }, (_, i) => `S${String(i).padStart(4, "0")}`);
const universe: Instrument[] = symbols.map((symbol, i) => ({
  symbol,
  currency: i % 5 === 0 ? "EUR" : "USD",
  exchange: "SMART",
}));
const market: GateMarket = Object.fromEntries(symbols.map((s, i) => [s, { price: 10 + (i % 90), fx_to_base: i % 5 === 0 ? 1.08 : 1, commission: 1 }]));
const holdings: GateState["holdings"] = Object.fromEntries(symbols.slice(0, 500).map((s) => [s, { quantity: 100 }]));
const state: GateState = {
  cash: 5_000_000,
  holdings,
  peak: 9_000_000,
  orders_this_month: 0,
  trading_state: "ACTIVE",
};
// The default limits, with room for 1,000 orders and 500 small positions.
const limits: Limits = { ...LIMITS, max_position_pct: 5, max_orders_per_month: 2000 };
// 500 sells of held symbols and 500 buys of others, interleaved.
const orders: GateOrder[] = [];
for (let i = 0; i < 500; i++) {
  const held = symbols[i]!;
  const other = symbols[500 + i]!;
  orders.push({ symbol: other, side: "BUY", quantity: 10, limit_price: market[other]!.price * 1.01 });
  orders.push({ symbol: held, side: "SELL", quantity: 50, limit_price: market[held]!.price * 0.99 });
}

describe("gate", () => {
  bench("evaluate: 1,000 orders against 500 holdings", () => {
    const r = evaluate(orders, state, market, limits, universe);
    if (r.decisions.length !== 1000) throw new Error("bad result");
  });
});
