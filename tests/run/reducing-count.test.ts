/**
 * Rules that held by luck (issue #13), through the real pipeline, journal and simulated broker:
 * a REDUCING period counts down only on runs that could have traded, and a run on a closed market
 * never records a valuation (so it cannot confirm a peak).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/factory.js";
import { openJournal } from "../../src/journal/journal.js";
import { AutoApprover } from "../../src/run/approval.js";
import { EventSink } from "../../src/run/event-sink.js";
import { runDaily } from "../../src/run/pipeline.js";
import { createAccountServices, accountDeps } from "../../src/run/services.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

async function oneRun(home: string, open: boolean) {
  const svc = await createAccountServices(home, {});
  const model = createModelClient({ ...svc.config.model, provider: "scripted", script: "hold" }, { env: {} });
  return runDaily({
    home,
    mode: "paper",
    ...accountDeps(svc),
    openSession: async () => ({ ...(await svc.openSession()), isOpen: open }),
    model: { ...model, id: "scripted:hold" },
    approver: new AutoApprover(),
    sink: new EventSink(),
    signal: new AbortController().signal,
    secretsRead: [],
  });
}

describe("REDUCING and the peak count only runs that could have traded", () => {
  it("closed-market runs leave REDUCING and the peak alone; an open run counts", async () => {
    const home = mkdtempSync(join(tmpdir(), "tw-reducing-"));
    homes.push(home);
    // A first open run opens the journal and values it; then a trip and a reset leave it REDUCING for 2 runs.
    expect((await oneRun(home, true)).outcome).toBe("hold");
    const j = await openJournal(home, { timezone: "America/New_York", reducingRunsAfterReset: 2 });
    const peakBefore = j.peak();
    await j.trip({ run_id: j.runs()[0]?.run_id as string, at: new Date(), value: 1, peak: 2, drawdown_pct: 50, reason: "test" });
    await j.reset({ at: new Date(), who: "ops", reason: "test", value: peakBefore as number });
    expect(j.reducingRunsLeft()).toBe(2);

    const closed = await oneRun(home, false);
    expect(closed.outcome).toBe("no_trades");
    const after = await openJournal(home, { timezone: "America/New_York", readOnly: true });
    expect(after.tradingState()).toBe("REDUCING");
    expect(after.reducingRunsLeft()).toBe(2);
    const closedRun = after.runs().at(-1);
    expect(closedRun?.first_value_minor).toBeNull();

    expect((await oneRun(home, true)).outcome).toBe("hold");
    const later = await openJournal(home, { timezone: "America/New_York", readOnly: true });
    expect(later.reducingRunsLeft()).toBe(1);
  }, 60_000);
});
