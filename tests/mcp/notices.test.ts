/**
 * What a journal open repaired is said on the `mcp` command's stderr — by its sessions' runs and its
 * resources too, not only its own start — never on the process's (in-process: `stray` stays empty).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";
import { call, connectInProcess } from "./helpers.js";

afterAll(cleanupHomes);

describe("tradewarden mcp's journal notices", () => {
  it("a home whose head is gone: the session's run, its resources and its start each say so on the command's stderr", async () => {
    const home = freshHome();
    expectExit(await twIn(home, ["init", "--capital", "1000"]), 0);
    rmSync(join(home, "journal.json"));
    const s = await connectInProcess(home);
    try {
      for (const uri of ["tradewarden://runs", "tradewarden://killswitch", "tradewarden://portfolio"]) await s.client.readResource({ uri });
      expect((await call(s.client, "get_portfolio", {})).env.success).toBe(true);
    } finally {
      const closed = await s.closed();
      expectExit(closed, 0);
      expect(closed.stray).toBe("");
      // The start's open, three resources and the run's open: each said it.
      expect(closed.stderr.match(/journal\.json was missing .*rebuilt .*from .*journal\.log\.jsonl/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
    }
  }, 60_000);
});
