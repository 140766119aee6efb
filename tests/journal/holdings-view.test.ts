/**
 * holdingsView's number shortcut (whole shares, a whole cost basis) gives exactly the Decimal
 * view's numbers: over random holdings, whole and fractional, tiny and near 2^53, in 0-, 2- and
 * 3-digit currencies.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec, minorDigits } from "../../src/core/money.js";
import type { State } from "../../src/journal/state.js";
import { holdingsView } from "../../src/journal/views.js";

/** The view as computed with Decimal alone (the definition the shortcut must match). */
function decimalView(qty: Dec, basis: Dec, currency: string) {
  const scale = new Dec(10).pow(minorDigits(currency));
  return {
    quantity: qty.toNumber(),
    avg_cost: qty.gt(0) ? basis.div(qty).div(scale).toNumber() : 0,
    cost_basis: basis.toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).div(scale).toNumber(),
    currency,
  };
}

const stateOf = (qty: Dec, basis: Dec, currency: string) =>
  ({ account: { currency }, holdings: new Map([["X", { qty, basis, currency }]]) }) as unknown as State;

const qtyArb = fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(0, -5, 3));
const basisArb = fc.oneof(fc.integer({ min: 1, max: 100_000_000 }), fc.maxSafeInteger(), fc.constantFrom(0, 1, 3, 7, 2 ** 53 - 1, 2 ** 53, 2 ** 60));

describe("holdingsView", () => {
  it("whole holdings read the same numbers as the Decimal view", () => {
    fc.assert(
      fc.property(qtyArb, basisArb, fc.boolean(), fc.constantFrom("USD", "JPY", "KWD"), (q, b, fractional, currency) => {
        const qty = new Dec(q);
        const basis = fractional ? new Dec(b).div(7) : new Dec(b);
        const got = holdingsView(stateOf(qty, basis, currency)).X;
        const want = decimalView(qty, basis, currency);
        expect(Object.is(got?.avg_cost, want.avg_cost) && Object.is(got?.cost_basis, want.cost_basis)).toBe(true);
        expect(got).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });
});
