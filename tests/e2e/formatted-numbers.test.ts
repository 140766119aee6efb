/**
 * Every printer over a fixture account (two daily runs, then an operator's trip), through the real
 * CLI: the run's headless lines, `killswitch`, `doctor`, `journal` (list and a run), `reconcile`,
 * `watchlist`, `standing` and `sim status`. None may show a number or time that skipped the one
 * formatter (tests/util/unformatted.ts: too many decimals, 4+ digits without separators, an amount
 * without its currency, an ISO timestamp, a clock glued to a day). Plus the scripted policy that
 * proposes standing orders on the embedded defaults.
 */
import { afterAll, describe, expect, it } from "vitest";
import { findingsText } from "../util/unformatted.js";
import { cleanupHomes, expectExit, freshHome, text, twIn } from "./helpers.js";

afterAll(() => cleanupHomes());

describe("the printers say every number through the one formatter", () => {
  it("run, killswitch, doctor, journal, reconcile, watchlist, standing, sim status", async () => {
    const home = freshHome();
    const out: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await twIn(home, ["run", "--yes"]);
      expectExit(r, 0);
      out.push(text(r));
    }
    out.push(text(await twIn(home, ["killswitch", "trip", "--reason", "halt for the test"])));
    for (const args of [["killswitch"], ["doctor"], ["journal"], ["journal", "--run", "latest"], ["reconcile"], ["watchlist"], ["standing"], ["sim", "status"]])
      out.push(text(await twIn(home, args)));
    const all = out.join("\n");
    expect(all).toMatch(/tripped on trading day \d{4}-\d\d-\d\d \(at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/);
    expect(findingsText("printers", all)).toBe("");
  }, 240_000);

  it('model.script = "standing-orders" proposes a standing order on the embedded defaults, said with the formatter', async () => {
    const home = freshHome('[model]\nscript = "standing-orders"\n');
    const r = await twIn(home, ["run"]);
    expect(text(r)).toMatch(/place_standing_order ok: standing order so-1 proposed: buy_limit_below [A-Z]+ at [\d,]+\.\d\d → BUY [\d,]+ @ [\d,]+\.\d\d/);
    const list = await twIn(home, ["standing"]);
    expect(text(list)).toMatch(/proposed\s+so-1: buy_limit_below/);
    expect(findingsText("standing", `${text(r)}\n${text(list)}`)).toBe("");
  }, 120_000);
});
