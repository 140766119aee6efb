/**
 * Gate arithmetic on hostile numbers (issue #13): every number is checked finite and in range before
 * any arithmetic; each failure has its own code; the gate checks exactly what brokers will.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { GateOrder, GateResult, GateState, Limits } from "../../src/core/gate-types.js";
import { evaluate } from "../../src/gate/evaluate.js";
import { cleanupHomes, freshHome, text, twIn } from "../e2e/helpers.js";
import { buy, LIMITS, MARKET, sell, state, UNIVERSE } from "./helpers.js";

afterAll(cleanupHomes);

const run = (orders: GateOrder[], st: GateState = state(), limits: Partial<Limits> = {}): GateResult =>
  evaluate(orders, st, MARKET, { ...LIMITS, ...limits }, UNIVERSE);
const codes = (r: GateResult, i = 0) => r.decisions[i]?.reasons.map((x) => x.code) ?? [];

describe("numbers in range before arithmetic", () => {
  it("a 1e308 holding blocks every order (it was 'drawdown NaN; not tripped' and approved)", () => {
    const r = run([buy("AAA", 1, 10)], state({ holdings: { BBB: { quantity: 1e308 } } }));
    expect(r.decisions[0]?.approved).toBe(false);
    expect(codes(r)).toEqual(["number_out_of_range"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain("holdings.BBB.quantity 1e+308");
  });

  it("a 1e308 quantity is out of range (it showed notional 0.00)", () => {
    const r = run([buy("AAA", 1e308, 10)]);
    expect(codes(r)).toEqual(["number_out_of_range"]);
    expect(r.decisions[0]?.reasons[0]?.message).toMatch(/quantity 1e\+308 is beyond 1000000000000000/);
  });

  it("a negative limit price has its own code, not limit_price_required", () => {
    expect(codes(run([buy("AAA", 1, -10)]))).toEqual(["non_positive_limit_price"]);
    expect(codes(run([buy("AAA", 1, null as unknown as number)]))).toEqual(["limit_price_required"]);
  });

  it("negative (short) holdings are refused for every order, sells included", () => {
    const r = run([sell("AAA", 1, 10), buy("BBB", 1, 20)], state({ holdings: { AAA: { quantity: -5 } } }));
    expect(r.decisions.map((d) => d.approved)).toEqual([false, false]);
    expect(codes(r, 0)).toEqual(["number_out_of_range"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain("holdings.AAA.quantity -5 must be in [0,");
  });

  it("limits out of range block everything, naming the limit", () => {
    const r = run([buy("AAA", 1, 10)], state(), { max_position_pct: -5 });
    expect(codes(r)).toEqual(["number_out_of_range"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain("limits.max_position_pct -5 must be in (0, 100]");
  });

  it("a non-finite intermediate blocks with its own code", () => {
    // A peak of Infinity is not NaN, so the old checks let it through and the drawdown came out NaN.
    const r = run([buy("AAA", 1, 10)], state({ peak: Number.POSITIVE_INFINITY }));
    expect(r.decisions[0]?.approved).toBe(false);
    expect(codes(r)).toEqual(["non_finite_result"]);
    expect(r.decisions[0]?.reasons[0]?.message).toContain("drawdown (NaN) is not finite");
  });
});

describe("exactly what brokers check", () => {
  it("no fractional slack: 10.0000000001 shares is not whole", () => {
    expect(codes(run([buy("AAA", 10.0000000001, 10)]))).toEqual(["fractional_quantity"]);
    expect(run([buy("AAA", 10, 10)]).decisions[0]?.approved).toBe(true);
  });

  it("the limit price must sit on the instrument's tick (default 0.01)", () => {
    expect(codes(run([buy("AAA", 1, 10.005)]))).toEqual(["tick_size"]);
    expect(run([buy("AAA", 1, 10.1)]).decisions[0]?.approved).toBe(true);
    // EUR1 has a 0.05 tick
    const eur = (limit: number) => evaluate([buy("EUR1", 1, limit)], state(), MARKET, LIMITS, UNIVERSE);
    expect(codes(eur(100.02))).toEqual(["tick_size"]);
    expect(eur(100.05).decisions[0]?.approved).toBe(true);
  });
});

describe("gate check --scenario keeps its JSON shape on hostile numbers", () => {
  it("a 1e308 holding through the CLI's entry (src/cli.tsx main): exit 0, blocked, same keys as a clean scenario", async () => {
    const home = freshHome();
    const scenario = {
      universe: [{ symbol: "AAA", currency: "USD" }],
      market: { AAA: { price: 100 } },
      portfolio: { cash: 10_000, holdings: { AAA: { quantity: 1e308 } }, peak: 10_000 },
      orders: [{ symbol: "AAA", side: "BUY", quantity: 1, limit_price: 100 }],
    };
    const file = join(home, "s.json");
    writeFileSync(file, JSON.stringify(scenario));
    const r = await twIn(home, ["gate", "check", "--scenario", file, "--json"]);
    expect(r.exitCode, text(r)).toBe(0);
    const out = JSON.parse(String(r.stdout)) as { decisions: { approved: boolean; reasons: { code: string }[] }[] };
    const clean = await twIn(home, ["gate", "check", "--scenario", join(import.meta.dirname, "../../data/scenarios/clean-buy.json"), "--json"]);
    expect(Object.keys(out).sort()).toEqual(Object.keys(JSON.parse(String(clean.stdout)) as object).sort());
    expect(out.decisions[0]?.approved).toBe(false);
    expect(out.decisions[0]?.reasons.map((x) => x.code)).toEqual(["number_out_of_range"]);
  }, 60_000);
});
