/**
 * The journal's runs list at 60 columns (issue #25, "Cut at 80 columns"): the mode stays and the run
 * id shortens to the shortest prefix that tells the runs apart (never cut with an ellipsis), instead
 * of the mode going and a 23-character run id staying.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Mounted, mountJournal } from "../../src/screens/run-app.js";
import { io } from "./fake-terminal.js";
import { runs, source } from "./fixtures.js";
import { waitFor } from "./helpers.js";

const mounted: Mounted[] = [];
afterEach(() => {
  for (const m of mounted.splice(0)) m.unmount();
});

const ids = ["20261202T124047Z-845ee8", "20261202T124120Z-3ccd87", "20261203T090000Z-aaaaaa"];

describe("the runs list at 60 columns", () => {
  it("keeps the mode and shows each run id as its shortest unique prefix", async () => {
    const t = io(60, 20);
    const long = runs.map((r, i) => ({ ...r, run_id: ids[i] as string }));
    const app = mountJournal({ source: { ...source(), listRuns: async () => long }, onExit: () => {} }, t.opts);
    mounted.push(app);
    await waitFor(() => t.stdout.lastFrameWith("2026-03-04") !== "", 3000, "the runs list");
    const lines = t.stdout.lastFrameWith("2026-03-04").split("\n");
    const header = lines.find((l) => l.includes("outcome")) ?? "";
    expect(header).toContain("mode");
    const rows = lines.filter((l) => /2026-03-0\d/.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/2026-03-02\s+paper\s+executed.*\b20261202T1240\b/);
    expect(rows[1]).toMatch(/2026-03-03\s+paper\s+hold.*\b20261202T1241\b/);
    expect(rows[2]).toMatch(/observe/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(60);
    expect(lines.join("\n")).not.toContain("…");
  });
});
