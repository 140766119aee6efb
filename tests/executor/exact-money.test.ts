/**
 * Exact money in the simulated broker and the executor (issue #24): a 3-decimal account currency
 * (KWD) is charged and summed to the fils, not rounded to cents by a hand-written cents() helper.
 */
import { describe, expect, it } from "vitest";
import { SimBroker } from "../../src/broker/simulated.js";
import type { SimBrokerConfig } from "../../src/config/types.js";
import type { Bar } from "../../src/core/domain.js";
import type { Order } from "../../src/core/order.js";
import { execute } from "../../src/executor/execute.js";
import { MarketData } from "../../src/market/data.js";
import { FakeJournal } from "./fakes.js";

const b = (date: string, p: number): Bar => ({ date, open: p, high: p, low: p, close: p, volume: 1_000_000 });
const market = MarketData.fromBars({ AAA: [b("2020-01-02", 10), b("2020-01-03", 10), b("2020-01-06", 10), b("2020-01-07", 10)] });
// 0.0005 KWD a share, at least one fils: 10 shares cost 0.005 KWD commission.
const cfg: SimBrokerConfig = { participation_pct: 10, commission_per_share: 0.0005, commission_min: 0.001, commission_max_pct: 1, start_date: null };
const KWD = { base: "KWD", instrument: () => ({ currency: "KWD", fx_to_base: 1 }) };

describe("a KWD account", () => {
  it("pays and reports a 0.005 KWD commission to the fils", async () => {
    const sim = SimBroker.open({ market, config: cfg, start: "2020-01-06", pricing: KWD, cash: 1000, persistNew: false });
    sim.beginDay();
    let t = Date.UTC(2020, 0, 6, 15);
    const order: Order = { symbol: "AAA", side: "BUY", quantity: 10, limit_price: 10, currency: "KWD", fx_to_base: 1, liquidation: false };
    const journal = new FakeJournal();
    const r = await execute({
      runId: "r1",
      orders: [order],
      broker: sim,
      journal,
      config: { wait_s: 2, settle_s: 1, poll_ms: 100 },
      emit: () => {},
      now: () => t,
      sleep: async (ms: number) => void (t += Math.max(ms, 1)),
    });
    const o = r.results[0];
    expect(o?.status).toBe("filled");
    expect(o?.commission).toBe(0.005);
    expect(o?.avg_price).toBe(10);
    expect((await sim.account()).cash).toBe(899.995);
  });
});
