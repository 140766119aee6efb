/**
 * `tradewarden approve` through the CLI's `main` (in-process): a proposal recorded as awaiting approval and
 * decided later names its deciding run in `journal --json` and in the runs table; `approve` without
 * a terminal and without --yes refuses (exit 2), pointing to --yes, and starts nothing. (An approve
 * killed before it placed anything decides nothing: tests/e2e/interruptions.test.ts, a real process.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupHomes, copyOfHome, expectExit, freshHome, homeSnapshot, journalJson, jsonLines, text, twIn } from "./helpers.js";

/** A home whose first run had no terminal and no --yes: its proposal awaits approval. Made once; each test decides a copy. */
let awaiting = "";
beforeAll(async () => {
  awaiting = freshHome();
  expectExit(await twIn(awaiting, ["run"]), 6); // no terminal, no --yes: awaiting approval
}, 60_000);
afterAll(cleanupHomes);

describe.concurrent("approve: the decided proposal and the refusal without a terminal", () => {
  it("a run that `approve` executed shows it decided and names the deciding run", async () => {
    const home = copyOfHome(awaiting);
    expectExit(await twIn(home, ["approve", "--yes"]), 0);
    const dump = (await journalJson(home)) as unknown as { runs: { run_id: string; outcome: string; decided_by: unknown }[] };
    const [pending, deciding] = dump.runs;
    expect(pending?.outcome).toBe("awaiting_approval");
    expect(pending?.decided_by).toEqual({ run_id: deciding?.run_id, decision: "approved" });
    expect(deciding?.decided_by).toBeNull();
    const table = await twIn(home, ["journal"]);
    expectExit(table, 0);
    const line = String(table.stdout)
      .split("\n")
      .find((l) => l.startsWith(pending?.run_id ?? "?"));
    expect(line).toContain(`awaiting_approval → approved by run ${deciding?.run_id}`);
  }, 90_000);

  it("a proposal still awaiting approval is not shown decided", async () => {
    const home = copyOfHome(awaiting);
    const dump = (await journalJson(home)) as unknown as { runs: { decided_by: unknown }[] };
    expect(dump.runs.map((r) => r.decided_by)).toEqual([null]);
  }, 60_000);

  it("`approve` with no terminal and no --yes refuses (exit 2), points to --yes, starts no run and writes nothing", async () => {
    const home = copyOfHome(awaiting);
    const before = homeSnapshot(home);
    const r = await twIn(home, ["approve"]);
    expectExit(r, 2);
    expect(text(r)).toMatch(/--yes/);
    expect(text(r)).toMatch(/nothing was started/);
    expect(homeSnapshot(home)).toEqual(before);
    const json = await twIn(home, ["approve", "--json"]);
    expectExit(json, 2);
    expect(jsonLines(String(json.stdout))).toEqual([expect.objectContaining({ type: "run.refused", code: "approval_needs_terminal", exit_code: 2 })]);
    expect(homeSnapshot(home)).toEqual(before);
    // --yes still decides it: one awaiting run, one deciding run, no second awaiting row
    expectExit(await twIn(home, ["approve", "--yes"]), 0);
    const dump = await journalJson(home);
    expect(dump.runs.map((x) => x.outcome)).toEqual(["awaiting_approval", "executed"]);
  }, 90_000);
});
