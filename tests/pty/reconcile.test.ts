/**
 * `tradewarden reconcile` in a real terminal: an unexplained position (bought at the simulated
 * broker behind the journal's back) is adopted only after typing ADOPT and a reason; the journal
 * then verifies and the next run reconciles.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { strayBuy } from "../e2e/stray.js";
import { expectAgreement, runIn } from "../recovery/harness.js";
import { freshHome, spawnConsole } from "./helpers.js";

test("reconcile on a terminal: the difference and what it proves, a wrong word refused, ADOPT + reason adopts append-only", async () => {
  const home = freshHome();
  // The first run in this process (the terminal is what is under test).
  expect((await runIn(home)).summary.exitCode).toBe(0);
  await strayBuy(home, "SPX", 2);
  const c = spawnConsole(home, ["reconcile"]);
  await c.waitForText("Type ADOPT to adopt the broker's side:");
  expect(c.text()).toContain("unbooked_position SPX: the broker holds 2 SPX, the journal has no such holding");
  expect(c.text()).toContain("proves: no journal order explains these shares");
  // Several keys in one chunk: a wrong word with Enter is refused.
  c.term.write("adopt\r");
  await c.waitForText('refused: "adopt" is not ADOPT');
  c.term.write("ADOPT\r");
  await c.waitForText("Reason (recorded with each adjustment):");
  c.term.write("bought by hand\r");
  await c.waitForText("Adopted: the journal and the broker agree.");
  c.term.write("q");
  await c.waitFor(() => c.exitCode() !== null, "exit");
  expect(c.exitCode()).toBe(0);
  const adjustments = readFileSync(join(home, "journal.log.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; adjustment?: Record<string, unknown> })
    .filter((e) => e.t === "adjustment");
  expect(adjustments[0]?.adjustment).toMatchObject({ id: "adj-1", kind: "position", symbol: "SPX", quantity_delta: 2, reason: "bought by hand" });
  await expectAgreement(home);
}, 60_000);
