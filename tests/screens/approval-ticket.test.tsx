/**
 * The approval confirmation is an order ticket: pressing `a` shows every order that will be sent
 * (side, quantity, limit, notional, estimated commission from the gate's verdicts), the totals
 * (cash before, after the buys — sells do not fund buys — and after every fill; each touched
 * position's share of the account after) and what is left out and why, within 80 columns and the
 * screen's height; y then Enter still sends exactly the ticket's orders.
 */
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { EventSink } from "../../src/run/event-sink.js";
import type { ApprovalDecision } from "../../src/run/approval.js";
import { ApprovalQueue } from "../../src/screens/approval-queue.js";
import { ApprovalScreen } from "../../src/screens/ApprovalScreen.js";
import { type Mounted, mountRunConsole } from "../../src/screens/run-app.js";
import { io } from "./fake-terminal.js";
import { fakeRequest, KEY, order, sendInputAndWaitForChange, waitFor } from "./helpers.js";

const mounted: Mounted[] = [];
afterEach(() => {
  cleanup();
  for (const m of mounted.splice(0)) m.unmount();
});

const portfolio = {
  currency: "USD",
  cash: 10_000,
  value: 34_000,
  holdings: [{ symbol: "MSFT", quantity: 120, price: 200, value: 24_000, weight: 24_000 / 34_000, cost_basis: 23_000, unrealised_pnl: 1_000, currency: "USD" }],
  last_fills: [],
};

/** A buy (AAPL), a sell (MSFT, held), a blocked buy (TSLA: limit 20% off the price) and XOM, which the test drops. */
function batch(extra: ReturnType<typeof order>[] = [], extraPrices: Record<string, number> = {}) {
  const req = fakeRequest(
    [order("AAPL", "BUY", 10, 100), order("MSFT", "SELL", 20, 201), order("TSLA", "BUY", 3, 60), order("XOM", "BUY", 7, 110.5), ...extra],
    { prices: { AAPL: 100, MSFT: 200, TSLA: 50, XOM: 110, ...extraPrices }, holdings: { MSFT: 120 }, cash: 10_000 },
  );
  req.portfolio = portfolio;
  req.portfolioValue = 34_000;
  req.positionValues = { MSFT: 24_000 };
  return req;
}

const TICKET = [
  "Order ticket: 2 order(s) to send · amounts in USD",
  /^ {2}#\s+side\s+symbol\s+qty\s+limit\s+notional\s+commission$/,
  /^ {2}1\s+BUY\s+AAPL\s+10\s+100\.00\s+1,000\.00\s+1\.00$/,
  /^ {2}2\s+SELL\s+MSFT\s+20\s+201\.00\s+4,020\.00\s+1\.00$/,
  "buys 1,000.00 USD · sells 4,020.00 USD · est. commission 2.00 USD",
  // The gate's rule: the buys are paid from the cash before; the sells' proceeds arrive after.
  "cash before 10,000.00 USD · after the buys 8,999.00 USD · sells do not fund buys",
  "cash after every fill 13,018.00 USD",
  // Of 33,998.00 (34,000 less the commissions): AAPL 1,000 · MSFT 24,000 − 4,020 · cash 13,018.
  "share after: AAPL 2.9% · MSFT 58.8% · cash 38.3%",
  "left out (not sent): 2",
  "  #3 BUY 3 TSLA: BLOCKED price_band: limit 60.00 is 20.00% from price 50.00 (max 2%)",
  "  #4 BUY 7 XOM: dropped by you",
  "Send 2 order(s) (2 left out)? Cannot be undone: y, then Enter; any other key cancels.",
] as const;

function expectTicket(lines: readonly string[]) {
  const start = lines.findIndex((l) => l.startsWith("Order ticket"));
  expect(start, lines.join("\n")).toBeGreaterThan(-1);
  TICKET.forEach((want, i) => {
    const got = lines[start + i] ?? "";
    if (typeof want === "string") expect(got).toBe(want);
    else expect(got).toMatch(want);
  });
}

