/**
 * Two-wave execution end to end (the real pipeline, journal, gate, executor and broker, in this
 * process: tests/recovery/harness.ts), on the simulated broker and on the loopback Alpaca fake: a
 * rebalance — sell the holding, buy another with more than the cash held — is executed in one run,
 * the buy placed only after the sell settled; a sell filling short shrinks the buy to the cash
 * received; a sell not filling drops it; a run killed between the waves leaves the funded buy unsent,
 * and the next run records it as not placed (never sends it) with `journal verify` clean.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../../src/core/events.js";
import { createAccountServices } from "../../src/run/services.js";
import { fakeAlpacaForFile } from "../broker/fake-alpaca.js";
import { ALPACA_ENV, KEY, SECRET, SYMBOLS, alpacaHome, postedOnce } from "./alpaca-home.js";
import { cleanupTempHomes, expectAgreement, ofType, type RunOptions, runIn, tempHome } from "./harness.js";
import { cents, PlannedModel, type PlanView } from "./planned-model.js";

afterAll(cleanupTempHomes);

/** Run 1: everything into the cheapest instrument (the cash left is less than one share of the dearest). */
function allIn(v: PlanView) {
  const [sym, p] = [...v.prices.entries()].filter(([s]) => s !== "SPX").sort((a, b) => a[1] - b[1])[0] ?? ["", 0];
  const limit = cents(p * 1.01);
  return [{ symbol: sym, side: "BUY" as const, quantity: Math.floor((v.cash - 3) / limit), limit_price: limit }];
}

/** Run 2: sell the holding, buy the dearest instrument (one share dearer than the cash left) with 90% of the value: more than the cash held. */
function rebalance(v: PlanView) {
  const h = v.holdings[0];
  if (!h) throw new Error("nothing held to rebalance");
  const [sym, p] = [...v.prices.entries()].filter(([s]) => s !== h.symbol).sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  const ref = v.prices.get(h.symbol) ?? 0;
  const limit = cents(p * 1.01);
  return [
    { symbol: h.symbol, side: "SELL" as const, quantity: h.quantity, limit_price: cents(ref * 0.99) },
    { symbol: sym, side: "BUY" as const, quantity: Math.floor((0.9 * v.value) / limit), limit_price: limit },
  ];
}

const hold = () => [];

function withModel(plan: (v: PlanView) => ReturnType<typeof rebalance> | never[], extra: RunOptions = {}): RunOptions {
  return {
    ...extra,
    patch: (svc, c) => {
      svc.model = { ...svc.model, client: new PlannedModel(plan) };
      extra.patch?.(svc, c);
    },
  };
}

/** The run's second-wave facts: the funded buy's verdict, its outcome, what was placed, in order. */
function waves(events: readonly RunEvent[]) {
  const final = ofType(events, "gate.final")[0];
  const fundedDecision = final?.decisions.find((d) => d.funded_by_sells);
  const outcome = ofType(events, "order.funded_buy")[0];
  const placed = ofType(events, "order.placed");
  const order = events
    .filter((e) => e.type === "order.placed" || e.type === "order.funded_buy")
    .map((e) => (e.type === "order.placed" ? e.side : "second wave"));
  return { fundedDecision, outcome, placed, order };
}

async function journalOf(home: string, env: NodeJS.ProcessEnv = {}) {
  return (await createAccountServices(home, env, { readOnly: true })).journal;
}

const SIM_TOML = `[account]\ncapital = 10000\n\n[limits]\nmax_position_pct = 100\n\n[executor]\nwait_s = 1\nsettle_s = 1\npoll_ms = 50\n`;

/** A home holding one instrument bought with (almost) all the cash; its symbol and quantity. */
async function simHomeHolding() {
  const home = tempHome(SIM_TOML);
  const first = await runIn(home, withModel(allIn));
  expect(first.summary, first.summary.message).toMatchObject({ exitCode: 0, outcome: "executed" });
  const [symbol, h] = Object.entries((await journalOf(home)).holdings())[0] ?? ["", { quantity: 0 }];
  expect(h.quantity).toBeGreaterThan(0);
  return { home, symbol, held: h.quantity };
}

