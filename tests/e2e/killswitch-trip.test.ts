/**
 * `tradewarden killswitch trip --reason "…"` through the real CLI: the operator halts trading outside
 * an approval, recorded as the approval screen's trip; refused without a reason; an already HALTED
 * account is said so and left as it is; the next run sells what is held and stops (exit 5).
 */
import { afterAll, expect, test } from "vitest";
import { cleanupHomes, expectExit, freshHome, journalJson, ofType, runOutput, twIn } from "./helpers.js";

afterAll(cleanupHomes);

test("trip halts an ACTIVE account, once; the next run liquidates and stops", async () => {
  const home = freshHome();
  expectExit(await twIn(home, ["run", "--yes"]), 0);
  const before = await journalJson(home);
  expect(before.state.trading_state).toBe("ACTIVE");
  const held = Object.keys(before.state.holdings).length;

  const show = await twIn(home, ["killswitch"]);
  expectExit(show, 0);
  expect(String(show.stdout)).toContain('to halt trading now: tradewarden killswitch trip --reason "…"');

  const noReason = await twIn(home, ["killswitch", "trip"]);
  expectExit(noReason, 2);
  expect(String(noReason.stderr)).toContain('a reason is required: --reason "…"');
  expect((await journalJson(home)).state.trading_state).toBe("ACTIVE");

  const trip = await twIn(home, ["killswitch", "trip", "--reason", "bad news on ALFA"]);
  expectExit(trip, 0);
  expect(String(trip.stdout)).toMatch(/kill switch tripped by the operator .*: trading is HALTED\nreason: bad news on ALFA\n/);
  const halted = await journalJson(home);
  expect(halted.state.trading_state).toBe("HALTED");
  expect(halted.state.trips).toEqual([
    expect.objectContaining({ reason: "operator tripped the kill switch: bad news on ALFA", run_id: before.runs.at(-1)?.run_id }),
  ]);
  expectExit(await twIn(home, ["journal", "verify"]), 0);

  const again = await twIn(home, ["killswitch", "trip", "--reason", "twice"]);
  expectExit(again, 0);
  expect(String(again.stdout)).toContain("trading is already HALTED");
  expect(String(again.stdout)).toContain("nothing changed");
  expect((await journalJson(home)).state.trips).toHaveLength(1);

  const next = await twIn(home, ["run", "--yes", "--json"]);
  expectExit(next, 5);
  const placed = ofType(runOutput(String(next.stdout)).events, "order.placed");
  expect(placed.every((o) => o.side === "SELL")).toBe(true);
  if (held > 0) expect(placed.length).toBeGreaterThan(0);
  const ks = await twIn(home, ["killswitch", "--json"]);
  expect(JSON.parse(String(ks.stdout)).liquidation.orders.length).toBe(placed.length);
}, 120_000);

test("a trip before any run is refused, naming why, and changes nothing", async () => {
  const home = freshHome();
  expectExit(await twIn(home, ["init", "--capital", "1000"]), 0);
  const before = await journalJson(home);
  const trip = await twIn(home, ["killswitch", "trip", "--reason", "too early"]);
  expectExit(trip, 2);
  expect(String(trip.stderr)).toContain("no run in the journal yet: there is nothing to halt (run `tradewarden run` first)");
  expect(await journalJson(home)).toEqual(before);
}, 60_000);
