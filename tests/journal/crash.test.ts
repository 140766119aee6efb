import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { openJournal } from "../../src/journal/journal.js";
import { freshJournal } from "./helpers.js";

describe("crash safety", () => {
  it("a writer killed with SIGKILL mid-loop leaves a journal that opens and verifies", async () => {
    const j0 = await freshJournal({ capital: 100_000 });
    const home = j0.home;
    let lastRuns = 0;
    for (let round = 0; round < 4; round++) {
      const child = execa(process.execPath, ["--import", "tsx", "tests/journal/fixtures/writer-child.ts", home, `w${round}`], { buffer: false, reject: false });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.once("data", () => resolve());
        child.once("exit", (code) => reject(new Error(`writer exited early (${code})`)));
      });
      await new Promise((r) => setTimeout(r, 80 + round * 70));
      child.kill("SIGKILL");
      const res = await child;
      expect(res.signal).toBe("SIGKILL");
      const j = await openJournal(home, { timezone: "Australia/Sydney", readOnly: true });
      // The books are consistent; an order the killed writer left mid-flight is reported as unsettled (recovery's job), nothing else.
      expect(j.verify().filter((f) => f.code !== "unsettled_order")).toEqual([]);
      for (const f of j.verify()) expect(f.message).toMatch(/is (intent|accepted|uncertain|partially_filled): its outcome is not final/);
      const sum = j.ledger().reduce((a, e) => a + e.amount_minor, 0);
      expect(j.cashMinor()).toBe(sum);
      expect(j.runs().length).toBeGreaterThanOrEqual(lastRuns);
      lastRuns = j.runs().length;
    }
    // the next writer recovers the dead lock, aborts the dead run and carries on
    const j = await openJournal(home, { timezone: "UTC" });
    expect(lastRuns).toBeGreaterThan(1);
    expect(j.runs().filter((r) => r.status === "aborted").length).toBeGreaterThan(0);
  });
});
