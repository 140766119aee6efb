/**
 * report.html of a simulation whose kill switch trips and is reset again and again (issue #25,
 * "Report"), opened in headless Chromium: each trip said once, the liquidation orders counted apart
 * from the monthly quota (the same count as the journal's liquidation orders), the charts drawn.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOffline } from "./browser.js";
import { cleanupHomes, expectExit, freshHome, jsonLines, twIn } from "./helpers.js";

describe("a simulation with repeated trips and resets", () => {
  let sim = "";

  beforeAll(async () => {
    const home = freshHome();
    // Two trips in two months (2007-10-22, 2007-11-12), each reset after 5 days: the repeated trips and resets of four months, in half the days.
    const args = ["simulate", "--from", "2007-10-01", "--to", "2007-11-30", "--name", "trips"];
    expectExit(await twIn(home, [...args, "--set", "limits.max_drawdown_pct=3", "--reset-after", "5"]), 0);
    sim = join(home, "simulations", "trips");
  }, 150_000);
  afterAll(() => cleanupHomes());

  it("counts the kill switch's liquidation orders as the journal records them, apart from the quota", () => {
    const r = JSON.parse(readFileSync(join(sim, "report.json"), "utf8")) as {
      trips: unknown[];
      liquidation_orders: number;
      liquidation_by_month: Record<string, number>;
      orders_by_month: Record<string, number>;
      order_quota: number;
    };
    expect(r.trips.length).toBeGreaterThanOrEqual(2);
    const journal = jsonLines(readFileSync(join(sim, "journal.log.jsonl"), "utf8"));
    const liquidations = journal.filter((e) => e.t === "order_intent" && JSON.stringify(e.order).includes('"liquidation":true'));
    expect(liquidations.length).toBeGreaterThan(0);
    expect(r.liquidation_orders).toBe(liquidations.length);
    expect(Object.values(r.liquidation_by_month).reduce((a, b) => a + b, 0)).toBe(liquidations.length);
    expect(r.order_quota).toBe(10);
    for (const [m, n] of Object.entries(r.orders_by_month)) expect(n - (r.liquidation_by_month[m] ?? 0), m).toBeLessThanOrEqual(10);
  });

  it("report.html in headless Chromium: each trip said once, liquidations marked apart from the quota, the charts drawn", async () => {
    const page = await openOffline(join(sim, "report.html"), join(tmpdir(), "tradewarden-report-trips.png"));
    expect(page.consoleErrors).toEqual([]);
    expect(page.canvasInk).toHaveLength(4);
    for (const ink of page.canvasInk) expect(ink).toBeGreaterThan(500);
    expect(page.text).not.toMatch(/drawdown \d+\.\d\d% — drawdown/);
    expect(page.text).toMatch(/\d+ order\(s\) \(\d+ kill-switch liquidation, outside the quota; \d+ against the quota of 10\)/);
  }, 60_000);
});
