/**
 * Issue 11 end to end, through the real CLI: one order carries every fact from the gate to the
 * journal (a GBP universe valued in USD), kill-switch liquidations are flagged and outside the
 * quota, and time never runs backwards for the model.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterAll, describe, expect, it } from "vitest";
import { screenFacts } from "../../src/commands/killswitch-screen.js";
import { killSwitchFacts } from "../../src/run/killswitch.js";
import { createAccountServices } from "../../src/run/services.js";
import { KillSwitchScreen } from "../../src/screens/KillSwitchScreen.js";
import { cleanupHomes, expectExit, freshHome, journalJson, ofType, ROOT, runOutput, twIn } from "./helpers.js";

afterAll(cleanupHomes);

const cents = (x: number) => Math.round(x * 100);

/** The close of the last bar strictly before `day` (the reference price). */
function referenceClose(symbol: string, day: string): number {
  const rows = readFileSync(join(ROOT, "data/market/bars", `${symbol}.csv`), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  const before = rows.filter((r) => r.slice(0, 10) < day).at(-1);
  if (!before) throw new Error(`no bar of ${symbol} before ${day}`);
  return Number(before.split(",")[4]);
}

interface SimBook {
  cash: number;
  positions: Record<string, { quantity: number }>;
  fills: { symbol: string; side: string; quantity: number; price: number; commission: number; commission_currency: string }[];
}

describe("a foreign-currency universe (GBP instruments, USD account, [fx] GBP = 1.2)", () => {
  it("cash, holdings, commission and value agree with a hand computation in USD; both books agree; journal verify passes", async () => {
    const home = freshHome('[universe]\nfiles = ["gbp.csv"]\n\n[fx]\nGBP = 1.2\n\n[broker.sim]\nstart_date = 2007-03-01\n');
    const sim = readFileSync(join(ROOT, "data/universe/sim.csv"), "utf8").split("\n");
    writeFileSync(
      join(home, "gbp.csv"),
      [
        sim[0],
        ...sim
          .slice(1)
          .filter(Boolean)
          .map((l) => l.replace(",USD,", ",GBP,")),
      ].join("\n"),
    );

    const r = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(r, 0);
    const { events } = runOutput(String(r.stdout));
    const day = ofType(events, "run.started")[0]!.trading_day;
    const filled = ofType(events, "order.filled");
    expect(filled.length).toBeGreaterThan(0);

    const book = JSON.parse(readFileSync(join(home, "sim-broker.json"), "utf8")) as SimBook;
    expect(book.fills.length).toBeGreaterThan(0);
    expect(book.fills.every((f) => f.commission_currency === "GBP")).toBe(true);
    // By hand: every GBP amount × 1.2, rounded to cents once; the commission (charged in GBP) too.
    let cashCents = cents(100_000);
    const held: Record<string, number> = {};
    for (const f of book.fills) {
      const gross = cents(f.quantity * f.price * 1.2);
      const commission = cents(f.commission * 1.2);
      cashCents += f.side === "BUY" ? -gross - commission : gross - commission;
      held[f.symbol] = (held[f.symbol] ?? 0) + (f.side === "BUY" ? f.quantity : -f.quantity);
    }
    const j = await journalJson(home);
    expect(cents(j.state.cash)).toBe(cashCents);
    expect(cents(book.cash)).toBe(cashCents); // the simulated broker's own book, in USD
    expect(Object.fromEntries(Object.entries(j.state.holdings).map(([s, h]) => [s, h.quantity]))).toEqual(held);
    const fills = (j as unknown as { fills: { fx_to_base: number; gross: number; commission: number; quantity: number; price: number }[] }).fills;
    expect(fills.every((f) => f.fx_to_base === 1.2)).toBe(true);
    const orders = j.orders as unknown as { currency: string; fx_to_base: number; liquidation: boolean }[];
    expect(orders.every((o) => o.currency === "GBP" && o.fx_to_base === 1.2 && o.liquidation === false)).toBe(true);

    // The value after the orders: cash + holdings at the reference close × 1.2.
    const valueCents = Object.entries(held).reduce((v, [s, q]) => v + cents(q * referenceClose(s, day) * 1.2), cashCents);
    const after = ofType(events, "valuation")
      .filter((e) => !e.first_of_run)
      .at(-1);
    expect(cents(after!.value)).toBe(valueCents);

    expectExit(await twIn(home, ["journal", "verify"]), 0);
    // The next run reconciles positions and the cash moved by trading (to the cent) and goes on.
    const next = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(next, 0);
    expect(ofType(runOutput(String(next.stdout)).events, "reconcile.ok")).toHaveLength(1);
  }, 90_000);
});

describe("the kill switch over a real drawdown (May 2008: the momentum policy's fall into its 5% limit)", () => {
  it("liquidation orders are flagged, outside the quota, listed by `killswitch --json` and on the kill-switch screen", async () => {
    const home = freshHome("[limits]\nmax_drawdown_pct = 5\n\n[broker.sim]\nstart_date = 2008-05-01\n");
    const sim = await twIn(home, ["simulate", "--from", "2008-05-01", "--to", "2008-05-13", "--json"]);
    expectExit(sim, 0);
    const summary = JSON.parse(String(sim.stdout).trim().split("\n").at(-1) ?? "{}") as { summary: { outcomes: Record<string, number>; dir: string } };
    expect(summary.summary.outcomes.tripped).toBe(1);
    // The simulation trades in its own folder (a home of its own), never in the home's daily account.
    const simHome = summary.summary.dir;
    expect(simHome.startsWith(join(home, "simulations"))).toBe(true);

    const j = await journalJson(simHome);
    expect(j.state.trading_state).toBe("HALTED");
    const trip = j.state.trips[0] as { run_id: string; drawdown_pct: number };
    expect(trip.drawdown_pct).toBeGreaterThanOrEqual(5);
    const orders = j.orders as unknown as { run_id: string; client_order_id: string; side: string; liquidation: boolean; counted_at: string | null }[];
    const liquidations = orders.filter((o) => o.run_id === trip.run_id);
    expect(liquidations.length).toBeGreaterThan(0);
    expect(liquidations.every((o) => o.liquidation && o.side === "SELL" && /-L\d+$/.test(o.client_order_id) && o.counted_at === null)).toBe(true);
    expect(orders.filter((o) => !o.liquidation).every((o) => o.counted_at !== null)).toBe(true);

    const ks = await twIn(simHome, ["killswitch", "--json"]);
    expectExit(ks, 0);
    const facts = JSON.parse(String(ks.stdout)) as { liquidation: { orders: { client_order_id: string }[] } };
    expect(facts.liquidation.orders.map((o) => o.client_order_id).sort()).toEqual(liquidations.map((o) => o.client_order_id).sort());

    // The kill-switch screen, from the same facts, lists them.
    const svc = await createAccountServices(simHome, {}, { readOnly: true });
    const inst = render(<KillSwitchScreen facts={screenFacts(await killSwitchFacts(svc))} onReset={async () => {}} onExit={() => {}} />);
    const frame = inst.lastFrame() ?? "";
    inst.unmount();
    for (const o of liquidations) expect(frame).toContain(o.client_order_id);
    expect(frame.replace(/\s+/g, " ")).toContain("outside the monthly quota");
  }, 120_000);
});

describe("the simulated clock moved back", () => {
  it("a run on a day not after the last completed run's is refused (exit 3) naming how to start a fresh account; a fresh account's tool results carry no later date", async () => {
    const home = freshHome("[broker.sim]\nstart_date = 2007-06-01\n");
    expectExit(await twIn(home, ["run", "--yes"]), 0);
    expectExit(await twIn(home, ["run", "--yes"]), 0);
    expectExit(await twIn(home, ["sim", "reset", "--start", "2007-03-01"]), 0);
    const back = await twIn(home, ["run", "--yes", "--json"]);
    expectExit(back, 3);
    const { events, envelope } = runOutput(String(back.stdout));
    const failed = ofType(events, "preflight.failed")[0];
    expect(failed?.code).toBe("trading_day_not_after_last_run");
    expect(failed?.message).toMatch(/not after 2007-06-04/);
    expect(failed?.message).toMatch(/fresh account.*new home/);
    expect(ofType(events, "model.turn_started")).toHaveLength(0);
    expect(envelope).toMatchObject({ exit_code: 3 });
    expect((await journalJson(home)).runs).toHaveLength(2); // refused before it was recorded

    // A fresh account on an earlier day: nothing in any tool result is dated after its trading day.
    const fresh = freshHome("[broker.sim]\nstart_date = 2007-03-01\n");
    const r = await twIn(fresh, ["run", "--yes", "--json"]);
    expectExit(r, 0);
    const out = runOutput(String(r.stdout));
    const day = ofType(out.events, "run.started")[0]!.trading_day;
    const results = ofType(out.events, "tool.result");
    const transcript = readFileSync(join(fresh, "runs", String(out.envelope.run_id), "transcript.json"), "utf8");
    const toolText = JSON.stringify(results) + transcript;
    const dates = [...toolText.matchAll(/\b(\d{4}-\d{2}-\d{2})\b/g)].map((m) => m[1]!);
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.filter((d) => d > day)).toEqual([]);
  }, 120_000);
});
