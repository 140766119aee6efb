/**
 * A daily run cut short at each point of execution — in this process, through the real pipeline,
 * journal and brokers (tests/recovery/harness.ts) — and after each the next plain run exits 0,
 * `journal verify` finds nothing and the journal's holdings are the broker's positions.
 *
 * On the simulated broker: crashes after the intent, after the send and after the first fill; a
 * stop (SIGTERM/SIGHUP) after the first fill; a stop after the last phase (while the run closes); a
 * disk-full error on a fill and on an intent. On the loopback Alpaca fake (tests/broker/fake-alpaca.ts):
 * a crash after the send, after the intent (the send may still be in flight: uncertain until the
 * executor's wait has passed), a disk-full error on a fill — and no client order id is ever posted
 * twice. The real CLI's signals, kill and closed pipe: tests/e2e/interruptions.test.ts and
 * tests/real-parts/alpaca-recovery.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { setTestFaults } from "../../src/util/test-fault.js";
import { fakeAlpacaForFile } from "../broker/fake-alpaca.js";
import { ALPACA_ENV, KEY, SECRET, SYMBOLS, WAIT_S, alpacaHome, postedOnce } from "./alpaca-home.js";
import { type CrashPoint, cleanupTempHomes, crashAt, expectAgreement, ofType, runIn, tempHome } from "./harness.js";

afterAll(cleanupTempHomes);
afterEach(() => setTestFaults(""));

/** The next plain run recovers what was left, exits 0 and leaves journal and broker agreeing. */
async function nextRunRecovers(home: string) {
  const next = await runIn(home);
  expect(next.summary, next.summary.message).toMatchObject({ exitCode: 0 });
  expect(ofType(next.events, "reconcile.ok")).toHaveLength(1);
  await expectAgreement(home);
  return next;
}

describe("a run on the simulated broker cut short, then the next run", () => {
  const expected: Record<CrashPoint, string> = { after_intent: "rejected", after_send: "filled", after_fill: "filled" };
  for (const point of ["after_intent", "after_send", "after_fill"] as const) {
    it(`crash ${point}: the next run recovers the order by its client order id, never re-sending it`, async () => {
      const home = tempHome();
      await crashAt(home, point);
      const next = await nextRunRecovers(home);
      const recovered = ofType(next.events, "order.recovered");
      expect(recovered.length).toBeGreaterThan(0);
      expect(recovered.every((r) => r.settled)).toBe(true);
      expect(recovered[0]?.status).toBe(expected[point]);
      // After the intent only, the order never reached the broker: settled as never received, not counted, not re-sent.
      if (point === "after_intent") expect(recovered[0]?.message).toMatch(/never reached the broker \(not re-sent, not counted\)/);
      // The recovered client ids are not placed again by the next run.
      const placedAgain = ofType(next.events, "order.placed").filter((p) => recovered.some((r) => r.client_order_id === p.client_order_id));
      expect(placedAgain).toEqual([]);
    });
  }

  it("a stop (SIGTERM/SIGHUP) after the first fill: the rest is booked, the run is interrupted (exit 130)", async () => {
    const home = tempHome();
    const cut = await runIn(home, { onEvent: (e, c) => e.type === "order.filled" && c.abort() });
    expect(cut.summary).toMatchObject({ outcome: "interrupted", exitCode: 130 });
    expect(cut.summary.message).toMatch(/^interrupted during execution: \d+ orders? sent \(acknowledged by the paper broker\)/);
    await expectAgreement(home);
    await nextRunRecovers(home);
  });

  it("a stop after the last phase (while the run closes) still ends it as interrupted (exit 130), never 0", async () => {
    // The scripted model holds: the signal comes with its (empty) proposal, after the agent loop has
    // ended, and no later phase looks at it — only the close turns the hold into "interrupted".
    const home = tempHome('[model]\nprovider = "scripted"\nscript = "hold"\n');
    const cut = await runIn(home, { onEvent: (e, c) => e.type === "proposal" && c.abort() });
    expect(cut.summary).toMatchObject({ outcome: "interrupted", exitCode: 130 });
    expect(cut.summary.message).toBe("interrupted; the model proposed to hold");
    expect(ofType(cut.events, "run.finished")[0]).toMatchObject({ outcome: "interrupted", exit_code: 130 });
    await nextRunRecovers(home);
  });

  it("a disk-full error when a fill is booked: exit 1 saying the next run recovers it; the next run books the fill", async () => {
    const home = tempHome();
    setTestFaults("journal.append:fill=enospc");
    const cut = await runIn(home);
    setTestFaults("");
    expect(cut.summary).toMatchObject({ outcome: "error", exitCode: 1 });
    expect(cut.summary.message).toMatch(/the journal could not record 1 update\(s\) .*ENOSPC.*the next run recovers them by client order id/);
    await nextRunRecovers(home);
  });

  it("a disk-full error on the order intent: nothing is sent and the words say so (not 'sent'), exit 1", async () => {
    const home = tempHome();
    setTestFaults("journal.append:order_intent=enospc");
    const cut = await runIn(home);
    setTestFaults("");
    expect(cut.summary).toMatchObject({ outcome: "error", exitCode: 1 });
    expect(cut.summary.message).toMatch(/^0 orders sent \(acknowledged by the paper broker\); 2 not sent: .*ENOSPC/);
    expect(ofType(cut.events, "order.placed")).toEqual([]);
    expect((JSON.parse(readFileSync(join(home, "sim-broker.json"), "utf8")) as { orders: unknown[] }).orders).toEqual([]);
    await nextRunRecovers(home);
  });
});

