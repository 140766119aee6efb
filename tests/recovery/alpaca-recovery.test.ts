/**
 * The Alpaca paper path (the loopback fake of Alpaca's REST v2, tests/broker/fake-alpaca.ts) cut
 * short — in this process, through the real pipeline, journal and Alpaca adapter — after the send,
 * after the intent (the send may still be in flight: uncertain until the executor's wait has
 * passed), and with a disk-full error on a fill. After each the next plain run exits 0, `journal
 * verify` finds nothing, the journal's holdings are the broker's positions, and no client order id
 * was ever posted twice. One real CLI SIGKILL is in tests/real-parts/alpaca-recovery.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOOPBACK_BROKER_FOR_TESTS } from "../../src/broker/loopback.js";
import { setTestFaults } from "../../src/util/test-fault.js";
import { FakeAlpaca } from "../broker/fake-alpaca.js";
import { ALPACA_ENV, KEY, SECRET, SYMBOLS, WAIT_S, alpacaHome, postedOnce } from "./alpaca-home.js";
import { cleanupTempHomes, crashAt, expectAgreement, ofType, runIn } from "./harness.js";

const fake = new FakeAlpaca({ key: KEY, secret: SECRET });
beforeAll(async () => {
  (globalThis as Record<symbol, unknown>)[LOOPBACK_BROKER_FOR_TESTS] = true;
  await fake.start();
});
afterAll(async () => {
  (globalThis as Record<symbol, unknown>)[LOOPBACK_BROKER_FOR_TESTS] = undefined;
  await fake.stop();
  cleanupTempHomes();
});
afterEach(() => {
  setTestFaults("");
  fake.reset();
});
const fresh = () => {
  fake.reset();
  for (const s of SYMBOLS) fake.fillAtLimit.add(s);
  return alpacaHome(fake);
};

async function nextRunRecovers(home: string, now?: () => Date) {
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
    const next = await nextRunRecovers(home);
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
    const next = await nextRunRecovers(home, later);
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
    await nextRunRecovers(home);
  });
});
