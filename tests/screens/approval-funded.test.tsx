/**
 * A buy the gate approved as funded by the batch's sells: the approval screen says so on its row and
 * under it ("funded by this batch's sells: … USD; placed after the sells fill"), the order ticket
 * counts what the sells fund, and y then Enter — like `--yes` — approves exactly the same orders.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { type ApprovalDecision, AutoApprover } from "../../src/run/approval.js";
import { ApprovalScreen } from "../../src/screens/ApprovalScreen.js";
import { fakeRequest, KEY, order, sendInputAndWaitForChange } from "./helpers.js";

afterEach(cleanup);

/** Cash 500: selling 20 MSFT @ 199 (3,980 in) pays for most of BUY 30 AAPL @ 101 (3,030 + commission). */
function rebalance() {
  const req = fakeRequest([order("MSFT", "SELL", 20, 199), order("AAPL", "BUY", 30, 101)], {
    prices: { AAPL: 100, MSFT: 200 },
    holdings: { MSFT: 20 },
    cash: 500,
  });
  req.portfolio = {
    currency: "USD",
    cash: 500,
    value: 4_500,
    holdings: [{ symbol: "MSFT", quantity: 20, price: 200, value: 4_000, weight: 4_000 / 4_500, cost_basis: 3_900, unrealised_pnl: 100, currency: "USD" }],
    last_fills: [],
  };
  return req;
}

describe("a buy funded by the batch's sells, on the approval screen", () => {
  it("the row and its brief say it is funded by the sells and placed after they fill; the ticket counts it", async () => {
    const req = rebalance();
    const funded = req.decisions.find((d) => d.funded_by_sells);
    expect(funded?.order.symbol).toBe("AAPL");
    const decisions: ApprovalDecision[] = [];
    const inst = render(<ApprovalScreen request={req} onDecide={(d) => decisions.push(d)} onInterrupt={() => {}} maxRows={30} typeAheadGuardMs={0} />);
    let frame = await sendInputAndWaitForChange(inst, KEY.down);
    expect(frame).toMatch(/ok · after the sells/);
    expect(frame).toContain("funded by this batch's sells: 2,531.00 USD; placed after the sells fill");
    frame = await sendInputAndWaitForChange(inst, "a");
    expect(frame).toContain("funded by sells: 2,531.00 USD (1 buy) · placed after the sells fill");
    // The cash before does not cover the buy: what the sells fund is said, not an error.
    expect(frame).toContain("cash before 500.00 USD · after the buys -2,531.00 USD · sells fund buys only once they fill");
    await sendInputAndWaitForChange(inst, "y");
    await sendInputAndWaitForChange(inst, KEY.enter);
    const d = decisions[0];
    if (d?.kind !== "approve") throw new Error("expected an approval");
    // --yes approves exactly the same orders.
    const auto = await new AutoApprover().decide(req);
    if (auto.kind !== "approve") throw new Error("expected --yes to approve");
    expect(d.orders).toEqual(auto.orders);
    expect(d.orders.map((o) => `${o.side} ${o.quantity} ${o.symbol}`)).toEqual(["SELL 20 MSFT", "BUY 30 AAPL"]);
  });
});