describe("two-wave execution on the simulated broker", () => {
  it("a rebalance in one run: the sell first, then the buy its proceeds fund, re-gated on the cash received", async () => {
    const { home } = await simHomeHolding();
    const { summary, events } = await runIn(home, withModel(rebalance));
    expect(summary, summary.message).toMatchObject({ exitCode: 0, outcome: "executed" });
    const w = waves(events);
    expect(w.fundedDecision?.approved).toBe(true);
    expect(w.fundedDecision?.funded_by_sells?.amount_minor).toBeGreaterThan(0);
    expect(w.fundedDecision?.funded_by_sells?.currency).toBe("USD");
    expect(w.outcome).toMatchObject({ outcome: "placed", placed_quantity: w.fundedDecision?.order.quantity });
    expect(w.order).toEqual(["SELL", "second wave", "BUY"]);
    // The second wave continues the first's client order ids.
    expect(w.placed.map((p) => p.client_order_id.split("-").pop())).toEqual(["0", "1"]);
    expect(ofType(events, "order.filled").map((f) => f.side)).toEqual(["SELL", "BUY"]);
    const j = await journalOf(home);
    expect(j.fundedBuy(summary.runId, w.fundedDecision?.index ?? -1)?.outcome).toBe("placed");
    expect(j.cash()).toBeGreaterThanOrEqual(0);
    await expectAgreement(home);
  });

  it("the sell filling short: the buy is shrunk to what the cash received allows (whole shares, limit unchanged)", async () => {
    const { home, held } = await simHomeHolding();
    const third = Math.floor(held / 3);
    const { summary, events } = await runIn(home, withModel(rebalance, { patch: (svc) => svc.sim?.inject({ kind: "partial_next", quantity: third }) }));
    expect(summary, summary.message).toMatchObject({ exitCode: 0, outcome: "executed" });
    const w = waves(events);
    const approvedQty = w.fundedDecision?.order.quantity ?? 0;
    expect(w.outcome?.outcome).toBe("shrunk");
    expect(w.outcome?.placed_quantity).toBeGreaterThan(0);
    expect(w.outcome?.placed_quantity).toBeLessThan(approvedQty);
    expect(w.outcome?.reason).toMatch(new RegExp(`SELL ${held} \\w+: ${third} filled`));
    const buy = w.placed.find((p) => p.side === "BUY");
    expect(buy).toMatchObject({ quantity: w.outcome?.placed_quantity, limit_price: w.fundedDecision?.order.limit_price });
    const j = await journalOf(home);
    expect(j.cash()).toBeGreaterThanOrEqual(0);
    expect(j.fundedBuy(summary.runId, w.fundedDecision?.index ?? -1)).toMatchObject({ outcome: "shrunk", placed_quantity: w.outcome?.placed_quantity });
    await expectAgreement(home);
  });

  it("the sell not filling: the buy is dropped, the reason recorded and shown; nothing is bought on margin", async () => {
    const { home, held } = await simHomeHolding();
    const { summary, events } = await runIn(home, withModel(rebalance, { patch: (svc) => svc.sim?.inject({ kind: "partial_next", quantity: 0 }) }));
    expect(summary.exitCode, summary.message).toBe(0);
    const w = waves(events);
    expect(w.outcome).toMatchObject({ outcome: "dropped", placed_quantity: 0 });
    expect(w.outcome?.reason).toMatch(
      new RegExp(`the cash received does not pay for one share \\(SELL ${held} \\w+: 0 filled \\((cancelled|expired)\\)\\): insufficient_cash`),
    );
    expect(w.placed.map((p) => p.side)).toEqual(["SELL"]);
    const j = await journalOf(home);
    expect(j.fundedBuy(summary.runId, w.fundedDecision?.index ?? -1)?.outcome).toBe("dropped");
    await expectAgreement(home);
  });

  it("killed between the waves: the funded buy is never sent; the next run records it as not placed and journal verify passes", async () => {
    const { home } = await simHomeHolding();
    let crashedRun = "";
    await crashBetweenWaves(home, (id) => {
      crashedRun = id;
    });
    const next = await runIn(home, withModel(hold));
    expect(next.summary, next.summary.message).toMatchObject({ exitCode: 0 });
    const notPlaced = ofType(next.events, "order.funded_buy");
    expect(notPlaced).toHaveLength(1);
    expect(notPlaced[0]).toMatchObject({ from_run: crashedRun, outcome: "not_placed", placed_quantity: 0 });
    expect(ofType(next.events, "order.placed")).toEqual([]);
    const j = await journalOf(home);
    expect(j.fundedBuy(crashedRun, notPlaced[0]?.index ?? -1)?.outcome).toBe("not_placed");
    expect(j.unsettledFundedBuys()).toEqual([]);
    await expectAgreement(home);
    // Once recorded, a later run says nothing more about it.
    const later = await runIn(home, withModel(hold));
    expect(ofType(later.events, "order.funded_buy")).toEqual([]);
  });
});

/**
 * A run stopped for good between the waves (the state a SIGKILL there leaves): the first wave is
 * settled, the funded buy's outcome is never written and nothing more is sent.
 */
