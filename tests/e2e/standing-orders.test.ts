/**
 * Standing orders over the bundled data, through the real CLI and journal: proposed (by the real
 * tool handler, as the model would), approved by the operator (`tradewarden standing approve`,
 * recorded with who and the binding hash), then daily runs: the order fires on the right day and
 * is placed through the final gate; one the gate blocks is not placed; an expired one never fires.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Instrument } from "../../src/core/domain.js";
import { openJournal } from "../../src/journal/journal.js";
import { makeStandingOrderHandlers } from "../../src/tools/handlers/standing-orders.js";
import { MarketData } from "../../src/market/data.js";
import { loadUniverseCsv } from "../../src/market/universe.js";
import type { HandlerResult, ToolCallContext } from "../../src/tools/types.js";
import { cleanupHomes, expectExit, freshHome, journalJson, ofType, recordedEvents, runIds, twIn } from "./helpers.js";
import { checkedAll } from "../tools/checked.js";

afterAll(cleanupHomes);

const market = MarketData.load();
const universe: Instrument[] = loadUniverseCsv();
const days = market.calendar.days;

/** A symbol whose close dips ≥1% under the reference within 30 days after `d1`: the trigger and the day it fires. */
function dipAfter(d1: string): { symbol: string; trigger: number; fireDay: string } {
  const i1 = days.indexOf(d1);
  for (const inst of universe) {
    const ref = market.asOf(d1, { universe }).referencePrice(inst.symbol)?.price;
    if (!ref) continue;
    for (let k = i1; k < i1 + 30 && k + 1 < days.length; k++) {
      const close = market.barOn(inst.symbol, days[k] as string)?.close;
      if (close !== undefined && close < ref * 0.99) return { symbol: inst.symbol, trigger: close, fireDay: days[k + 1] as string };
    }
  }
  throw new Error(`no dip after ${d1}`);
}

describe("standing orders", () => {
  it("fire on the right day through the final gate; blocked ones are not placed; expired ones never fire; approvals are recorded", async () => {
    const home = freshHome('[model]\nscript = "hold"\n');
    expectExit(await twIn(home, ["run", "--yes"]), 0);
    const [run1] = runIds(home);
    const d1 = String(ofType(recordedEvents(home, String(run1)), "run.started")[0]?.trading_day);
    const { symbol, trigger, fireDay } = dipAfter(d1);

    // The model's proposals, through the real handler, on the first run's day.
    {
      const journal = await openJournal(home, { timezone: "UTC" });
      const h = checkedAll(
        makeStandingOrderHandlers({
          journal,
          market,
          prices: market.asOf(d1, { universe }),
          universe,
          runId: String(run1),
          tradingDay: d1,
          now: () => new Date(),
        }),
      );
      const ctx = { runId: String(run1), tradingDay: d1, seenEvidence: new Set(["price:x"]), pending: [] } as ToolCallContext;
      const place = async (args: Record<string, unknown>) =>
        (await h.place_standing_order({ evidence_ids: ["price:x"], reason: "test", ...args }, ctx)) as HandlerResult;
      expect(await place({ symbol, type: "buy_limit_below", trigger_price: trigger, quantity: 1, limit_price: trigger })).toMatchObject({
        ok: true,
        data: { standing_order: { id: "so-1", status: "proposed" } },
      });
      // Sells what is not held: the final gate blocks it on the same day.
      expect(await place({ symbol, type: "stop_loss", trigger_price: trigger, quantity: 5, limit_price: trigger })).toMatchObject({
        ok: true,
        data: { standing_order: { id: "so-2" } },
      });
      // Would fire on the same day, but is armed for one trading day only (the proposing run's).
      expect(await place({ symbol, type: "buy_limit_below", trigger_price: trigger, quantity: 1, limit_price: trigger, ttl_trading_days: 1 })).toMatchObject({
        ok: true,
        data: { standing_order: { id: "so-3", expires_on: d1 } },
      });
      // A trigger that is already crossed is refused.
      expect(await place({ symbol, type: "buy_limit_below", trigger_price: trigger * 10, quantity: 1, limit_price: trigger })).toMatchObject({
        ok: false,
        code: "invalid_tool_arguments",
      });
    }
    expectExit(await twIn(home, ["standing", "approve", "so-1"]), 2); // needs --yes
    for (const id of ["so-1", "so-2", "so-3"]) expectExit(await twIn(home, ["standing", "approve", id, "--yes", "--who", "alice"]), 0);
    {
      const journal = await openJournal(home, { timezone: "UTC", readOnly: true });
      const so1 = journal.standingState().orders.get("so-1");
      expect(so1).toMatchObject({ status: "active", approval: { by: "alice", binding_hash: so1?.binding_hash } });
    }

    // Daily runs up to the firing day.
    const prev = days[days.indexOf(fireDay) - 1] as string;
    const next = days[days.indexOf(d1) + 1] as string;
    // (daily runs of the home's own account: `simulate` would trade in a folder of its own)
    for (let d = next; d <= prev; d = days[days.indexOf(d) + 1] as string) expectExit(await twIn(home, ["run", "--yes"]), 0);
    const before = runIds(home).slice(1);
    const earlier = before.flatMap((id) => ofType(recordedEvents(home, id), "standing.fired"));
    expect(earlier.map((e) => [e.id, e.result])).toEqual([["so-3", "expired"]]); // nothing else fired before the day
    expect((await journalJson(home)).orders).toHaveLength(0);

    expectExit(await twIn(home, ["run", "--yes"]), 0);
    const runs = runIds(home);
    const fireRun = String(runs[runs.length - 1]);
    const events = recordedEvents(home, fireRun);
    expect(ofType(events, "run.started")[0]?.trading_day).toBe(fireDay);
    const fired = ofType(events, "standing.fired");
    expect(fired.map((e) => [e.id, e.result, e.reference_price])).toEqual([
      ["so-1", "placed", trigger],
      ["so-2", "blocked", trigger],
    ]);
    const placed = ofType(events, "order.placed");
    expect(placed.map((e) => [e.side, e.symbol, e.quantity, e.client_order_id])).toEqual([["BUY", symbol, 1, `tw-${fireRun}-S0`]]);

    const journal = await openJournal(home, { timezone: "UTC", readOnly: true });
    const st = journal.standingState().orders;
    expect(st.get("so-1")).toMatchObject({ status: "placed", fired: { trading_day: fireDay, client_order_id: `tw-${fireRun}-S0` } });
    expect(st.get("so-2")).toMatchObject({ status: "blocked", fired: { trading_day: fireDay } });
    expect(st.get("so-2")?.fired?.reasons?.length).toBeGreaterThan(0);
    expect(st.get("so-3")).toMatchObject({ status: "expired" });
    expect(journal.order(`tw-${fireRun}-S0`)).toMatchObject({ symbol, side: "BUY", quantity: 1 });
    expect(journal.ordersThisMonth(new Date(`${fireDay}T20:00:00Z`))).toBe(1); // counts toward the quota
    expectExit(await twIn(home, ["audit", fireRun]), 0);
  }, 240_000);
});
