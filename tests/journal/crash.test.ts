import { existsSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { openJournal } from "../../src/journal/journal.js";
import { childBundle } from "./child-bundle.js";
import { freshJournal, tmpHome } from "./helpers.js";

describe("crash safety", () => {
  it("a writer killed with SIGKILL mid-loop leaves a journal that opens and verifies", async () => {
    const j0 = await freshJournal({ capital: 100_000 });
    const home = j0.home;
    let lastRuns = 0;
    for (let round = 0; round < 4; round++) {
      const child = execa(process.execPath, [await childBundle({ file: "tests/journal/fixtures/writer-child.ts" }), home, `w${round}`], {
        buffer: false,
        reject: false,
      });
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
  }, 120_000);
});

describe("crash safety of a fresh journal's first commit", () => {
  it("SIGKILL at the first fsync of the log (head not yet written): the next open rebuilds the head from the log and says so", async () => {
    const home = tmpHome();
    const script = `import { setTestFaults } from "./src/util/test-fault.js";
import { openJournal } from "./src/journal/journal.js";
setTestFaults("journal.log_fsync=kill");
const j = await openJournal(process.argv[2], { timezone: "UTC" });
await j.init({ capital: 100000, currency: "USD", at: "2024-01-02T00:00:00Z" });`;
    const child = await execa(process.execPath, [await childBundle({ source: script }), home], { reject: false });
    expect(child.signal).toBe("SIGKILL");
    expect(existsSync(join(home, "journal.json"))).toBe(false);
    const said: string[] = [];
    // before the fix: "the head document is missing while … holds events" — every later command refused
    const j = await openJournal(home, { timezone: "UTC", notice: (m) => said.push(m) });
    expect(said.join("\n")).toMatch(/journal\.json was missing .*rebuilt from .*journal\.log\.jsonl \(1 events\)/);
    expect(j.cash()).toBe(100_000);
    expect(j.verify()).toEqual([]);
    expect(existsSync(join(home, "journal.json"))).toBe(true);
  });
});
