/**
 * The gate in exact money (issue #24): across random batches in a 2-, a 0- and a 3-decimal base
 * currency (USD, JPY, KWD), with instruments in the base and in a foreign currency, the gate's
 * approved cash is exactly what the real journal leaves after booking those fills at their limits,
 * and never below zero by a single minor unit.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Instrument } from "../../src/core/domain.js";
import type { GateMarket, GateOrder, GateState, Limits } from "../../src/core/gate-types.js";
import { fromMinor, minorDigits } from "../../src/core/money.js";
import { evaluate } from "../../src/gate/evaluate.js";
import { freshJournal, startRun } from "../journal/helpers.js";

interface Currency {
  base: string;
  /** The base-currency instrument's tick, and a foreign instrument with its rate to base. */
  tick: number;
  foreign: { currency: string; fx: number; tick: number };
}

const CURRENCIES: Currency[] = [
  { base: "USD", tick: 0.01, foreign: { currency: "EUR", fx: 1.0837, tick: 0.01 } },
  { base: "JPY", tick: 1, foreign: { currency: "USD", fx: 151.37, tick: 0.01 } },
  { base: "KWD", tick: 0.001, foreign: { currency: "USD", fx: 0.3071, tick: 0.01 } },
];

const LIMITS = (base: string): Limits => ({
  base_currency: base,
  max_position_pct: 100,
  max_orders_per_month: 100,
  max_drawdown_pct: 100,
  max_price_deviation_pct: 20,
  max_commission_pct: 100,
  allow_fractional: false,
  max_order_notional: null,
  max_price_age_days: null,
});

const universe = (c: Currency): Instrument[] => [
  { symbol: "HOME", currency: c.base, tick: c.tick },
  { symbol: "AWAY", currency: c.foreign.currency, tick: c.foreign.tick },
  { symbol: "MORE", currency: c.base, tick: c.tick },
];

/** A price of `ticks` ticks, exactly on the grid (12345 × 0.001 → 12.345). */
const onGrid = (ticks: number, tick: number): number => Number((ticks * tick).toFixed(Math.max(0, -Math.floor(Math.log10(tick)))));

const arbCase = (c: Currency) => {
  const d = minorDigits(c.base);
  const scale = 10 ** d;
  const ticks = fc.integer({ min: 50, max: 50_000 });
  return fc
    .record({
      cashMinor: fc.integer({ min: 1, max: 5_000_000 * (c.base === "JPY" ? 100 : scale) }),
      refs: fc.tuple(ticks, ticks, ticks),
      held: fc.tuple(fc.nat(300), fc.nat(300), fc.nat(300)),
      // A commission in the base currency, not on the minor grid: the booking rounds it.
      commissions: fc.tuple(...[0, 1, 2].map(() => fc.double({ min: 0, max: 25, noNaN: true }))),
      orders: fc.array(
        fc.record({
          sym: fc.integer({ min: 0, max: 2 }),
          side: fc.constantFrom("BUY", "SELL"),
          quantity: fc.integer({ min: 1, max: 400 }),
          move: fc.integer({ min: -15, max: 15 }),
        }),
        { maxLength: 8 },
      ),
    })
    .map(({ cashMinor, refs, held, commissions, orders }) => {
      const syms = ["HOME", "AWAY", "MORE"] as const;
      const tickOf = (i: number) => (i === 1 ? c.foreign.tick : c.tick);
      const market: GateMarket = {};
      syms.forEach((s, i) => {
        market[s] = { price: onGrid(refs[i] ?? 0, tickOf(i)), ...(i === 1 ? { fx_to_base: c.foreign.fx } : {}), commission: commissions[i] ?? 0 };
      });
      const holdings = Object.fromEntries(syms.flatMap((s, i) => ((held[i] ?? 0) > 0 ? [[s, { quantity: held[i] ?? 0 }]] : [])));
      const state: GateState = { cash: fromMinor(cashMinor, c.base), holdings, peak: 0, orders_this_month: 0, trading_state: "ACTIVE" };
      const seen = new Set<string>();
      const gateOrders: GateOrder[] = [];
      for (const o of orders) {
        const s = syms[o.sym] as string;
        if (seen.has(`${s}|${o.side}`)) continue;
        seen.add(`${s}|${o.side}`);
        const limitTicks = Math.round((refs[o.sym] ?? 0) * (1 + o.move / 100));
        gateOrders.push({ symbol: s, side: o.side, quantity: o.quantity, limit_price: onGrid(limitTicks, tickOf(o.sym)) });
      }
      return { market, state, orders: gateOrders, cashMinor };
    });
};

