import { describe, expect, it } from "vitest";
import { reconcile } from "../../src/journal/reconcile.js";

describe("reconcile", () => {
  it("no differences when they agree within tolerance", () => {
    expect(
      reconcile(
        { AAA: { quantity: 10 }, BBB: { quantity: 0.1 + 0.2 } },
        [
          { symbol: "AAA", quantity: 10 },
          { symbol: "BBB", quantity: 0.3 },
        ],
        [],
        { tolerance: 1e-6 },
      ),
    ).toEqual([]);
  });
  it("reports mismatches, unbooked and missing positions, and unknown open orders", () => {
    const d = reconcile(
      { AAA: { quantity: 10 }, BBB: { quantity: 5 } },
      [
        { symbol: "AAA", quantity: 7 },
        { symbol: "CCC", quantity: 2 },
      ],
      [
        { symbol: "AAA", client_order_id: "run1-0", broker_order_id: "b1" },
        { symbol: "DDD", client_order_id: "someone-else", broker_order_id: "b2" },
        { symbol: "EEE", broker_order_id: "b3" },
      ],
      { tolerance: 1e-6, knownClientIds: new Set(["run1-0"]) },
    );
    expect(d.map((x) => [x.kind, x.symbol])).toEqual([
      ["position_mismatch", "AAA"],
      ["missing_position", "BBB"],
      ["unbooked_position", "CCC"],
      ["unknown_open_order", "DDD"],
      ["unknown_open_order", "EEE"],
    ]);
    expect(d[0]).toMatchObject({ journal_quantity: 10, broker_quantity: 7, message: "AAA: the journal holds 10, the broker 7" });
    expect(d[3]).toMatchObject({ client_order_id: "someone-else", broker_order_id: "b2" });
    expect(d[4]!.client_order_id).toBeUndefined();
  });
});
