/**
 * The portfolio's last fills: those of the most recent run (in the journal's run order), other
 * than the current one, that had fills; found without copying every run record
 * (`lastRunWithFills`), the same as scanning `runs()` from the newest with `fills(run_id)`.
 */
import { describe, expect, it } from "vitest";
import { portfolioView } from "../../src/run/portfolio.js";
import { buy, finish, freshJournal, startRun } from "../journal/helpers.js";

type Journal = Awaited<ReturnType<typeof freshJournal>>;

const noPrices = { referencePrice: () => undefined };

/** The old scan: every run copied, newest first, the first other than `current` with fills. */
function byScan(j: Journal, current?: string) {
  const runs = j.runs();
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i]!;
    if (run.run_id === current) continue;
    if (j.fills(run.run_id).length > 0) return { run_id: run.run_id, trading_day: run.trading_day };
  }
  return undefined;
}

describe("the portfolio's last fills", () => {
  it("are the newest other run's with fills, as the scan of every run found them", async () => {
    const j = await freshJournal();
    expect(j.lastRunWithFills()).toBeUndefined();
    expect(portfolioView(j, noPrices, { currency: "USD" }).last_fills).toEqual([]);

    await startRun(j, "r1", "2024-01-02T14:00:00Z");
    await buy(j, "r1", "c1", "AAPL", 10, 100, 1, "2024-01-02T14:30:00Z");
    await buy(j, "r1", "c2", "MSFT", 5, 200, 1, "2024-01-02T14:31:00Z");
    await finish(j, "r1", "2024-01-02T15:00:00Z");
    await startRun(j, "r2", "2024-01-03T14:00:00Z");
    await finish(j, "r2", "2024-01-03T15:00:00Z");
    await startRun(j, "r3", "2024-01-04T14:00:00Z");
    await buy(j, "r3", "c3", "AAPL", 1, 101, 1, "2024-01-04T14:30:00Z");

    for (const current of [undefined, "r1", "r2", "r3", "nope"]) {
      expect(j.lastRunWithFills(current)).toEqual(byScan(j, current));
    }
    const view = portfolioView(j, noPrices, { currency: "USD", currentRunId: "r3" });
    expect(view.last_fills.map((f) => [f.run_id, f.trading_day, f.symbol, f.quantity, f.price])).toEqual([
      ["r1", "2024-01-02", "AAPL", 10, 100],
      ["r1", "2024-01-02", "MSFT", 5, 200],
    ]);
    expect(portfolioView(j, noPrices, { currency: "USD" }).last_fills.map((f) => f.run_id)).toEqual(["r3"]);
  });
});
