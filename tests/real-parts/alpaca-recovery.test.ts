/**
 * The Alpaca paper path through the real CLI (the loopback fake of Alpaca's REST v2, reached only
 * through the test-only loopback preload): a run SIGKILLed right after the broker acknowledged its
 * order; the next run (in-process) recovers it by client order id (exit 0), `journal verify` passes, the
 * journal's holdings are the broker's positions, and no client order id was posted twice. The
 * other cut points run in-process through the same adapter (tests/recovery/recovery.test.ts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { LOOPBACK_BROKER_FOR_TESTS } from "../../src/broker/loopback.js";
import { FakeAlpaca } from "../broker/fake-alpaca.js";
import { expectExit, tw, twIn } from "../e2e/helpers.js";
import { ALPACA_ENV, KEY, SECRET, SYMBOLS, alpacaHome, postedOnce } from "../recovery/alpaca-home.js";
import { cleanupTempHomes, expectAgreement } from "../recovery/harness.js";

const fake = new FakeAlpaca({ key: KEY, secret: SECRET });
beforeAll(async () => {
  await fake.start();
  for (const s of SYMBOLS) fake.fillAtLimit.add(s);
});
afterAll(async () => {
  await fake.stop();
  cleanupTempHomes();
});

it("SIGKILL after the broker acknowledged the order: the next CLI run books its fills by client order id, never re-sending it", async () => {
  const home = alpacaHome(fake);
  const env = { ...ALPACA_ENV, NO_COLOR: "1" };
  const cut = await tw(home, ["run", "--yes"], { env, allowLoopbackBroker: true, faults: "executor.after_send=kill" });
  expect(cut.signal).toBe("SIGKILL");
  expect(fake.posts()).toHaveLength(1);
  // The recovering run needs no process of its own: in-process, through the same adapter and fake.
  const next = await twIn(home, ["run", "--yes"], { env, allowLoopbackBroker: true });
  expectExit(next, 0);
  // The message names the journal's own order; it is never called one "the journal did not place".
  expect(String(next.stdout)).toMatch(/order recovered .*intent → filled/);
  expect(String(next.stdout)).not.toMatch(/did not place/);
  expect(String(next.stdout)).toMatch(/reconciled: journal and broker agree/);
  // Read back in this process through the same adapter (the test-only loopback opt-in).
  (globalThis as Record<symbol, unknown>)[LOOPBACK_BROKER_FOR_TESTS] = true;
  await expectAgreement(home, ALPACA_ENV);
  expect(postedOnce(fake)).toBe(true);
}, 60_000);
