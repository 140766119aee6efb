/**
 * One valuation (issue #24): the portfolio the operator sees (run/portfolio.ts) and the one the
 * model sees (get_portfolio's snapshot) are made from the same valuation of the real journal, so
 * their totals are equal to the minor unit, and a JPY or KWD base currency is valued and shown with
 * its own decimals (0 and 3), not two.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PriceSource, ReferencePrice } from "../../src/core/domain.js";
import { portfolioSnapshot } from "../../src/journal/tool-handlers.js";
import { cashAfter, portfolioView } from "../../src/run/portfolio.js";
import { portfolioLines } from "../../src/screens/portfolio-lines.js";
import { freshJournal, startRun } from "../journal/helpers.js";

type Journal = Awaited<ReturnType<typeof freshJournal>>;

const prices = (table: Record<string, Omit<ReferencePrice, "symbol" | "as_of">>): PriceSource => ({
  referencePrice: (symbol) => {
    const p = table[symbol];
    return p ? { symbol, as_of: "2024-01-02", ...p } : undefined;
  },
});

async function fill(j: Journal, coid: string, symbol: string, qty: number, price: number, fx: number, currency: string, commission = 0) {
  const at = "2024-01-02T14:30:00Z";
  await j.recordOrderIntent({
    run_id: "r1",
    client_order_id: coid,
    index: 0,
    symbol,
    side: "BUY",
    quantity: qty,
    limit_price: price,
    at,
    currency,
    fx_to_base: fx,
  });
  await j.recordOrderUpdate(coid, { status: "accepted", broker_order_id: `b-${coid}`, at });
  await j.bookFill(coid, { fill_id: `f-${coid}`, symbol, side: "BUY", quantity: qty, price, commission, commission_currency: currency, fx_to_base: fx, at });
  await j.recordOrderUpdate(coid, { status: "filled", filled_quantity: qty, at });
}

const both = (j: Journal, src: PriceSource) => {
  const currency = j.baseCurrency();
  const view = portfolioView(j, src, { currency });
  const snap = portfolioSnapshot({
    journal: j,
    prices: src,
    limits: { max_orders_per_month: 10, max_drawdown_pct: 20 },
    runId: "r2",
    tradingDay: "2024-01-03",
    now: new Date("2024-01-03T14:00:00Z"),
  });
  return { view, snap };
};

const BASES = [
  { base: "USD", capital: 100_000, home: { price: 187.33, tick: 0.01 }, away: { currency: "EUR", fx: 1.0837 } },
  { base: "JPY", capital: 10_000_000, home: { price: 2871, tick: 1 }, away: { currency: "USD", fx: 151.37 } },
  { base: "KWD", capital: 30_000, home: { price: 1.237, tick: 0.001 }, away: { currency: "USD", fx: 0.3071 } },
];

describe("the operator's and the model's portfolio are one valuation", () => {
  for (const b of BASES) {
    it(`${b.base}: equal totals, cash and holding values for random holdings and prices`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 40 }),
          fc.integer({ min: 1, max: 40 }),
          fc.integer({ min: 100, max: 99_999 }),
          fc.integer({ min: -300, max: 300 }),
          fc.double({ min: 0, max: 3, noNaN: true }),
          async (qHome, qAway, awayCents, movePermille, commission) => {
            const j = await freshJournal({ capital: b.capital, currency: b.base });
            try {
              await startRun(j, "r1");
              const awayPrice = awayCents / 100;
              await fill(j, "h", "HOME", qHome, b.home.price, 1, b.base, commission);
              await fill(j, "a", "AWAY", qAway, awayPrice, b.away.fx, b.away.currency, commission);
              // Prices move after the fills: unrealised P&L, and values off the booked grid.
              const move = 1 + movePermille / 1000;
              const src = prices({
                HOME: { price: b.home.price * move, currency: b.base, fx_to_base: 1 },
                AWAY: { price: awayPrice * move, currency: b.away.currency, fx_to_base: b.away.fx * move },
              });
              const { view, snap } = both(j, src);
              expect(view.value).toBe(snap.value);
              expect(view.cash).toBe(snap.cash);
              for (const h of snap.holdings) {
                const row = view.holdings.find((r) => r.symbol === h.symbol);
                expect(row?.value).toBe(h.market_value);
                expect(row?.unrealised_pnl).toBe(h.unrealized_pnl);
              }
              const scale = 10 ** { USD: 2, JPY: 0, KWD: 3 }[b.base as "USD"];
              for (const n of [view.value, view.cash, ...view.holdings.map((h) => h.value ?? 0)])
                expect(Number.isInteger(Math.round(n * scale * 1e6) / 1e6)).toBe(true);
            } finally {
              await j.close();
            }
          },
        ),
        { numRuns: 25 },
      );
    }, 60_000);
  }

  it("a JPY account: a position worth 3 × 101.37 USD at 151.37 is valued in whole yen by both (46,033), shown without decimals", async () => {
    const j = await freshJournal({ capital: 1_000_000, currency: "JPY" });
    try {
      await startRun(j, "r1");
      await fill(j, "a", "AWAY", 3, 101.37, 151.37, "USD");
      const { view, snap } = both(j, prices({ AWAY: { price: 101.37, currency: "USD", fx_to_base: 151.37 } }));
      // 3 × 101.37 × 151.37 = 46,032.6207 → 46,033 yen (booked the same: cash 953,967).
      expect(snap.holdings[0]?.market_value).toBe(46_033);
      expect(view.holdings[0]?.value).toBe(46_033);
      expect(view.cash).toBe(953_967);
      expect(view.value).toBe(1_000_000);
      expect(snap.value).toBe(1_000_000);
      const text = portfolioLines(view, null, 120, 5)
        .map((l) => l.text)
        .join("\n");
      expect(text).toContain("cash 953,967 JPY");
      expect(text).toContain("value 1,000,000 JPY");
      expect(text).toMatch(/AWAY\s+3\s+46,033\s/);
      expect(text).not.toMatch(/\d\.\d\d JPY/);
    } finally {
      await j.close();
    }
  });

  it("a KWD account: values to the fils (3 decimals) in both and on screen", async () => {
    const j = await freshJournal({ capital: 5_000, currency: "KWD" });
    try {
      await startRun(j, "r1");
      await fill(j, "h", "HOME", 7, 1.237, 1, "KWD");
      // 7 × 1.237 = 8.659 KWD: two decimals would show 8.66 and lose a fils.
      const src = prices({ HOME: { price: 1.237, currency: "KWD", fx_to_base: 1 } });
      const { view, snap } = both(j, src);
      expect(view.holdings[0]?.value).toBe(8.659);
      expect(snap.holdings[0]?.market_value).toBe(8.659);
      expect(view.cash).toBe(4_991.341);
      expect(view.value).toBe(snap.value);
      const text = portfolioLines(view, cashAfter(view.cash, [], "KWD"), 120, 5)
        .map((l) => l.text)
        .join("\n");
      expect(text).toContain("cash 4,991.341 KWD → 4,991.341 KWD");
      expect(text).toContain("value 5,000.000 KWD");
      expect(text).toMatch(/HOME\s+7\s+8\.659\s/);
    } finally {
      await j.close();
    }
  });
});