const fake = fakeAlpacaForFile({ key: KEY, secret: SECRET });
const fresh = () => {
  fake.reset();
  for (const s of SYMBOLS) fake.fillAtLimit.add(s);
  return alpacaHome(fake);
};

async function nextAlpacaRunRecovers(home: string, now?: () => Date) {
  const next = await runIn(home, { env: ALPACA_ENV, ...(now ? { now } : {}) });
  expect(next.summary, next.summary.message).toMatchObject({ exitCode: 0 });
  expect(ofType(next.events, "reconcile.ok")).toHaveLength(1);
  await expectAgreement(home, ALPACA_ENV);
  expect(postedOnce(fake)).toBe(true);
  return next;
}

describe("a run against the loopback Alpaca fake, cut short", () => {
  it("crash after the broker acknowledged the order: the next run books its fills by client order id", async () => {
    const home = fresh();
    await crashAt(home, "after_send", ALPACA_ENV);
    expect(fake.posts()).toHaveLength(1);
    const next = await nextAlpacaRunRecovers(home);
    const recovered = ofType(next.events, "order.recovered");
    expect(recovered[0]).toMatchObject({ status_before: "intent", status: "filled", settled: true });
    // The journal's own order is never called one "the journal did not place".
    expect(JSON.stringify(next.events)).not.toMatch(/did not place/);
  });

  it("crash after the intent, before the send: uncertain while the send may be in flight, then settled as never received", async () => {
    const home = fresh();
    await crashAt(home, "after_intent", ALPACA_ENV);
    expect(fake.posts()).toHaveLength(0);
    // Within the executor's wait the order stays uncertain: the run stops (exit 3), nothing is placed.
    const early = await runIn(home, { env: ALPACA_ENV });
    expect(early.summary).toMatchObject({ outcome: "reconcile_failed", exitCode: 3 });
    expect(ofType(early.events, "order.recovered")[0]).toMatchObject({ status: "uncertain", settled: false });
    expect(ofType(early.events, "reconcile.failed")[0]?.differences[0]).toMatchObject({ kind: "unsettled_order", adoptable: false });
    expect(fake.posts()).toHaveLength(0);
    // After the wait (the run's clock moved on) it is settled as never received, and never re-sent.
    const later = () => new Date(Date.now() + (WAIT_S + 1) * 1000);
    const next = await nextAlpacaRunRecovers(home, later);
    expect(ofType(next.events, "order.recovered")[0]).toMatchObject({ status: "rejected", settled: true });
    expect(ofType(next.events, "order.recovered")[0]?.message).toMatch(/never reached the broker/);
  });

  it("a disk-full error when a fill is booked: exit 1 with the reason; the next run agrees", async () => {
    const home = fresh();
    setTestFaults("journal.append:fill=enospc");
    const cut = await runIn(home, { env: ALPACA_ENV });
    setTestFaults("");
    expect(cut.summary).toMatchObject({ exitCode: 1 });
    expect(cut.summary.message).toMatch(/ENOSPC/);
    await nextAlpacaRunRecovers(home);
  });
});
