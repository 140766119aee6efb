import { describe, expect, it } from "vitest";
import { describeExecution } from "../../src/executor/summary.js";
import type { OrderExecution } from "../../src/executor/types.js";

const order = (over: Partial<OrderExecution>): OrderExecution => ({
  index: 0,
  client_order_id: "tw-r-0",
  order: { symbol: "AAA", side: "BUY", quantity: 10, limit_price: 10, currency: "USD", fx_to_base: 1, liquidation: false, client_order_id: "tw-r-0" },
  symbol: "AAA",
  side: "BUY",
  quantity: 10,
  limit_price: 10,
  status: "filled",
  filled_quantity: 10,
  avg_price: 10,
  commission: 1,
  fills: [],
  ...over,
});

describe("the words of an execution are its facts", () => {
  it("'sent' counts only orders the broker acknowledged", () => {
    const r = describeExecution([
      order({ broker_order_id: "b1" }),
      order({ index: 1, status: "rejected", message: "insufficient buying power", error_code: "order_rejected" }),
    ]);
    expect(r).toMatchObject({ outcome: "executed", exitCode: 0, acknowledged: 1 });
    expect(r.message).toBe("1 order sent (acknowledged by the paper broker), 1 filled; 1 refused: BUY 10 AAA: insufficient buying power");
  });

  it("a paper guard that blocked every send is not 'executed (exit 0)': exit 2 with the reason", () => {
    const r = describeExecution([order({ status: "rejected", message: "refusing: account PA1 is not a paper account", error_code: "not_paper" })]);
    expect(r).toMatchObject({ outcome: "error", exitCode: 2, acknowledged: 0 });
    expect(r.message).toMatch(/^0 orders sent .*; 1 refused: BUY 10 AAA: refusing: account PA1 is not a paper account$/);
  });

  it("a journal that could not record the intent: nothing sent, exit 1; an unreachable broker: exit 4", () => {
    expect(describeExecution([order({ status: "not_sent", message: "not sent: ENOSPC", error_code: "journal_write_failed" })])).toMatchObject({
      exitCode: 1,
      acknowledged: 0,
    });
    expect(describeExecution([order({ status: "uncertain", message: "send outcome unknown" })])).toMatchObject({ outcome: "broker_unavailable", exitCode: 4 });
  });

  it("a journal write that failed after the broker had the order makes the run exit 1, saying the next run recovers it", () => {
    const r = describeExecution([order({ broker_order_id: "b1" })], ["fill F1 of tw-r-0: ENOSPC"]);
    expect(r).toMatchObject({ outcome: "error", exitCode: 1, acknowledged: 1 });
    expect(r.message).toMatch(/the journal could not record 1 update\(s\) \(fill F1 of tw-r-0: ENOSPC\); the next run recovers them by client order id/);
  });
});
