/**
 * A simulated run's fills: the trading day (2007) and the wall-clock time the fill was booked
 * (today) are said apart, never glued into one timestamp ("day 2007-01-08 00:51:51" read as a 2007
 * time of day that never happened).
 */
import { expect, it } from "vitest";
import { detailLines } from "../../src/screens/journal-lines.js";

it("a fill line names its trading day and its booking time on the wall clock separately", () => {
  const lines = detailLines(
    {
      run_id: "r1",
      events: [],
      orders: [],
      fills: [{ at: "2026-12-02T00:51:51.622Z", symbol: "HTLX", side: "BUY", quantity: 279, price: 71.09, commission: 1.4 }],
      decision: null,
      transcript: [],
      cost: { total_usd: 0 },
    },
    { run_id: "r1", started_at: "2026-12-02T00:51:50Z", trading_day: "2007-01-08", mode: "paper", outcome: "executed", orders: 1, fills: 1, cost_usd: 0 },
    200,
  ).map((l) => l.text);
  const fill = lines.find((l) => l.includes("HTLX @"));
  expect(fill).toBe("  BUY 279 HTLX @ 71.09 · commission 1.40 · trading day 2007-01-08 · booked 2026-12-02 00:51 UTC");
  expect(lines.join("\n")).not.toMatch(/2007-01-08 00:51:51/);
});