describe("the approval confirmation is an order ticket", () => {
  it("a buy, a sell, a dropped and a blocked order: each line, the totals, what is left out; y, Enter sends the ticket's orders", async () => {
    const decisions: ApprovalDecision[] = [];
    const inst = render(<ApprovalScreen request={batch()} onDecide={(d) => decisions.push(d)} onInterrupt={() => {}} maxRows={30} typeAheadGuardMs={0} />);
    for (const k of [KEY.down, KEY.down, KEY.down, "d"]) await sendInputAndWaitForChange(inst, k);
    const f = await sendInputAndWaitForChange(inst, "a");
    expectTicket(f.split("\n").map((l) => l.trimEnd()));
    await sendInputAndWaitForChange(inst, "y");
    await sendInputAndWaitForChange(inst, KEY.enter);
    const d = decisions[0];
    if (d?.kind !== "approve") throw new Error("expected an approval");
    expect(d.orders.map((o) => `${o.side} ${o.quantity} ${o.symbol} @ ${o.limit_price}`)).toEqual(["BUY 10 AAPL @ 100", "SELL 20 MSFT @ 201"]);
  });

  it.each([80, 70])("at %i columns, as the CLI mounts it: every line fits; the whole table, totals and what is left out", async (columns) => {
    const t = io(columns, 40);
    const sink = new EventSink();
    const queue = new ApprovalQueue();
    mounted.push(mountRunConsole({ subscribe: (l) => sink.subscribe(l), replay: sink.events, queue, onInterrupt: () => {}, ...t.opts }));
    void queue.decide(batch());
    await waitFor(() => t.stdout.lastFrameWith("Approve orders?") !== "", 3000, "the approval screen");
    for (const k of [KEY.down, KEY.down, KEY.down, "d", "a"]) {
      const n = t.stdout.writes.length;
      t.stdin.send(k);
      await waitFor(() => t.stdout.writes.length > n, 2000, `a frame after ${JSON.stringify(k)}`);
    }
    await waitFor(() => t.stdout.lastFrameWith("Order ticket") !== "", 2000, "the ticket");
    const lines = t.stdout
      .lastFrameWith("Order ticket")
      .split("\n")
      .map((l) => l.trimEnd());
    for (const l of lines) expect(l.length, l).toBeLessThan(columns);
    const at = (re: RegExp) => lines.find((l) => re.test(l)) ?? "";
    expect(at(/BUY\s+AAPL/)).toMatch(/BUY\s+AAPL\s+10\s+100\.00\s+1,000\.00\s+1\.00$/);
    expect(at(/SELL\s+MSFT/)).toMatch(/SELL\s+MSFT\s+20\s+201\.00\s+4,020\.00\s+1\.00$/);
    expect(lines).toContain("buys 1,000.00 USD · sells 4,020.00 USD · est. commission 2.00 USD");
    expect(lines.some((l) => l.startsWith("cash before 10,000.00 USD · after the buys 8,999.00 USD"))).toBe(true);
    expect(lines).toContain("cash after every fill 13,018.00 USD");
    expect(lines).toContain("share after: AAPL 2.9% · MSFT 58.8% · cash 38.3%");
    expect(at(/#3 BUY 3 TSLA/)).toMatch(/^ {2}#3 BUY 3 TSLA: BLOCKED price_band/);
    expect(lines).toContain("  #4 BUY 7 XOM: dropped by you");
    expect(at(/side\s+symbol/)).toMatch(/^ {2}#\s+side\s+symbol\s+qty\s+limit\s+notional\s+commission$/);
  });

  it("many orders within the screen's height: the orders are summarised, the totals and what is left out stay", async () => {
    const symbols = Array.from({ length: 20 }, (_, i) => `S${String(i + 1).padStart(2, "0")}`);
    const many = symbols.map((s) => order(s, "BUY", 10, 10));
    const decisions: ApprovalDecision[] = [];
    const maxRows = 20;
    const inst = render(
      <ApprovalScreen
        request={batch(many, Object.fromEntries(symbols.map((s) => [s, 10])))}
        onDecide={(d) => decisions.push(d)}
        onInterrupt={() => {}}
        maxRows={maxRows}
        typeAheadGuardMs={0}
      />,
    );
    const f = await sendInputAndWaitForChange(inst, "a");
    expect(f.split("\n").length, f).toBeLessThanOrEqual(maxRows);
    expect(f).toContain("Order ticket: 23 order(s) to send");
    expect(f).toMatch(/…and \d+ more order\(s\), counted in the totals below/);
    // AAPL 1,000.00, XOM 773.50 and 20 buys of 100.00; MSFT's sell; 23 commissions of 1.00.
    expect(f).toContain("buys 3,773.50 USD · sells 4,020.00 USD · est. commission 23.00 USD");
    expect(f).toContain("cash before 10,000.00 USD · after the buys 6,204.50 USD");
    expect(f).toContain("cash after every fill 10,223.50 USD");
    expect(f).toContain("left out (not sent): 1: #3 TSLA blocked");
    expect(f).toContain("Send 23 order(s) (1 left out)? Cannot be undone");
  });
});
