import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openJournal } from "../../src/journal/journal.js";
import { freshJournal, startRun } from "./helpers.js";

/** Independent model: BigInt arithmetic on prices with 4 decimals, half-even to cents. */
function grossCents(qty: number, priceTenThousandths: number): bigint {
  const num = BigInt(qty) * BigInt(priceTenThousandths); // in 1e-4 dollars
  const q = num / 100n;
  const r = num % 100n;
  if (r > 50n || (r === 50n && q % 2n === 1n)) return q + 1n;
  return q;
}

type Op = { k: "deposit"; cents: number } | { k: "fill"; symbol: string; side: "BUY" | "SELL"; qty: number; price: number; commissionCents: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant("deposit" as const), cents: fc.integer({ min: 1, max: 5_000_000 }) }),
  fc.record({
    k: fc.constant("fill" as const),
    symbol: fc.constantFrom("AAA", "BBB", "CCC"),
    side: fc.constantFrom("BUY" as const, "SELL" as const),
    qty: fc.integer({ min: 1, max: 500 }),
    price: fc.integer({ min: 1, max: 5_000_000 }), // 0.0001 .. 500.0000
    commissionCents: fc.integer({ min: 0, max: 999 }),
  }),
);

describe("ledger properties", () => {
  it("after any sequence of deposits and fills, cash is the ledger sum to the cent and holdings are the fills", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const j = await freshJournal({ capital: 1_000_000 });
        await startRun(j, "r");
        let cash = 100_000_000n;
        const held = new Map<string, number>();
        /** Symbols with a buy that booked at least one minor unit (notional or commission). */
        const booked = new Map<string, boolean>();
        let n = 0;
        for (const op of ops) {
          if (op.k === "deposit") {
            await j.deposit({ amount: op.cents / 100, at: new Date() });
            cash += BigInt(op.cents);
            continue;
          }
          const have = held.get(op.symbol) ?? 0;
          const qty = op.side === "SELL" ? Math.min(op.qty, have) : op.qty;
          if (qty === 0) continue;
          const id = `c${n++}`;
          const price = op.price / 10_000;
          await j.recordOrderIntent({
            run_id: "r",
            client_order_id: id,
            index: n,
            symbol: op.symbol,
            side: op.side,
            quantity: qty,
            limit_price: price,
            at: new Date(),
          });
          await j.bookFill(id, {
            fill_id: `f${id}`,
            symbol: op.symbol,
            side: op.side,
            quantity: qty,
            price,
            commission: op.commissionCents / 100,
            fx_to_base: 1,
            at: new Date(),
          });
          const g = grossCents(qty, op.price);
          if (op.side === "BUY" && g + BigInt(op.commissionCents) > 0n) booked.set(op.symbol, true);
          cash += (op.side === "BUY" ? -g : g) - BigInt(op.commissionCents);
          held.set(op.symbol, have + (op.side === "BUY" ? qty : -qty));
          if (held.get(op.symbol) === 0) booked.delete(op.symbol); // sold out: its basis starts again
        }
        const ledgerSum = j.ledger().reduce((a, e) => a + BigInt(e.amount_minor), 0n);
        expect(ledgerSum).toBe(cash);
        expect(BigInt(j.cashMinor())).toBe(cash);
        expect(j.cash()).toBe(Number(cash) / 100);
        const expected = Object.fromEntries([...held].filter(([, q]) => q !== 0));
        expect(Object.fromEntries(Object.entries(j.holdings()).map(([s, h]) => [s, h.quantity]))).toEqual(expected);
        // A holding's average cost is what its buys booked, per share: never negative, and zero only
        // when every buy's notional rounded to no minor unit (1 share at 0.0001 books 0.00).
        for (const [symbol, h] of Object.entries(j.holdings())) {
          expect(h.avg_cost).toBeGreaterThanOrEqual(0);
          if (booked.get(symbol)) expect(h.avg_cost).toBeGreaterThan(0);
        }
        expect(j.verify()).toEqual([]);
        const again = await openJournal(j.home, { timezone: "UTC", fsync: false });
        expect(again.cashMinor()).toBe(j.cashMinor());
        expect(again.holdings()).toEqual(j.holdings());
      }),
      { numRuns: 40 },
    );
  });

  it("average cost never moves on a sell", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ qty: fc.integer({ min: 1, max: 50 }), price: fc.integer({ min: 1, max: 100_000 }), fee: fc.integer({ min: 0, max: 500 }) }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        async (buys, sells) => {
          const j = await freshJournal({ capital: 100_000_000 });
          await startRun(j, "r");
          let n = 0;
          for (const b of buys) {
            const id = `b${n++}`;
            await j.recordOrderIntent({
              run_id: "r",
              client_order_id: id,
              index: n,
              symbol: "AAA",
              side: "BUY",
              quantity: b.qty,
              limit_price: b.price / 100,
              at: new Date(),
            });
            await j.bookFill(id, {
              fill_id: id,
              symbol: "AAA",
              side: "BUY",
              quantity: b.qty,
              price: b.price / 100,
              commission: b.fee / 100,
              fx_to_base: 1,
              at: new Date(),
            });
          }
          const avg = j.holdings().AAA!.avg_cost;
          for (const s of sells) {
            const have = j.holdings().AAA?.quantity ?? 0;
            const qty = Math.min(s, have - 1);
            if (qty <= 0) break;
            const id = `s${n++}`;
            await j.recordOrderIntent({
              run_id: "r",
              client_order_id: id,
              index: n,
              symbol: "AAA",
              side: "SELL",
              quantity: qty,
              limit_price: 1,
              at: new Date(),
            });
            await j.bookFill(id, { fill_id: id, symbol: "AAA", side: "SELL", quantity: qty, price: 1, commission: 0.5, fx_to_base: 1, at: new Date() });
            expect(j.holdings().AAA!.avg_cost).toBeCloseTo(avg, 9);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