describe("the gate in exact money", () => {
  for (const c of CURRENCIES) {
    it(`${c.base} (${minorDigits(c.base)} decimals): approved cash is what booking the fills leaves, never below zero by one minor unit`, async () => {
      let approved = 0;
      let blockedForCash = 0;
      await fc.assert(
        fc.asyncProperty(arbCase(c), async ({ market, state, orders, cashMinor }) => {
          const r = evaluate(orders, state, market, LIMITS(c.base), universe(c));
          const ok = r.decisions.filter((d) => d.approved);
          approved += ok.length;
          blockedForCash += r.decisions.filter((d) => d.reasons.some((x) => x.code === "insufficient_cash")).length;
          // Book exactly those fills, at their limits, into the real journal.
          const j = await freshJournal({ capital: fromMinor(cashMinor, c.base), currency: c.base });
          try {
            expect(j.cashMinor()).toBe(cashMinor);
            await startRun(j, "r1");
            for (const [held, q] of Object.entries(state.holdings)) {
              const fx = market[held]?.fx_to_base ?? 1;
              const price = market[held]?.price ?? 1;
              await book(j, `seed-${held}`, held, "BUY", q.quantity, price, fx, 0);
            }
            const seeded = j.cashMinor();
            let buysMinor = 0;
            for (const [i, d] of ok.entries()) {
              const sym = String(d.order.symbol);
              const before = j.cashMinor();
              await book(j, `o${i}`, sym, d.order.side as "BUY" | "SELL", d.order.quantity, d.order.limit_price, market[sym]?.fx_to_base ?? 1, d.commission);
              // Buys funded by this batch's sells wait for them: only the others spend the cash held.
              if (d.order.side === "BUY" && !d.funded_by_sells) buysMinor += before - j.cashMinor();
            }
            // Cash after the batch as the journal books it: exactly the gate's.
            expect(j.cashMinor() - seeded + cashMinor).toBe(r.cash_after_minor);
            // Buys not funded by the batch's sells are paid by the cash held before it: never below zero, not by one minor unit
            // (and with the funded ones, the cash after the whole batch is never below zero either).
            expect(cashMinor - buysMinor).toBeGreaterThanOrEqual(0);
            expect(r.cash_after_minor).toBeGreaterThanOrEqual(0);
            expect(Number.isSafeInteger(r.cash_after_minor)).toBe(true);
          } finally {
            await j.close();
          }
        }),
        { numRuns: 40 },
      );
      // Not vacuous: both outcomes happen.
      expect(approved).toBeGreaterThan(20);
      expect(blockedForCash).toBeGreaterThan(0);
    }, 120_000);
  }

  it("an order costing exactly the cash passes and one minor unit more is blocked, in JPY and KWD", () => {
    for (const [base, price, unit] of [
      ["JPY", 1000, 1],
      ["KWD", 1.001, 0.001],
    ] as const) {
      const market: GateMarket = { HOME: { price, commission: 0 } };
      const uni: Instrument[] = [{ symbol: "HOME", currency: base, tick: unit }];
      const order: GateOrder = { symbol: "HOME", side: "BUY", quantity: 10, limit_price: price };
      const cash = fromMinor(Math.round((price * 10) / unit), base);
      const at = (c: number) => evaluate([order], { cash: c, holdings: {}, peak: 0, orders_this_month: 0, trading_state: "ACTIVE" }, market, LIMITS(base), uni);
      expect(at(cash).decisions[0]?.approved).toBe(true);
      expect(at(cash).cash_after_minor).toBe(0);
      const short = at(fromMinor(Math.round((price * 10) / unit) - 1, base));
      expect(short.decisions[0]?.reasons.map((x) => x.code)).toContain("insufficient_cash");
    }
  });
});

describe("the gate rounds as the booking rounds", () => {
  it("a KWD buy whose notional and commission each round up by half a fils is blocked when booking them would overdraw by one fils", async () => {
    // notional 1 × 99.999 USD × 0.5 = 49.9995 KWD → booked 50.000; commission 0.0015 KWD → booked 0.002.
    // Unrounded they cost exactly the 50.001 KWD held; booked they cost 50.002.
    const market: GateMarket = { AWAY: { price: 99.999, fx_to_base: 0.5, commission: 0.0015 } };
    const uni: Instrument[] = [{ symbol: "AWAY", currency: "USD", tick: 0.001 }];
    const order: GateOrder = { symbol: "AWAY", side: "BUY", quantity: 1, limit_price: 99.999 };
    const state: GateState = { cash: 50.001, holdings: {}, peak: 0, orders_this_month: 0, trading_state: "ACTIVE" };
    const r = evaluate([order], state, market, LIMITS("KWD"), uni);
    // What the journal would leave had it been approved: one fils below zero.
    const j = await freshJournal({ capital: 50.001, currency: "KWD" });
    try {
      await startRun(j, "r1");
      await book(j, "o1", "AWAY", "BUY", 1, 99.999, 0.5, 0.0015);
      expect(j.cashMinor()).toBe(-1);
    } finally {
      await j.close();
    }
    expect(r.decisions[0]?.reasons.map((x) => x.code)).toContain("insufficient_cash");
    expect(r.decisions[0]?.reasons.find((x) => x.code === "insufficient_cash")?.message).toBe(
      "cost 50.002 KWD (notional 50.000 + commission 0.002) exceeds cash 50.001 KWD",
    );
  });
});

async function book(
  j: Awaited<ReturnType<typeof freshJournal>>,
  coid: string,
  symbol: string,
  side: "BUY" | "SELL",
  qty: number,
  price: number,
  fx: number,
  commission: number,
) {
  const at = "2024-01-02T14:30:00Z";
  await j.recordOrderIntent({ run_id: "r1", client_order_id: coid, index: 0, symbol, side, quantity: qty, limit_price: price, at, fx_to_base: fx });
  await j.recordOrderUpdate(coid, { status: "accepted", broker_order_id: `b-${coid}`, at });
  await j.bookFill(coid, { fill_id: `f-${coid}`, symbol, side, quantity: qty, price, commission, fx_to_base: fx, at });
  await j.recordOrderUpdate(coid, { status: "filled", filled_quantity: qty, at });
}
