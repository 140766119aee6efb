import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { SimBroker } from "../src/broker/simulated.js";
import type { ExecutorJournal } from "../src/executor/types.js";
import { execute } from "../src/executor/execute.js";
import type { Order } from "../src/core/order.js";
import { MarketData } from "../src/market/data.js";

const market = MarketData.load({});
const config = { participation_pct: 10, commission_per_share: 0.005, commission_min: 1, commission_max_pct: 1, start_date: null };
const symbols = market.symbols().filter((s) => s !== "SPX");
const day = "2008-10-10";
const view = market.asOf(day);
// 1,000 orders: a mix of buys at and below the reference (some fill, some are cancelled).
const orders: Order[] = Array.from({ length: 1000 }, (_, i) => {
  const symbol = symbols[i % symbols.length]!;
  const ref = view.referencePrice(symbol)!.price;
  return {
    symbol,
    side: "BUY",
    quantity: 1 + (i % 7),
    limit_price: Math.round(ref * (i % 3 === 0 ? 0.9 : 1.02) * 100) / 100,
    currency: "USD",
    fx_to_base: 1,
    liquidation: false,
  };
});
const journal: ExecutorJournal = { recordOrderIntent() {}, recordOrderUpdate() {}, bookFill() {} };
// Instant sleep on a virtual clock: waiting costs no wall time, and the wait still ends.
function instant() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), emit: () => {} };
}
const exec = { wait_s: 120, settle_s: 15, poll_ms: 1000 };
const dir = mkdtempSync(join(tmpdir(), "tw-bench-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

// Budget: executing 1,000 orders on the simulated broker under 1 s.
describe("executor", () => {
  bench(
    "1,000 orders on the simulated broker (in memory)",
    async () => {
      const broker = SimBroker.open({ market, config, start: day, cash: 1e9 });
      broker.beginDay();
      await execute({ runId: `m${n++}`, orders, broker, journal, config: exec, ...instant() });
    },
    { iterations: 5, warmupIterations: 1 },
  );
  bench(
    "1,000 orders on the simulated broker (persisted to disk after every change)",
    async () => {
      const broker = SimBroker.open({ market, config, start: day, cash: 1e9, path: join(dir, `sim-${n++}.json`) });
      broker.beginDay();
      await execute({ runId: `f${n}`, orders, broker, journal, config: exec, ...instant() });
    },
    { iterations: 3, warmupIterations: 0 },
  );
});
