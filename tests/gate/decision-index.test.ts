/**
 * Every decision names the input order it answers by `index`. The gate answers in evaluated order
 * (sells first), so a batch with duplicate identical orders, and with sells and buys interleaved, is
 * where matching verdicts back by value was ambiguous: two identical orders look the same, and only
 * the index says which verdict is whose.
 */
import { describe, expect, it } from "vitest";
import { decisionFor, type GateDecision, inInputOrder } from "../../src/core/gate-types.js";
import { evaluate } from "../../src/gate/evaluate.js";
import { buy, LIMITS, MARKET, sell, state, UNIVERSE } from "./helpers.js";

// Input order: buy, sell, the same buy again (its reason differs: not part of the order's identity), the same sell again, a buy.
const BATCH = [
  buy("AAA", 10, 10, { reason: "first AAA" }),
  sell("BBB", 5, 20, { reason: "first BBB" }),
  buy("AAA", 10, 10, { reason: "second AAA" }),
  sell("BBB", 5, 20, { reason: "second BBB" }),
  buy("CCC", 2, 50, { reason: "CCC" }),
];
const HELD = state({ holdings: { BBB: { quantity: 10 } } });

describe("gate decisions carry the input index", () => {
  it("duplicates and interleaved sides: each verdict names its own input order", () => {
    const r = evaluate(BATCH, HELD, MARKET, LIMITS, UNIVERSE);
    // Evaluated order: the sells first (stable), then the buys; every input answered exactly once.
    expect(r.decisions.map((d) => d.index)).toEqual([1, 3, 0, 2, 4]);
    for (const d of r.decisions) expect(d.order).toEqual(BATCH[d.index]);
    // The first of each identical pair passes; the second is the duplicate, and the index says which.
    expect(decisionFor(r.decisions, 0)).toMatchObject({ approved: true, order: { reason: "first AAA" } });
    expect(decisionFor(r.decisions, 2)).toMatchObject({
      approved: false,
      reasons: [expect.objectContaining({ code: "duplicate_order" })],
      order: { reason: "second AAA" },
    });
    expect(decisionFor(r.decisions, 1)).toMatchObject({ approved: true, order: { reason: "first BBB" } });
    expect(decisionFor(r.decisions, 3)).toMatchObject({
      approved: false,
      reasons: [expect.objectContaining({ code: "duplicate_order" })],
      order: { reason: "second BBB" },
    });
    expect(decisionFor(r.decisions, 4)).toMatchObject({ approved: true, order: { reason: "CCC" } });
    // In input order, by index: what the operator's rows and the journal's proposal record show.
    expect(inInputOrder(r.decisions, BATCH.length).map((d) => [d.index, d.order.reason, d.approved])).toEqual([
      [0, "first AAA", true],
      [1, "first BBB", true],
      [2, "second AAA", false],
      [3, "second BBB", false],
      [4, "CCC", true],
    ]);
  });

  it("globally blocked batches keep the indices too (a halted account)", () => {
    const r = evaluate(BATCH, state({ ...HELD, trading_state: "HALTED" }), MARKET, LIMITS, UNIVERSE);
    expect(r.decisions.map((d) => [d.index, d.approved])).toEqual([
      [1, false],
      [3, false],
      [0, false],
      [2, false],
      [4, false],
    ]);
  });

  it("inInputOrder refuses a batch answered short or twice, naming the input order", () => {
    const r = evaluate(BATCH.slice(0, 2), HELD, MARKET, LIMITS, UNIVERSE);
    const [a, b] = r.decisions as [GateDecision, GateDecision];
    expect(() => inInputOrder([a], 2)).toThrow(/answered 1 decisions for 2 orders/);
    expect(() => inInputOrder([a, { ...b, index: a.index }], 2)).toThrow(/no gate decision for input order/);
    expect(inInputOrder([a, b], 2).map((d) => d.index)).toEqual([0, 1]);
  });
});
