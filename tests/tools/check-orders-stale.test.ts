/**
 * check_orders names each order's stale cited evidence (research.stale_evidence_days) with its age
 * in trading days, as the run wires it: the run's handlers record every evidence item a tool
 * returned (src/run/evidence.ts), and check_orders dates what an order cites by them. The verdicts
 * are unchanged: stale evidence is a note, not a block. Results are checked against the output schema.
 */
import { describe, expect, it } from "vitest";
import { staleEvidence } from "../../src/core/evidence-age.js";
import { TradingCalendar } from "../../src/market/calendar.js";
import { recordingEvidence } from "../../src/run/evidence.js";
import { makeCheckOrdersHandler } from "../../src/tools/handlers/check-orders.js";
import type { HandlerResult, ToolCallContext, ToolHandler } from "../../src/tools/types.js";
import { LIMITS, MARKET, state, UNIVERSE } from "../gate/helpers.js";
import { checked } from "./checked.js";

const DAY = "2007-01-18";
const ctx: ToolCallContext = { runId: "r1", tradingDay: DAY, seenEvidence: new Set(), pending: [] };
// January 2007's sessions up to the run's day, Monday the 15th closed.
const calendar = new TradingCalendar(["2007-01-08", "2007-01-09", "2007-01-10", "2007-01-11", "2007-01-12", "2007-01-16", "2007-01-17", "2007-01-18"]);

/** A run's handlers as src/run/tool-handlers.ts wires them: a news search and check_orders. */
function runHandlers(staleAfter: number): Record<string, ToolHandler> {
  const items = new Map<string, unknown>();
  const news: ToolHandler = () => ({
    ok: true,
    data: {
      as_of: DAY,
      results: [
        { evidence_id: "news:old", title: "AAA beats", published: "2006-10-02" },
        { evidence_id: "news:fresh", title: "AAA guides up", published: "2007-01-12" },
      ],
    },
    evidenceIds: ["news:old", "news:fresh"],
  });
  const check = checked(
    "check_orders",
    makeCheckOrdersHandler(
      () => ({ state: state(), market: MARKET, limits: LIMITS, universe: UNIVERSE }),
      (ids) => staleEvidence(ids, Object.fromEntries(items), calendar, DAY, staleAfter),
    ),
  );
  return recordingEvidence({ search_news: news, check_orders: check }, items);
}

/** Whether any decision of a check_orders answer carries a stale-evidence note. */
function anyStale(r: HandlerResult | undefined): boolean {
  if (!r?.ok) throw new Error(`check_orders failed: ${JSON.stringify(r)}`);
  return (r.data.decisions as Array<Record<string, unknown>>).some((d) => "stale_evidence" in d);
}

const orders = [
  { symbol: "AAA", side: "BUY", quantity: 10, limit_price: 10, reason: "r", evidence_ids: ["news:old", "news:fresh"] },
  { symbol: "BBB", side: "BUY", quantity: 5, limit_price: 20, reason: "r", evidence_ids: ["news:fresh"] },
];

describe("check_orders: stale evidence", () => {
  it("lists the stale items an order cites, with their day and age; the verdicts stay approved", async () => {
    const h = runHandlers(30);
    await h.search_news?.({ query: "AAA" }, ctx);
    const r = await h.check_orders?.({ orders }, ctx);
    if (!r?.ok) throw new Error(`check_orders failed: ${JSON.stringify(r)}`);
    expect(r.data.all_approved).toBe(true);
    const [aaa, bbb] = r.data.decisions as Array<Record<string, unknown>>;
    // Weekdays from 2006-10-03 to 2007-01-05 (69), then the 8 sessions of January to the 18th.
    expect(aaa?.stale_evidence).toEqual([{ evidence_id: "news:old", day: "2006-10-02", age_trading_days: 69 + 8 }]);
    expect(aaa?.approved).toBe(true);
    // An order citing only fresh evidence carries no note (the field is absent).
    expect(bbb).not.toHaveProperty("stale_evidence");
  });

  it("names nothing when the configured age covers every item, or when the items were never returned", async () => {
    const lenient = runHandlers(100);
    await lenient.search_news?.({ query: "AAA" }, ctx);
    expect(anyStale(await lenient.check_orders?.({ orders }, ctx))).toBe(false);
    expect(anyStale(await runHandlers(30).check_orders?.({ orders }, ctx))).toBe(false);
  });
});
