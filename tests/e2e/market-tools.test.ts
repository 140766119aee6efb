/**
 * The market tools of issue #29 through the real CLI: a daily run of the scripted `rebalance`
 * policy reads get_market_overview first (the embedded defaults exercise it), trades, audits and
 * replays; `tools call get_position` then shows the bought holding in depth, as the next run would.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, journalJson, ofType, runOutput, twIn } from "./helpers.js";

afterAll(cleanupHomes);

describe("the market tools in a scripted run", () => {
  it("the rebalance policy opens with the market overview, trades, and the run audits and replays; get_position shows what it bought", async () => {
    const home = freshHome('[model]\nscript = "rebalance"\n');
    const r = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(r, 0);
    const { events, envelope } = runOutput(String(r.stdout));
    expect(ofType(events, "run.started")[0]?.model).toEqual({ provider: "scripted", id: "scripted:rebalance" });
    const called = ofType(events, "tool.called").map((e) => e.tool);
    expect(called.slice(0, 3)).toEqual(["get_market_overview", "get_portfolio", "list_universe"]);
    const overview = ofType(events, "tool.result").find((e) => e.tool === "get_market_overview");
    expect(overview).toMatchObject({ success: true });
    const placed = ofType(events, "order.placed");
    expect(placed.length).toBeGreaterThan(0);

    const runId = String(envelope.run_id);
    const [verify, audit, replay] = await Promise.all([twIn(home, ["journal", "verify"]), twIn(home, ["audit", runId]), twIn(home, ["replay", runId])]);
    expectExit(verify, 0);
    expectExit(audit, 0);
    expectExit(replay, 0);

    const held = Object.keys((await journalJson(home)).state.holdings);
    expect(held.length).toBeGreaterThan(0);
    const symbol = held[0] as string;
    const pos = await twIn(home, ["tools", "call", "get_position", JSON.stringify({ symbol }), "--json"]);
    expectExit(pos, 0);
    const out = JSON.parse(String(pos.stdout)) as { success: boolean; result: Record<string, unknown> };
    expect(out.success).toBe(true);
    expect(out.result).toMatchObject({ symbol, held: true, evidence_id: expect.stringMatching(new RegExp(`^position:${symbol}:`)) });
    const position = out.result.position as { lots: unknown[]; days_held: number; kill_switch: { trip_value: number } };
    expect(position.lots).toHaveLength(1);
    expect(position.days_held).toBe(1);
    expect(position.kill_switch.trip_value).toBeGreaterThan(0);
  }, 90_000);
});
