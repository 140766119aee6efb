/**
 * The daily run's stops end to end (issue 7): a broker that disagrees with the journal, a crash
 * that trips the kill switch, SIGINT during the model call, and a second run while one holds the lock.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHomes, expectExit, freshHome, journalJson, ofType, quantities, runOutput, text, tw, twIn, waitForLine } from "./helpers.js";

afterAll(cleanupHomes);

// Every case has its own home: they run at the same time (the in-process commands one after another,
// tests/e2e/helpers.ts twIn), so the real processes' waits overlap the in-process runs.

describe.concurrent("reconciliation", () => {
  it("a tampered broker position: the next run exits 3, places nothing and names the difference", async () => {
    const home = freshHome();
    expectExit(await twIn(home, ["run", "--yes"]), 0);

    // The simulated broker's book: a snapshot, plus a write-ahead log of order operations since the
    // last day change. A run closes its day, so the snapshot holds everything; drop any log anyway.
    const path = join(home, "sim-broker.json");
    const state = JSON.parse(readFileSync(path, "utf8")) as { positions: Record<string, { quantity: number; cost: number }> };
    const [symbol, pos] = Object.entries(state.positions)[0] ?? [];
    if (!symbol || !pos) throw new Error("the first run bought nothing; nothing to tamper with");
    pos.quantity += 7;
    writeFileSync(path, JSON.stringify(state));
    rmSync(`${path}.log`, { force: true });
    const before = await journalJson(home);

    const r = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(r, 3);
    const { events, envelope } = runOutput(String(r.stdout));
    expect(ofType(events, "order.placed")).toHaveLength(0);
    expect(ofType(events, "model.turn_started")).toHaveLength(0); // stopped before the model
    const failed = ofType(events, "reconcile.failed")[0];
    expect(failed?.differences.length).toBe(1);
    expect(failed?.differences[0]?.symbol).toBe(symbol);
    expect(JSON.stringify(failed)).toContain(String(pos.quantity));
    expect(envelope).toMatchObject({ outcome: "reconcile_failed", exit_code: 3 });

    // The plain output names it too (a person reading the cron mail sees the symbol).
    const plain = await twIn(home, ["run", "--yes"]);
    expectExit(plain, 3);
    expect(String(plain.stdout)).toMatch(new RegExp(`reconciliation failed: 1 difference\\(s\\)[\\s\\S]*${symbol}`));

    const after = await journalJson(home);
    expect(after.orders).toEqual(before.orders);
    expect(after.state.holdings).toEqual(before.state.holdings);
    expect(after.runs.slice(1).map((x) => [x.outcome, x.exit_code])).toEqual([
      ["reconcile_failed", 3],
      ["reconcile_failed", 3],
    ]);
  }, 60_000);
});

describe.concurrent("kill switch", () => {
  // February 2020: started on the 20th, the momentum model is invested within a few runs; the
  // index falls ~12% from the 20th to the 27th. With an 8% drawdown limit the run of 2020-02-27
  // trips (the data and the scripted model are deterministic); its liquidation fills only in part
  // (the volume cap), so the next run has shares left to sell.
  const CRASH = "[limits]\nmax_drawdown_pct = 8\n\n[broker.sim]\nstart_date = 2020-02-20\n";

  it("a crash drives the account past the drawdown limit: liquidation, HALTED, exit 5; the next run sells what is left and stays halted; a reset leaves it REDUCING", async () => {
    const home = freshHome(CRASH);
    // Getting there: five unattended daily runs (2020-02-20 … 2020-02-26); the account is invested, nothing tripped.
    for (let i = 0; i < 5; i++) expectExit(await twIn(home, ["run", "--yes"]), 0);
    const invested = await journalJson(home);
    expect(invested.state.trading_state).toBe("ACTIVE");
    expect(Object.keys(invested.state.holdings).length).toBeGreaterThan(0);

    // The trip.
    const trip = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(trip, 5);
    const t = runOutput(String(trip.stdout));
    expect(ofType(t.events, "run.started")[0]?.trading_day).toBe("2020-02-27");
    const tripped = ofType(t.events, "killswitch.tripped")[0];
    expect(tripped).toBeDefined();
    expect(tripped?.drawdown_pct).toBeGreaterThanOrEqual(8);
    expect(tripped?.limit_pct).toBe(8);
    expect(new Set(tripped?.liquidation.map((o) => o.symbol))).toEqual(new Set(Object.keys(invested.state.holdings)));
    const sold = ofType(t.events, "order.placed");
    expect(sold.length).toBeGreaterThan(0);
    expect(sold.every((o) => o.side === "SELL")).toBe(true);
    expect(ofType(t.events, "model.turn_started")).toHaveLength(0); // the model is not asked
    expect(t.envelope).toMatchObject({ outcome: "tripped", exit_code: 5 });
    const afterTrip = await journalJson(home);
    expect(afterTrip.state.trading_state).toBe("HALTED");
    expect(afterTrip.state.trips).toHaveLength(1);
    const left = quantities(afterTrip.state.holdings);

    // The next run: still halted, sells what is left (if anything), never buys.
    const halted = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(halted, 5);
    const h = runOutput(String(halted.stdout));
    expect(h.envelope).toMatchObject({ outcome: "halted", exit_code: 5 });
    expect(ofType(h.events, "model.turn_started")).toHaveLength(0);
    const placed = ofType(h.events, "order.placed");
    expect(placed.every((o) => o.side === "SELL")).toBe(true);
    expect(Object.fromEntries(placed.map((o) => [o.symbol, o.quantity]))).toEqual(left);
    expect(Object.keys(left).length).toBeGreaterThan(0); // this setup does leave shares for the next run
    const afterHalt = await journalJson(home);
    expect(afterHalt.state.trading_state).toBe("HALTED");
    expect(afterHalt.state.trips).toHaveLength(1);

    // A person resets it; the next run is REDUCING: no BUY.
    const reset = await twIn(home, ["killswitch", "reset", "--yes", "--reason", "test"]);
    expectExit(reset, 0);
    expect(String(reset.stdout)).toMatch(/REDUCING/);
    const reducing = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(reducing, 0);
    const d = runOutput(String(reducing.stdout));
    expect(ofType(d.events, "valuation")[0]?.trading_state).toBe("REDUCING");
    expect(ofType(d.events, "order.placed").filter((o) => o.side === "BUY")).toHaveLength(0);
    const final = await journalJson(home);
    expect(final.state.resets).toHaveLength(1);
    expect(["REDUCING", "ACTIVE"]).toContain(final.state.trading_state);
  }, 180_000);
});

describe.concurrent("interruption and the lock", () => {
  it("SIGINT during the model call: exit 130, the run closed as interrupted, nothing placed, the journal verifies", async () => {
    const home = freshHome('[model]\nscript = "slow"\n');
    const child = tw(home, ["run", "--yes", "--json"]);
    await waitForLine(child, (l) => l.includes('"type":"model.turn_started"'));
    child.kill("SIGINT");
    const r = await child;
    expectExit(r, 130);
    expect(String(r.stderr)).toMatch(/SIGINT: stopping the run/);
    const { events, envelope } = runOutput(String(r.stdout));
    expect(ofType(events, "order.placed")).toHaveLength(0);
    expect(envelope).toMatchObject({ outcome: "interrupted", exit_code: 130 });

    const [verify, journal] = await Promise.all([twIn(home, ["journal", "verify"]), journalJson(home)]);
    expectExit(verify, 0);
    expect(journal.runs).toHaveLength(1);
    expect(journal.runs[0]).toMatchObject({ status: "interrupted", outcome: "interrupted", exit_code: 130 });
    expect(journal.orders).toHaveLength(0);
  }, 60_000);

  // The holder is kept in its model call past the lock's first refresh (staleMs / 4 = 5 s): a
  // regression check for src/journal/lock.ts, where writing holder.json into the lock folder changed
  // the folder's mtime, proper-lockfile took that for a takeover ("lock ... was compromised") and
  // the folder was left behind, refusing every run for the next 20 s (any run with a real model).
  // The holder is a process (the refusal names its pid; the SIGINT that stops it is real); the second
  // run, started while it holds the lock, runs in this process. Two processes racing for the lock at
  // the same instant, exactly one proceeding, is tests/journal/lock.test.ts's.
  it("two runs at once: the second is refused, naming the lock holder; the holder, past the lock's refresh, releases it cleanly", async () => {
    const home = freshHome('[model]\nscript = "slow"\n');
    const holder = tw(home, ["run", "--yes", "--json"]);
    // The holder is in its (endless) model call: it holds the lock.
    await waitForLine(holder, (l) => l.includes('"type":"model.turn_started"'));
    const refused = await twIn(home, ["run", "--yes", "--json"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/another tradewarden process \(pid (\d+), run, since [^)]+\) holds the lock/);
    expect(holder.pid).not.toBe(process.pid);
    expect(refused.stderr).toContain(`pid ${holder.pid}`);
    expect(refused.stdout).not.toContain("run.started");

    // Past the lock's first refresh: seen, not assumed, as the lock folder's mtime moving on.
    const lockDir = join(home, "tradewarden.lock");
    const taken = statSync(lockDir).mtimeMs;
    const deadline = Date.now() + 30_000;
    while (statSync(lockDir).mtimeMs === taken) {
      if (Date.now() > deadline) throw new Error("the lock was not refreshed within 30 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    holder.kill("SIGINT");
    const done = await holder;
    expectExit(done, 130);
    expect(text(done)).not.toMatch(/compromised/);
    expect(existsSync(join(home, "tradewarden.lock"))).toBe(false);
    const journal = await journalJson(home);
    expect(journal.runs).toHaveLength(1); // the refused run left no trace
    expect(journal.runs[0]).toMatchObject({ status: "interrupted" });
  }, 60_000);
});
