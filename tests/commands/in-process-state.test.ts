/**
 * Commands run back to back in one process (src/cli.tsx `main`, as the tests run them) keep no state
 * from one to the next: a command starts as it would in a fresh process. A signal that stopped one
 * run does not stop the next; what a command has to say reaches its own output, never the process's.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, journalJson, twIn } from "../e2e/helpers.js";

afterAll(cleanupHomes);

describe("commands run one after another in one process", () => {
  it("a run stopped by SIGINT after its first intent (exit 130), then a plain run: it runs to its end (exit 0), not stopped by the earlier signal", async () => {
    const home = freshHome();
    const stopped = await twIn(home, ["run", "--yes"], { faults: "executor.after_intent=int" });
    expectExit(stopped, 130);
    expect(stopped.stderr).toMatch(/SIGINT: stopping the run/);
    const next = await twIn(home, ["run", "--yes"]);
    expectExit(next, 0);
    expect(next.stderr).not.toMatch(/SIGINT/);
    expect((await journalJson(home)).runs.map((r) => r.exit_code)).toEqual([130, 0]);
  }, 60_000);

  it("what a journal open repaired (its head rebuilt from the log) is said on the command's stderr, never on the process's", async () => {
    const home = freshHome();
    expectExit(await twIn(home, ["init", "--capital", "1000"]), 0);
    rmSync(join(home, "journal.json"));
    // The reads rebuild it in memory (each says so); the run rebuilds it on disk.
    for (const args of [["journal", "verify"], ["journal", "--json"], ["doctor"], ["run", "--yes"]]) {
      const r = await twIn(home, args);
      expect(r.stray, args.join(" ")).toBe("");
      expect(r.stderr, args.join(" ")).toMatch(/journal\.json was missing .*rebuilt .*from .*journal\.log\.jsonl/);
    }
  }, 60_000);
});