async function crashBetweenWaves(home: string, onRun: (runId: string) => void, env?: NodeJS.ProcessEnv): Promise<void> {
  let crashed = () => {};
  const hit = new Promise<void>((resolve) => {
    crashed = resolve;
  });
  const never = new Promise<never>(() => {});
  const run = runIn(
    home,
    withModel(rebalance, {
      ...(env ? { env } : {}),
      patch: (svc) => {
        svc.journal.recordFundedBuy = async (r) => {
          onRun(r.run_id);
          crashed();
          return never;
        };
      },
    }),
  );
  await Promise.race([hit, run.then((r) => Promise.reject(new Error(`the run ended (${r.summary.outcome}: ${r.summary.message}) before the second wave`)))]);
}

const fake = fakeAlpacaForFile({ key: KEY, secret: SECRET });

/** An Alpaca home holding AAA bought with (almost) all the cash. */
async function alpacaHolding() {
  fake.reset();
  for (const s of SYMBOLS) fake.fillAtLimit.add(s);
  const home = alpacaHome(fake);
  appendFileSync(join(home, "tradewarden.toml"), "\n[limits]\nmax_position_pct = 100\n");
  const first = await runIn(home, withModel(allIn, { env: ALPACA_ENV }));
  expect(first.summary, first.summary.message).toMatchObject({ exitCode: 0, outcome: "executed" });
  const [symbol, h] = Object.entries((await journalOf(home, ALPACA_ENV)).holdings())[0] ?? ["", { quantity: 0 }];
  expect(symbol).toBe("AAA");
  return { home, held: h.quantity };
}

describe("two-wave execution against the loopback Alpaca fake", () => {
  it("a rebalance in one run: SELL AAA, then BUY BBB with its proceeds", async () => {
    const { home } = await alpacaHolding();
    const { summary, events } = await runIn(home, withModel(rebalance, { env: ALPACA_ENV }));
    expect(summary, summary.message).toMatchObject({ exitCode: 0, outcome: "executed" });
    const w = waves(events);
    expect(w.fundedDecision?.funded_by_sells?.amount_minor).toBeGreaterThan(0);
    expect(w.outcome?.outcome).toBe("placed");
    expect(w.order).toEqual(["SELL", "second wave", "BUY"]);
    // The buy reached the broker only after the sell: the POSTs in that order.
    expect(fake.posts().map((p) => JSON.parse(p.body).side)).toEqual(["buy", "sell", "buy"]);
    expect(postedOnce(fake)).toBe(true);
    await expectAgreement(home, ALPACA_ENV);
  });

  it("the sell filling short: the buy shrunk", async () => {
    const { home, held } = await alpacaHolding();
    fake.partialAtLimit.set("AAA", Math.floor(held / 3));
    const { summary, events } = await runIn(home, withModel(rebalance, { env: ALPACA_ENV }));
    expect(summary.exitCode, summary.message).toBe(0);
    const w = waves(events);
    expect(w.outcome?.outcome).toBe("shrunk");
    expect(w.outcome?.placed_quantity).toBeGreaterThan(0);
    expect(w.outcome?.placed_quantity).toBeLessThan(w.fundedDecision?.order.quantity ?? 0);
    const lastPost = JSON.parse(fake.posts().at(-1)?.body ?? "{}");
    expect(lastPost).toMatchObject({ symbol: "BBB", side: "buy", qty: String(w.outcome?.placed_quantity) });
    await expectAgreement(home, ALPACA_ENV);
  });

  it("the sell not filling: the buy dropped, never posted", async () => {
    const { home } = await alpacaHolding();
    fake.fillAtLimit.delete("AAA");
    const { summary, events } = await runIn(home, withModel(rebalance, { env: ALPACA_ENV }));
    expect(summary.exitCode, summary.message).toBe(0);
    expect(waves(events).outcome?.outcome).toBe("dropped");
    expect(fake.posts().map((p) => JSON.parse(p.body).side)).toEqual(["buy", "sell"]);
    await expectAgreement(home, ALPACA_ENV);
  });

  it("killed between the waves: the next run posts nothing, records the buy as not placed; journal verify passes", async () => {
    const { home } = await alpacaHolding();
    let crashedRun = "";
    await crashBetweenWaves(
      home,
      (id) => {
        crashedRun = id;
      },
      ALPACA_ENV,
    );
    const posts = fake.posts().length;
    const next = await runIn(home, withModel(hold, { env: ALPACA_ENV }));
    expect(next.summary, next.summary.message).toMatchObject({ exitCode: 0 });
    expect(ofType(next.events, "order.funded_buy")[0]).toMatchObject({ from_run: crashedRun, outcome: "not_placed" });
    expect(fake.posts()).toHaveLength(posts);
    await expectAgreement(home, ALPACA_ENV);
  });
});
