/**
 * `tradewarden reconcile` on the simulated broker: a clean account; a recoverable orphan (a run
 * stopped for good right after the broker acknowledged its order); an unexplained position (bought
 * at the broker by hand) — refused headless without --adopt-broker, refused without --yes or a
 * reason, recorded as append-only adjustments with the reason when adopted; afterwards the journal
 * verifies and the next run reconciles. The command runs in this process (cmdReconcile) where the
 * CLI adds nothing; the refusal and the adoption (its flags parsed) go through the real CLI.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cmdReconcile, type ReconcileOptions } from "../../src/commands/reconcile.js";
import { cleanupTempHomes, crashAt, expectAgreement, ofType, runIn, tempHome } from "../recovery/harness.js";
import { cleanupHomes, expectExit, twIn } from "./helpers.js";
import { strayBuy } from "./stray.js";

afterAll(() => {
  cleanupHomes();
  cleanupTempHomes();
});

/** `tradewarden reconcile [options]` in this process (headless). */
async function reconcileIn(home: string, opts: Partial<ReconcileOptions> = {}) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t), env: {} };
  const exitCode = await cmdReconcile({ home, adoptBroker: false, yes: false, json: false, interactive: false, ...opts }, io);
  return { exitCode, stdout, stderr };
}

describe("tradewarden reconcile", () => {
  it("a clean account: nothing to do, exit 0 (text and JSON)", async () => {
    const home = tempHome();
    expect((await runIn(home)).summary.exitCode).toBe(0);
    const r = await reconcileIn(home);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^journal and broker agree \(\d+ position\(s\)\)$/m);
    const json = await reconcileIn(home, { json: true });
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ agree: true, differences: [], recovered: [] });
  });

  it("a recoverable orphan: recovered by its client order id automatically, then the journal verifies and the next run trades", async () => {
    const home = tempHome();
    await crashAt(home, "after_send");
    const r = await reconcileIn(home);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^recovered tw-.*-\d+ \(BUY \d+ \w+, run .*\): intent → filled, 1 fill\(s\) booked/m);
    expect(r.stdout).toMatch(/journal and broker agree/);
    await expectAgreement(home);
    expect((await runIn(home)).summary.exitCode).toBe(0);
  });

  it("an unexplained position: refused headless without --adopt-broker; adopted with a reason as append-only adjustments", async () => {
    const home = tempHome();
    expect((await runIn(home)).summary.exitCode).toBe(0);
    await strayBuy(home, "SPX", 3);

    const refused = await twIn(home, ["reconcile"]);
    expectExit(refused, 3);
    const out = String(refused.stdout);
    expect(out).toMatch(/unbooked_position SPX: the broker holds 3 SPX, the journal has no such holding/);
    expect(out).toMatch(/proves: no journal order explains these shares/);
    expect(out).toMatch(/cash_mismatch USD: cash moved by trading/);
    expect(String(refused.stderr)).toMatch(/refused: 2 difference\(s\) need an operator's decision.*--adopt-broker --yes --reason/);
    // A run stops on it too, and says where to look.
    const run = await runIn(home);
    expect(run.summary).toMatchObject({ outcome: "reconcile_failed", exitCode: 3 });
    expect(run.summary.message).toMatch(/`tradewarden reconcile` shows what each proves/);
    // Adoption needs --yes and a reason; without them nothing is written.
    const logBefore = readFileSync(join(home, "journal.log.jsonl"), "utf8");
    expect((await reconcileIn(home, { adoptBroker: true })).exitCode).toBe(2);
    const noReason = await reconcileIn(home, { adoptBroker: true, yes: true });
    expect(noReason.exitCode).toBe(2);
    expect(noReason.stderr).toMatch(/a reason is required/);
    expect(readFileSync(join(home, "journal.log.jsonl"), "utf8")).toBe(logBefore);

    const adopted = await twIn(home, ["reconcile", "--adopt-broker", "--yes", "--reason", "bought by hand at the broker", "--who", "ops"]);
    expectExit(adopted, 0);
    expect(String(adopted.stdout)).toMatch(/adjustment adj-1 by ops: position \(unbooked_position SPX.*reason: bought by hand at the broker/);
    expect(String(adopted.stdout)).toMatch(/adjustment adj-2 by ops: cash/);
    // Append-only: what was there is unchanged; the adjustments follow it.
    const logAfter = readFileSync(join(home, "journal.log.jsonl"), "utf8");
    expect(logAfter.startsWith(logBefore)).toBe(true);
    const added = logAfter
      .slice(logBefore.length)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { t: string; adjustment?: { kind: string; reason: string; by: string; quantity_delta?: number } });
    expect(added.map((e) => [e.t, e.adjustment?.kind])).toEqual([
      ["adjustment", "position"],
      ["adjustment", "cash"],
    ]);
    expect(added[0]?.adjustment).toMatchObject({ reason: "bought by hand at the broker", by: "ops", quantity_delta: 3 });
    await expectAgreement(home);
    expect((await reconcileIn(home)).exitCode).toBe(0);
    const next = await runIn(home);
    expect(next.summary.exitCode).toBe(0);
    expect(ofType(next.events, "reconcile.ok")).toHaveLength(1);
  }, 60_000);
});
