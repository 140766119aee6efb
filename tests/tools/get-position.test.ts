/**
 * get_position: one holding in depth agrees with a hand computation on a small journal (lots first
 * in first out, the books' average cost with commissions, P&L, weight, kill-switch and position-limit
 * headroom, days held, notes naming it); an allowlisted instrument not held is a fact, not an error.
 */
import { describe, expect, it } from "vitest";
import type { Instrument, PriceSource } from "../../src/core/domain.js";
import type { Journal } from "../../src/journal/journal.js";
import { maskerFor } from "../../src/run/masking.js";
import type { getPosition } from "../../src/tools/defs/get-position.js";
import type { ResultOf } from "../../src/tools/define.js";
import { makePositionHandler } from "../../src/tools/handlers/position.js";
import type { HandlerResult, ToolCallContext } from "../../src/tools/types.js";
import { buy, freshJournal, startRun } from "../journal/helpers.js";
import { checked } from "./checked.js";

const DAYS = ["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-01-08"];
const TODAY = "2024-01-08";
const ctx: ToolCallContext = { runId: "r4", tradingDay: TODAY, seenEvidence: new Set(), pending: [] };
const prices: PriceSource = {
  referencePrice: (s) => (s === "AAA" ? { symbol: "AAA", price: 120, as_of: "2024-01-05", currency: "USD", fx_to_base: 1 } : undefined),
};
const universe: Instrument[] = [
  { symbol: "AAA", currency: "USD", name: "Triple A Co", sector: "Tech" },
  { symbol: "BBB", currency: "USD", name: "Double B Co", sector: "Tech" },
];

async function books(): Promise<Journal> {
  const j = await freshJournal({ capital: 10_000 });
  await startRun(j, "r1", "2024-01-02T14:00:00Z");
  await j.observeFirstValuation("r1", 12_000, new Date("2024-01-02T14:00:00Z")); // the peak
  await buy(j, "r1", "c1", "AAA", 10, 100, 2, "2024-01-02T14:30:00Z"); // 1002
  await startRun(j, "r2", "2024-01-03T14:00:00Z");
  await buy(j, "r2", "c2", "AAA", 10, 110, 1, "2024-01-03T14:30:00Z"); // 1101
  await startRun(j, "r3", "2024-01-04T14:00:00Z");
  await buy(j, "r3", "c3", "AAA", 5, 115, 1, "2024-01-04T14:30:00Z", "SELL"); // +574
  await j.remember({ kind: "plan", text: "Trim AAA above 130.", symbol: "AAA", run_id: "r3", at: "2024-01-04T15:00:00Z" });
  await startRun(j, "r4", "2024-01-08T14:00:00Z");
  return j;
}

function handler(j: Journal) {
  return checked(
    "get_position",
    makePositionHandler({
      journal: j,
      prices,
      universe,
      runId: "r4",
      tradingDay: TODAY,
      now: () => new Date("2024-01-08T14:00:00Z"),
      limits: () => ({ max_orders_per_month: 10, max_drawdown_pct: 25, max_position_pct: 25 }),
      tradingDaysSince: (from) => DAYS.indexOf(TODAY) - DAYS.indexOf(from),
    }),
  );
}

const answer = (r: HandlerResult) => {
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.data as ResultOf<typeof getPosition>;
};

describe("get_position", () => {
  it("a holding in depth agrees with the hand computation", async () => {
    const r = (await handler(await books())({ symbol: "aaa" }, ctx)) as HandlerResult;
    const d = answer(r);
    expect(r.ok && r.evidenceIds).toEqual(["position:AAA:2024-01-08"]);
    expect(d).toMatchObject({ symbol: "AAA", name: "Triple A Co", held: true, base_currency: "USD", as_of: TODAY });
    // Books: 20 bought for 1002 + 1101 = 2103 with commissions, 5 sold: basis 2103 × 15/20 = 1577.25, average 105.15.
    // Cash 10,000 − 2103 + 574 = 8471; value 8471 + 15 × 120 = 10,271; peak 12,000, kill switch at 25%: trips at 9000.
    expect(d.position).toEqual({
      quantity: 15,
      currency: "USD",
      avg_cost: 105.15,
      cost_basis: 1577.25,
      reference_price: 120,
      price_as_of: "2024-01-05",
      market_value: 1800,
      unrealized_pnl: 222.75,
      unrealized_pnl_pct: 14.12,
      instrument_currency: { currency: "USD", avg_cost: 105.15, market_value: 1800, unrealized_pnl: 222.75 },
      weight_pct: 17.53,
      first_bought_on: "2024-01-02",
      days_held: 4,
      // First in, first out: the sale took 5 of the first lot (half its 2.00 commission goes with it).
      lots: [
        { bought_on: "2024-01-02", source: "fill", quantity: 5, price: 100, commission: 1, cost_basis: 501, fx_to_base: 1 },
        { bought_on: "2024-01-03", source: "fill", quantity: 10, price: 110, commission: 1, cost_basis: 1101, fx_to_base: 1 },
      ],
      kill_switch: {
        value: 10_271,
        peak: 12_000,
        drawdown_pct: 14.4083,
        max_drawdown_pct: 25,
        trip_value: 9000,
        headroom_value: 1271,
        fall_to_trip_pct: 70.61, // 1271 / 1800
      },
      // 25% of 10,271 = 2567.75: room 767.75, 6 whole shares at 120
      position_limit: { max_position_pct: 25, room_pct: 7.47, room_value: 767.75, room_quantity: 6 },
    });
    expect(d.notes).toEqual([expect.objectContaining({ kind: "plan", text: "Trim AAA above 130.", written_on: "2024-01-04" })]);
    expect(d.standing_orders).toEqual([]);
    expect(d.watchlist).toEqual([]);
  });

  it("an allowlisted instrument not held answers held=false; a symbol neither held nor allowlisted is unknown_symbol", async () => {
    const h = handler(await books());
    const d = answer((await h({ symbol: "BBB" }, ctx)) as HandlerResult);
    expect(d).toMatchObject({ symbol: "BBB", held: false, position: null, notes: [] });
    const r = (await h({ symbol: "ZZZ" }, ctx)) as HandlerResult;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.code).toBe("unknown_symbol");
  });
});

describe("get_position in a masked run", () => {
  it("names nothing real, rescales every amount, and unmasks back exactly", async () => {
    const masker = maskerFor(universe);
    const d = answer((await handler(await books())({ symbol: "AAA" }, ctx)) as HandlerResult);
    const shown = masker.mask(d);
    expect(masker.leaks(JSON.stringify(shown))).toEqual([]);
    expect(masker.unmask(shown)).toEqual(d);
    const k = masker.priceScale;
    expect(shown.position?.kill_switch).toMatchObject({
      value: 10_271 * k,
      peak: 12_000 * k,
      trip_value: 9000 * k,
      headroom_value: 1271 * k,
      fall_to_trip_pct: 70.61,
    });
    expect(shown.position?.position_limit).toMatchObject({ room_value: 767.75 * k, room_quantity: 6, room_pct: 7.47 });
    expect(shown.position?.instrument_currency).toMatchObject({ avg_cost: 105.15 * k, unrealized_pnl: 222.75 * k });
    expect(shown.position?.lots[0]).toMatchObject({ price: 100 * k, commission: 1 * k, cost_basis: 501 * k, quantity: 5 });
  });
});
