/**
 * The watchlist (kept in the real journal, shown to later runs with what changed) and remember's
 * conflict candidates.
 */
import { describe, expect, it } from "vitest";
import type { Bar, Instrument } from "../../src/core/domain.js";
import { openJournal } from "../../src/journal/journal.js";
import { makeJournalToolHandlers } from "../../src/tools/handlers/journal.js";
import { addTradingDays, tradingDaysBetween } from "../../src/journal/watchlist.js";
import { makeWatchlistHandlers } from "../../src/tools/handlers/watchlist.js";
import { MarketData } from "../../src/market/data.js";
import { watchlistLines } from "../../src/run/watchlist-brief.js";
import type { HandlerResult, ToolCallContext, ToolHandler } from "../../src/tools/types.js";
import { freshJournal } from "./helpers.js";
import { checkedAll } from "../tools/checked.js";

// Weekdays of January 2024, closes rising 1 a day from 100 (ALFA) and falling from 50 (BETA).
const DAYS = Array.from({ length: 31 }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i)))
  .filter((d) => d.getUTCDay() !== 0 && d.getUTCDay() !== 6)
  .map((d) => d.toISOString().slice(0, 10));
const bars = (f: (i: number) => number): Bar[] => DAYS.map((date, i) => ({ date, open: f(i), high: f(i), low: f(i), close: f(i), volume: 1 }));
const market = MarketData.fromBars({ ALFA: bars((i) => 100 + i), BETA: bars((i) => 50 - i) });
const universe: Instrument[] = [
  { symbol: "ALFA", currency: "USD" },
  { symbol: "BETA", currency: "USD" },
];

function tools(journal: Awaited<ReturnType<typeof freshJournal>>, day: string, runId: string) {
  const h = checkedAll(
    makeWatchlistHandlers({
      journal,
      market,
      prices: market.asOf(day, { universe }),
      universe,
      runId,
      tradingDay: day,
      now: () => new Date(`${day}T15:00:00Z`),
    }),
  );
  const ctx = { runId, tradingDay: day, seenEvidence: new Set<string>(), pending: [] } as ToolCallContext;
  const call = async (t: ToolHandler, args: Record<string, unknown>) => (await t(args, ctx)) as HandlerResult;
  return { h, call };
}

describe("trading-day arithmetic", () => {
  it("counts on the calendar, and on weekdays past its end", () => {
    expect(addTradingDays(DAYS, "2024-01-05", 1)).toBe("2024-01-08");
    expect(addTradingDays(DAYS, "2024-01-06", 1)).toBe("2024-01-08"); // a Saturday: the next trading day is the first
    expect(addTradingDays(DAYS, "2024-01-31", 2)).toBe("2024-02-02");
    expect(tradingDaysBetween(DAYS, "2024-01-05", "2024-01-10")).toBe(3);
  });
});

