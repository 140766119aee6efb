import { describe, expect, it } from "vitest";
import { makeJournalToolHandlers } from "../../src/tools/handlers/journal.js";
import type { ToolCallContext } from "../../src/tools/types.js";
import { buy, finish, freshJournal, startRun } from "./helpers.js";
import { checkedAll } from "../tools/checked.js";

const prices = { referencePrice: () => undefined };

async function handlersAt(j: Awaited<ReturnType<typeof freshJournal>>, tradingDay: string, runId = "now") {
  const h = checkedAll(
    makeJournalToolHandlers({
      journal: j,
      prices,
      limits: { max_orders_per_month: 10, max_drawdown_pct: 25 },
      now: () => new Date(`${tradingDay}T12:00:00Z`),
      runId,
      tradingDay,
    }),
  );
  const ctx: ToolCallContext = { runId, tradingDay, seenEvidence: new Set(), pending: [] };
  const portfolio = (await h.get_portfolio({}, ctx)) as { ok: true; data: { recent_activity: { trading_day: string }[] } };
  const recall = (await h.recall({}, ctx)) as { ok: true; data: { notes: { id: string; text: string }[] } };
  return { activity: portfolio.data.recent_activity, notes: recall.data.notes };
}

describe("time never runs backwards for the model", () => {
  it("recall and recent_activity show only facts of earlier trading days (and the run's own notes); supersession is as of then", async () => {
    const j = await freshJournal();
    await startRun(j, "r1", "2024-01-10T14:00:00Z");
    await buy(j, "r1", "c1", "AAA", 5, 10, 0, "2024-01-10T14:30:00Z");
    await j.remember({ kind: "lesson", text: "old lesson", run_id: "r1", at: "2024-01-10T15:00:00Z" });
    await finish(j, "r1", "2024-01-10T16:00:00Z");
    await startRun(j, "r2", "2024-01-12T14:00:00Z");
    await j.remember({ kind: "lesson", text: "newer lesson", supersedes: "n-1", run_id: "r2", at: "2024-01-12T15:00:00Z" });
    await finish(j, "r2", "2024-01-12T16:00:00Z");

    const before = await handlersAt(j, "2024-01-05");
    expect(before.activity).toEqual([]);
    expect(before.notes).toEqual([]);

    const between = await handlersAt(j, "2024-01-11");
    expect(between.activity.map((a) => a.trading_day)).toEqual(["2024-01-10"]);
    expect(between.notes.map((n) => n.text)).toEqual(["old lesson"]); // not yet superseded on the 11th

    const after = await handlersAt(j, "2024-01-15");
    expect(after.notes.map((n) => n.text)).toEqual(["newer lesson"]);
    expect(after.activity.map((a) => a.trading_day)).toEqual(["2024-01-10"]);
  });
});
