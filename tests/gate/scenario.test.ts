import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cmdGateCheck } from "../../src/commands/gate-check.js";
import type { CommandIO } from "../../src/commands/io.js";

const DIR = join(import.meta.dirname, "..", "..", "data", "scenarios");

function capture(): CommandIO & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    env: {},
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
  };
  return io;
}

async function json(file: string) {
  const io = capture();
  const code = await cmdGateCheck({ scenario: join(DIR, file), json: true }, io);
  expect(code).toBe(0);
  expect(io.err).toBe("");
  return JSON.parse(io.out);
}

type Decision = { order: { symbol: string; side: string }; approved: boolean; reasons: { code: string; message: string }[] };
const summary = (out: { decisions: Decision[] }) => out.decisions.map((d) => [d.order.symbol, d.approved, d.reasons.map((r) => r.code)]);

describe("gate check --scenario (shipped examples)", () => {
  it("clean-buy: approved, the public shape exactly", async () => {
    const out = await json("clean-buy.json");
    expect(Object.keys(out)).toEqual(["decisions", "portfolio_after", "drawdown_pct", "kill_switch"]);
    expect(Object.keys(out.decisions[0])).toEqual(["index", "order", "approved", "reasons", "notional", "commission"]);
    expect(out.decisions[0]).toMatchObject({ index: 0, approved: true, reasons: [], notional: 1005, commission: 1 });
    expect(out.decisions[0].order).toMatchObject({ symbol: "AAA", side: "BUY", quantity: 10, limit_price: 100.5 });
    expect(out.portfolio_after).toEqual({
      cash: 8994,
      holdings: { BBB: { quantity: 20 }, AAA: { quantity: 10 } },
      orders_this_month: 3,
    });
    expect(out.kill_switch).toBe(false);
    expect(out.drawdown_pct).toBe(0);
  });
  it("joint-cash: the sell goes first, the second buy breaks the cash jointly", async () => {
    const out = await json("joint-cash.json");
    expect(summary(out)).toEqual([
      ["CCC", true, []],
      ["AAA", true, []],
      ["BBB", false, ["insufficient_cash"]],
    ]);
    // Evaluated order (the sell first); each decision names its order's position in the scenario.
    expect(out.decisions.map((d: { index: number }) => d.index)).toEqual([2, 0, 1]);
    expect(out.portfolio_after.cash).toBe(548);
  });
  it("halted: everything blocked", async () => {
    const out = await json("halted.json");
    expect(summary(out)).toEqual([
      ["AAA", false, ["trading_halted"]],
      ["AAA", false, ["trading_halted"]],
    ]);
    expect(out.decisions.map((d: { index: number }) => d.index)).toEqual([0, 1]);
    expect(out.portfolio_after.orders_this_month).toBe(1);
  });
  it("fat-finger: price band and friends accumulate; exchange and duplicate", async () => {
    const out = await json("fat-finger.json");
    expect(summary(out)).toEqual([
      ["AAA", false, ["price_band", "max_order_notional", "insufficient_cash", "position_limit"]],
      ["AAA", false, ["wrong_exchange", "duplicate_order"]],
    ]);
    expect(out.decisions[0].reasons[0].message).toBe("limit 5.50 is 10.00% from price 5.00 (max 2%)");
  });
  it("multi-currency: notional in the base currency", async () => {
    const out = await json("multi-currency.json");
    expect(summary(out)).toEqual([
      ["SAP", true, []],
      ["SHOP", true, []],
    ]);
    expect(out.decisions[0].notional).toBe(5864.4);
    expect(out.decisions[1].notional).toBe(5898.4);
    expect(out.portfolio_after.cash).toBe(8231.2);
  });
  it("prints a readable table by default", async () => {
    const io = capture();
    expect(await cmdGateCheck({ scenario: join(DIR, "fat-finger.json"), json: false }, io)).toBe(0);
    expect(io.out).toContain("BLOCKED");
    expect(io.out).toContain("#1 AAA price_band: limit 5.50 is 10.00% from price 5.00 (max 2%)");
    expect(io.out).toContain("0 approved, 2 blocked of 2 order(s).");
  });
});

describe("gate check --scenario (invalid input)", () => {
  const dir = mkdtempSync(join(tmpdir(), "tw-scenario-"));
  const write = (name: string, content: string) => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };
  it("names every problem with its path and returns 2", async () => {
    const p = write(
      "bad.json",
      JSON.stringify({
        limits: { max_position_pct: 150, bogus: 1 },
        universe: [{ symbol: "AAA" }],
        market: { AAA: { price: "ten" } },
        portfolio: { holdings: { AAA: { quantity: 1 } }, trading_state: "PAUSED" },
        orders: [{ symbol: "AAA", side: "BUY" }],
      }),
    );
    const io = capture();
    expect(await cmdGateCheck({ scenario: p, json: true }, io)).toBe(2);
    expect(io.out).toBe("");
    for (const needle of [
      "$.limits.max_position_pct: must be in (0, 100], got 150",
      "$.limits.bogus: unknown key",
      "$.universe[0].currency: missing required key",
      '$.market.AAA.price: must be a number, got "ten"',
      "$.portfolio.cash: missing required key",
      "$.portfolio.trading_state: must be one of",
      "$.orders[0].quantity: missing required key",
    ]) {
      expect(io.err).toContain(needle);
    }
  });
  it("refuses a holding without any price, and a symbol on two exchanges", async () => {
    const p = write(
      "semantic.json",
      JSON.stringify({
        universe: [
          { symbol: "AAA", currency: "USD", exchange: "NYSE" },
          { symbol: "aaa", currency: "USD", exchange: "ARCA" },
        ],
        market: {},
        portfolio: { cash: 1, holdings: { BBB: { quantity: 1 } } },
        orders: [],
      }),
    );
    const io = capture();
    expect(await cmdGateCheck({ scenario: p, json: false }, io)).toBe(2);
    expect(io.err).toContain("$.universe[1].symbol: symbol AAA is on two exchanges");
    expect(io.err).toContain("$.portfolio.holdings.BBB: holding BBB has no price");
  });
  it("returns 2 for a missing file or malformed JSON", async () => {
    const io = capture();
    expect(await cmdGateCheck({ scenario: join(dir, "nope.json"), json: false }, io)).toBe(2);
    expect(io.err).toContain("cannot read scenario");
    const io2 = capture();
    expect(await cmdGateCheck({ scenario: write("broken.json", "{ nope"), json: false }, io2)).toBe(2);
    expect(io2.err).toContain("is not valid JSON");
  });
  it("defaults: limits, fx 1, commission 0, lower-case side", async () => {
    const p = write(
      "min.json",
      JSON.stringify({
        universe: [{ symbol: "aaa", currency: "usd" }],
        market: { aaa: { price: 10 } },
        portfolio: { cash: 1000 },
        orders: [{ symbol: "AAA", side: "buy", quantity: 25, limit_price: 10 }],
      }),
    );
    const io = capture();
    expect(await cmdGateCheck({ scenario: p, json: true }, io)).toBe(0);
    const out = JSON.parse(io.out);
    expect(out.decisions[0]).toMatchObject({ approved: true, notional: 250, commission: 0 });
    expect(out.portfolio_after).toEqual({ cash: 750, holdings: { AAA: { quantity: 25 } }, orders_this_month: 1 });
  });
});
