import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Instrument } from "../../src/core/domain.js";
import { evaluate } from "../../src/gate/evaluate.js";
import type { GateMarket, GateOrder, GateState, Limits } from "../../src/core/gate-types.js";
import { LIMITS } from "./helpers.js";

const SYMBOLS = ["S0", "S1", "S2", "S3", "S4", "S5"];
const UNIVERSE: Instrument[] = SYMBOLS.map((symbol) => ({ symbol, currency: "USD" }));
const TOL = 1e-6;

const arbMarket: fc.Arbitrary<GateMarket> = fc
  .tuple(
    ...SYMBOLS.map(() =>
      fc.record({
        price: fc.double({ min: 0.5, max: 500, noNaN: true }),
        fx_to_base: fc.constantFrom(1, 0.73, 1.08, 1.9),
        commission: fc.double({ min: 0, max: 5, noNaN: true }),
      }),
    ),
  )
  .map((quotes) => Object.fromEntries(quotes.map((q, i) => [SYMBOLS[i], q])));

const arbLimits: fc.Arbitrary<Limits> = fc.record({
  base_currency: fc.constant("USD"),
  max_position_pct: fc.integer({ min: 1, max: 100 }),
  max_orders_per_month: fc.integer({ min: 0, max: 20 }),
  max_drawdown_pct: fc.integer({ min: 10, max: 100 }),
  max_price_deviation_pct: fc.constantFrom(1, 2, 5, 20),
  max_commission_pct: fc.integer({ min: 1, max: 100 }),
  allow_fractional: fc.boolean(),
  max_order_notional: fc.option(fc.integer({ min: 100, max: 100_000 }), { nil: null }),
  max_price_age_days: fc.constant(null),
});

const arbState: fc.Arbitrary<GateState> = fc.record({
  cash: fc.oneof(fc.integer({ min: 1_000, max: 200_000 }), fc.double({ min: 0, max: 200_000, noNaN: true })),
  holdings: fc.dictionary(fc.constantFrom(...SYMBOLS), fc.record({ quantity: fc.integer({ min: 1, max: 2000 }) }), {
    maxKeys: 6,
  }),
  peak: fc.integer({ min: 0, max: 250_000 }),
  orders_this_month: fc.integer({ min: 0, max: 8 }),
  trading_state: fc.constantFrom("ACTIVE", "ACTIVE", "ACTIVE", "ACTIVE", "REDUCING", "HALTED"),
});

const arbOrders = (market: GateMarket): fc.Arbitrary<GateOrder[]> =>
  fc.array(
    fc
      .record({
        symbol: fc.constantFrom(...SYMBOLS, "ZZZ"),
        side: fc.constantFrom("BUY", "BUY", "SELL", "SELL", "buy", "HOLD"),
        quantity: fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 4 },
          { arbitrary: fc.integer({ min: -2, max: 400 }), weight: 1 },
          { arbitrary: fc.double({ min: 0, max: 50, noNaN: true }), weight: 1 },
        ),
        move: fc.double({ min: -0.03, max: 0.03, noNaN: true }),
      })
      .map(({ move, ...o }) => ({ ...o, limit_price: Number(((market[o.symbol]?.price ?? 10) * (1 + move)).toFixed(2)) })),
    { maxLength: 10 },
  );

const arbCase = fc
  .tuple(arbMarket, arbState, arbLimits)
  .chain(([market, state, limits]) => arbOrders(market).map((orders) => ({ market, state, limits, orders })));

const portfolioWorth = (cash: number, holdings: Map<string, number>, market: GateMarket) => {
  let v = cash;
  for (const [s, q] of holdings) v += q * (market[s]?.price ?? 0) * (market[s]?.fx_to_base ?? 1);
  return v;
};

describe("gate properties", () => {
  it("approved orders never overdraw cash, short, exceed the position cap or the quota", () => {
    const seen = { approved: 0, blocked: 0 };
    fc.assert(
      fc.property(arbCase, ({ market, state, limits, orders }) => {
        const r = evaluate(orders, state, market, limits, UNIVERSE);
        for (const d of r.decisions) seen[d.approved ? "approved" : "blocked"]++;
        let cash = state.cash;
        const held = new Map(Object.entries(state.holdings).map(([k, h]) => [k, h.quantity]));
        let approved = 0;
        for (const d of r.decisions) {
          if (!d.approved) continue;
          approved++;
          const sym = String(d.order.symbol).toUpperCase();
          const q = d.order.quantity;
          const quote = market[sym]!;
          const fx = quote.fx_to_base ?? 1;
          const before = held.get(sym) ?? 0;
          expect(d.notional).toBeCloseTo(q * d.order.limit_price * fx, 6);
          if (String(d.order.side).toUpperCase() === "SELL") {
            expect(q).toBeLessThanOrEqual(before + TOL);
            cash += d.notional - d.commission;
            held.set(sym, before - q);
          } else {
            const value = portfolioWorth(cash, held, market);
            const position = (before + q) * quote.price * fx;
            expect(position).toBeLessThanOrEqual((limits.max_position_pct / 100) * (value - d.commission) + TOL);
            cash -= d.notional + d.commission;
            held.set(sym, before + q);
          }
          expect(cash).toBeGreaterThanOrEqual(-TOL);
        }
        expect(state.orders_this_month + approved <= limits.max_orders_per_month || approved === 0).toBe(true);
        expect(r.portfolio_after.orders_this_month).toBe(state.orders_this_month + approved);
        expect(r.portfolio_after.cash).toBeCloseTo(cash, 6);
        if (state.trading_state === "HALTED") expect(approved).toBe(0);
      }),
      { numRuns: 400 },
    );
    // Not vacuous: the generators produce plenty of both outcomes.
    expect(seen.approved).toBeGreaterThan(100);
    expect(seen.blocked).toBeGreaterThan(200);
  });

  it("the result does not depend on object key order", () => {
    const reverseKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).reverse());
    const sortKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    fc.assert(
      fc.property(arbCase, ({ market, state, limits, orders }) => {
        const a = evaluate(orders, state, market, limits, UNIVERSE);
        const shuffledOrders = orders.map((o) => reverseKeys(o as Record<string, unknown>) as GateOrder);
        const b = evaluate(
          shuffledOrders,
          reverseKeys(state as unknown as Record<string, unknown>) as unknown as GateState,
          reverseKeys(market),
          reverseKeys(limits as unknown as Record<string, unknown>) as unknown as Limits,
          [...UNIVERSE].reverse(),
        );
        const norm = (r: typeof a) => ({
          ...r,
          decisions: r.decisions.map((d) => ({ ...d, order: sortKeys(d.order) })),
          portfolio_after: { ...r.portfolio_after, holdings: sortKeys(r.portfolio_after.holdings) },
        });
        const bb = { ...b, portfolio_after: { ...b.portfolio_after } };
        expect(norm(bb)).toEqual(norm(a));
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on arbitrary junk", () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), fc.anything(), (orders, junk) => {
        const r = evaluate(
          orders as GateOrder[],
          { cash: junk as number, holdings: {}, peak: 0, orders_this_month: 0, trading_state: "ACTIVE" },
          {},
          LIMITS,
          UNIVERSE,
        );
        expect(r.decisions.length).toBe(orders.length);
        expect(r.decisions.every((d) => !d.approved)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