describe("watchlist tools", () => {
  it("an entry is kept in the journal and shown later with what changed, alerts and days left; it expires", async () => {
    const j = await freshJournal();
    const day1 = tools(j, "2024-01-08", "r1");
    const added = await day1.call(day1.h.add_watchlist, { symbol: "alfa", reason: "breakout watch", ttl_trading_days: 5, alert_above: 104 });
    expect(added).toMatchObject({
      ok: true,
      data: { item: { id: "w-1", symbol: "ALFA", added_day: "2024-01-08", price_at_add: 104, expires_on: "2024-01-12" }, replaced: null },
    });

    // A later run, in a journal reopened from disk.
    const reopened = await openJournal(j.home, { timezone: "UTC", fsync: false });
    const day4 = tools(reopened, "2024-01-11", "r2");
    const got = await day4.call(day4.h.get_watchlist, {});
    expect(got).toMatchObject({
      ok: true,
      data: {
        total: 1,
        items: [
          {
            symbol: "ALFA",
            price_at_add: 104,
            reference_price: 107,
            change_since_added_pct: 2.88,
            trading_days_on_list: 3,
            trading_days_left: 1,
            alerts_triggered: [{ alert: "above", date: "2024-01-08", close: 105 }],
          },
        ],
      },
    });
    expect(watchlistLines(reopened, market, market.asOf("2024-01-11", { universe }), "2024-01-11")).toEqual([
      "- ALFA (w-1, added 2024-01-08 at 104, now 107, +2.88% since; 1 trading day(s) left; alert above hit 2024-01-08 at 105): breakout watch",
    ]);
    const after = tools(reopened, "2024-01-15", "r3");
    expect(await after.call(after.h.get_watchlist, {})).toMatchObject({ ok: true, data: { total: 0, items: [] } });
  });

  it("re-adding replaces; remove marks removed; unknown symbols and inverted alerts are refused", async () => {
    const j = await freshJournal();
    const t = tools(j, "2024-01-08", "r1");
    await t.call(t.h.add_watchlist, { symbol: "BETA", reason: "one" });
    expect(await t.call(t.h.add_watchlist, { symbol: "BETA", reason: "two" })).toMatchObject({ ok: true, data: { item: { id: "w-2" }, replaced: "w-1" } });
    expect(await t.call(t.h.add_watchlist, { symbol: "ZZZ", reason: "x" })).toMatchObject({ ok: false, code: "unknown_symbol" });
    expect(await t.call(t.h.add_watchlist, { symbol: "ALFA", reason: "x", alert_above: 90, alert_below: 95 })).toMatchObject({
      ok: false,
      code: "invalid_tool_arguments",
    });
    expect(await t.call(t.h.remove_watchlist, { symbol: "ALFA" })).toMatchObject({ ok: false, code: "not_on_watchlist" });
    expect(await t.call(t.h.remove_watchlist, { symbol: "BETA", reason: "done" })).toMatchObject({
      ok: true,
      data: { item: { id: "w-2", status: "removed" } },
    });
    expect(await t.call(t.h.get_watchlist, {})).toMatchObject({ ok: true, data: { total: 0 } });
    expect([...j.watchState().items.values()].map((i) => [i.id, i.status, i.removed_reason])).toEqual([
      ["w-1", "removed", "replaced by w-2"],
      ["w-2", "removed", "done"],
    ]);
  });
});

describe("remember's conflict candidates", () => {
  it("refuses a note that may contradict live notes, offering complete retry arguments for each choice", async () => {
    const j = await freshJournal();
    const ctx = { runId: "r1", tradingDay: "2024-01-08", seenEvidence: new Set<string>(), pending: [] } as ToolCallContext;
    const h = checkedAll(
      makeJournalToolHandlers({
        journal: j,
        prices: { referencePrice: () => undefined },
        limits: { max_orders_per_month: 10, max_drawdown_pct: 15 },
        now: () => new Date(),
        runId: "r1",
        tradingDay: "2024-01-08",
      }),
    );
    expect(await h.remember({ kind: "plan", text: "Buy ALFA under 100.", symbol: "ALFA" }, ctx)).toMatchObject({ ok: true, data: { note: { id: "n-1" } } });
    // A different kind, or another symbol, is no conflict.
    expect(await h.remember({ kind: "observation", text: "ALFA is rising.", symbol: "ALFA" }, ctx)).toMatchObject({ ok: true });
    const args = { kind: "plan", text: "Sell ALFA above 110.", symbol: "ALFA" };
    const r = (await h.remember(args, ctx)) as HandlerResult;
    expect(r).toMatchObject({ ok: false, code: "memory_conflict" });
    if (r.ok) return;
    expect(r.details).toEqual({
      conflict_candidates: [
        {
          id: "n-1",
          kind: "plan",
          symbol: "ALFA",
          text: "Buy ALFA under 100.",
          created_at: expect.any(String),
          // where the note came from: shown with every note the model reads back
          written_by: { who: "you (the model), earlier in this run", run_id: "r1", trading_day: null, evidence_ids: [] },
        },
      ],
      retry_argument_choices: [
        { ...args, supersedes: "n-1" },
        { ...args, keep_existing: true },
      ],
    });
    expect(j.recall({ kind: "plan" }).total).toBe(1);
    const choices = (r.details as { retry_argument_choices: Record<string, unknown>[] }).retry_argument_choices;
    expect(await h.remember(choices[0] as Record<string, unknown>, ctx)).toMatchObject({ ok: true, data: { note: { id: "n-3", supersedes: "n-1" } } });
    expect(j.recall({ kind: "plan" }).notes.map((n) => n.id)).toEqual(["n-3"]);
  });
});
