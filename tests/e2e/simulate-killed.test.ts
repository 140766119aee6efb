/**
 * A simulation whose process is SIGKILLed (mid-day, the record still says "running") is shown as
 * interrupted by `simulate list` and `simulate report`, not as running forever: its lock's holder
 * is gone. A simulation that is still running shows as running (the runner's own record).
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, tw, twIn } from "./helpers.js";

afterAll(cleanupHomes);

describe("a SIGKILLed simulation", () => {
  it("`simulate list` and `simulate report` show it as interrupted", async () => {
    const home = freshHome();
    const cut = await tw(home, ["simulate", "--from", "2007-02-01", "--to", "2007-02-07", "--name", "killed"], { faults: "run.before_close=kill" });
    expect(cut.signal).toBe("SIGKILL");
    const list = await twIn(home, ["simulate", "list", "--json"]);
    expectExit(list, 0);
    expect(JSON.parse(String(list.stdout))).toEqual([expect.objectContaining({ name: "killed", status: "interrupted" })]);
    const table = await twIn(home, ["simulate", "list"]);
    expect(String(table.stdout)).toMatch(/killed\s+interrupted/);
    const report = await twIn(home, ["simulate", "report", "killed", "--json"]);
    expectExit(report, 0);
    expect(JSON.parse(String(report.stdout))).toMatchObject({ name: "killed", status: "interrupted" });
  }, 90_000);
});
