import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commissionFor } from "../../src/broker/commission.js";
import { BrokerError } from "../../src/broker/errors.js";
import { assertPaperAccount, assertPaperEndpoint, GuardedBroker } from "../../src/broker/guard.js";
import { SimBroker } from "../../src/broker/simulated.js";
import { fillPrice } from "../../src/broker/simulated-engine.js";
import { readSimState, writeSimState } from "../../src/broker/simulated-store.js";
import { cmdSimReset, cmdSimStatus } from "../../src/commands/simulated-broker.js";
import type { CommandIO } from "../../src/commands/io.js";
import type { SimBrokerConfig } from "../../src/config/types.js";
import type { Bar } from "../../src/core/domain.js";
import { MarketData } from "../../src/market/data.js";
import { homePaths } from "../../src/util/paths.js";

const cfg: SimBrokerConfig = { participation_pct: 10, commission_per_share: 0.01, commission_min: 1, commission_max_pct: 1, start_date: null };
const b = (date: string, open: number, high: number, low: number, close: number, volume = 100_000): Bar => ({ date, open, high, low, close, volume });

// Three days of history, then the trading days under test.
const market = MarketData.fromBars({
  AAA: [
    b("2020-01-02", 10, 10, 10, 10),
    b("2020-01-03", 10, 10, 10, 10),
    b("2020-01-06", 10, 10, 10, 10),
    b("2020-01-07", 10, 10.5, 9.5, 10.2, 5_000), // day 1: low 9.50, high 10.50, 500 shares participation
    b("2020-01-08", 9.0, 9.8, 8.8, 9.5, 100_000), // day 2: gap down open 9.00
    b("2020-01-09", 11.0, 11.4, 10.9, 11.2, 100_000), // day 3: gap up open 11.00
  ],
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function home() {
  const d = mkdtempSync(join(tmpdir(), "tw-sim-"));
  dirs.push(d);
  return d;
}
function open(opts: { path?: string; closeAfterWork?: boolean } = {}) {
  return SimBroker.open({ market, config: cfg, start: "2020-01-07", ...opts });
}
let seq = 0;
const order = (side: "BUY" | "SELL", quantity: number, limit_price: number, symbol = "AAA") => ({
  client_order_id: `t-${++seq}`,
  symbol,
  side,
  quantity,
  limit_price,
});

describe("fill price rules", () => {
  const bar = b("d", 10, 10.5, 9.5, 10.2);
  it("buys at the open when the open is at or below the limit, else at the limit when the low reaches it", () => {
    expect(fillPrice("BUY", 10.1, bar)).toBe(10);
    expect(fillPrice("BUY", 10, bar)).toBe(10);
    expect(fillPrice("BUY", 9.8, bar)).toBe(9.8);
    expect(fillPrice("BUY", 9.5, bar)).toBe(9.5); // exactly the low
    expect(fillPrice("BUY", 9.49, bar)).toBeUndefined();
  });
  it("sells at the open when the open is at or above the limit, else at the limit when the high reaches it", () => {
    expect(fillPrice("SELL", 9.9, bar)).toBe(10);
    expect(fillPrice("SELL", 10.3, bar)).toBe(10.3);
    expect(fillPrice("SELL", 10.5, bar)).toBe(10.5); // exactly the high
    expect(fillPrice("SELL", 10.51, bar)).toBeUndefined();
  });
});

describe("commission schedule", () => {
  it("is per share with a minimum, capped at a share of the value", () => {
    expect(commissionFor(cfg, 50, 500)).toBe(1); // 0.50 per share → the minimum 1.00
    expect(commissionFor(cfg, 400, 4000)).toBe(4); // 0.01 × 400
    expect(commissionFor(cfg, 10, 50)).toBe(0.5); // min 1.00 capped at 1% of 50
    expect(commissionFor(cfg, 0, 0)).toBe(0);
  });
});

describe("simulated paper broker", () => {
  it("has a paper account and a clock over the calendar; each day is played once", async () => {
    const s = open();
    const acct = await s.account();
    expect(acct.account_id).toMatch(/^SIM-PAPER-[0-9A-F]{8}$/);
    expect(acct.paper).toBe(true);
    expect((await s.clock()).isOpen).toBe(false);
    expect((await s.clock()).tradingDay).toBe("2020-01-07");
    await expect(s.placeLimitDayOrder(order("BUY", 1, 10))).rejects.toMatchObject({ code: "market_closed" });
    expect(s.beginDay()).toBe("2020-01-07");
    expect(await s.clock()).toMatchObject({ tradingDay: "2020-01-07", isOpen: true });
    expect(s.beginDay()).toBe("2020-01-08");
    expect(s.beginDay()).toBe("2020-01-09");
    expect(() => s.beginDay()).toThrow(BrokerError);
    expect(s.snapshot().played_days).toEqual(["2020-01-07", "2020-01-08"]);
    s.endDay();
    expect(s.snapshot().played_days).toEqual(["2020-01-07", "2020-01-08", "2020-01-09"]);
  });

  it("fills a buy at a gap-down open and a sell at a gap-up open, with commission and cash", async () => {
    const s = open();
    s.beginDay();
    s.beginDay(); // 2020-01-08: open 9.00
    const ack = await s.placeLimitDayOrder(order("BUY", 100, 9.4));
    expect(ack.status).toBe("accepted");
    const o = await s.orderByClientId(ack.client_order_id);
    expect(o).toMatchObject({ status: "filled", filled_quantity: 100, avg_fill_price: 9 });
    const fills = await s.fills(ack.broker_order_id);
    expect(fills).toEqual([expect.objectContaining({ quantity: 100, price: 9, commission: 1 })]);
    expect((await s.account()).cash).toBe(100_000 - 900 - 1);
    expect(await s.positions()).toEqual([{ symbol: "AAA", quantity: 100, avg_cost: 9.01 }]);
    s.beginDay(); // 2020-01-09: open 11.00
    await s.placeLimitDayOrder(order("SELL", 100, 10.95));
    expect(await s.positions()).toEqual([]);
    expect((await s.account()).cash).toBe(100_000 - 901 + 1100 - 1);
  });

  it("fills partially by the participation cap; the close expires the rest", async () => {
    const s = open();
    s.beginDay(); // 2020-01-07: volume 5,000 → 500 shares
    const ack = await s.placeLimitDayOrder(order("BUY", 800, 9.5));
    expect(await s.orderByClientId(ack.client_order_id)).toMatchObject({ status: "partially_filled", filled_quantity: 500, avg_fill_price: 9.5 });
    const second = await s.placeLimitDayOrder(order("BUY", 10, 9.6));
    expect(await s.orderByClientId(second.client_order_id)).toMatchObject({ status: "accepted", filled_quantity: 0 }); // the cap is shared
    expect((await s.openOrders()).length).toBe(2);
    s.endDay();
    expect(await s.orderByClientId(ack.client_order_id)).toMatchObject({ status: "expired", filled_quantity: 500 });
    expect(await s.openOrders()).toEqual([]);
    expect((await s.fills(ack.broker_order_id)).reduce((a, f) => a + f.commission, 0)).toBe(5);
  });

  it("does not fill a limit the day never reaches; cancel returns the final state", async () => {
    const s = open();
    s.beginDay();
    const buy = await s.placeLimitDayOrder(order("BUY", 10, 9.49));
    expect((await s.cancel(buy.broker_order_id)).status).toBe("cancelled");
    const filled = await s.placeLimitDayOrder(order("BUY", 10, 10));
    expect((await s.cancel(filled.broker_order_id)).status).toBe("filled"); // cancel after fill
  });

  it("refuses duplicates, bad orders, more than the cash, and short sales", async () => {
    const s = open();
    s.beginDay();
    const o = order("BUY", 1, 10);
    await s.placeLimitDayOrder(o);
    await expect(s.placeLimitDayOrder(o)).rejects.toMatchObject({ code: "duplicate_client_order_id" });
    await expect(s.placeLimitDayOrder(order("BUY", 1.5, 10))).rejects.toMatchObject({ code: "order_rejected" });
    await expect(s.placeLimitDayOrder(order("BUY", 1, 10.001))).rejects.toMatchObject({ code: "order_rejected" });
    await expect(s.placeLimitDayOrder(order("BUY", 1, 10, "ZZZ"))).rejects.toMatchObject({ code: "order_rejected" });
    await expect(s.placeLimitDayOrder(order("BUY", 20_000, 10))).rejects.toMatchObject({ code: "order_rejected" });
    await expect(s.placeLimitDayOrder(order("SELL", 2, 9))).rejects.toMatchObject({ code: "order_rejected" });
  });

  it("a fill from a book older than commission_currency reports the book's currency", async () => {
    const h = home();
    const path = homePaths(h).sim;
    const s = open({ path });
    s.beginDay();
    const ack = await s.placeLimitDayOrder(order("BUY", 10, 10));
    const book = readSimState(path);
    if (!book) throw new Error("no book written");
    for (const f of book.fills) delete f.commission_currency;
    writeSimState(path, book);
    const again = SimBroker.open({ market, config: cfg, path });
    const fills = await again.fills(ack.broker_order_id);
    expect(fills).toHaveLength(1);
    expect(fills[0]?.commission_currency).toBe("USD");
  });

  it("persists its book atomically and reloads it", async () => {
    const h = home();
    const path = homePaths(h).sim;
    const s = open({ path });
    s.beginDay();
    const ack = await s.placeLimitDayOrder(order("BUY", 10, 10));
    const again = SimBroker.open({ market, config: cfg, path });
    expect((await again.account()).account_id).toBe((await s.account()).account_id);
    expect(await again.positions()).toEqual(await s.positions());
    expect(await again.fills(ack.broker_order_id)).toHaveLength(1);
    await expect(again.placeLimitDayOrder({ ...order("BUY", 1, 10), client_order_id: ack.client_order_id })).rejects.toMatchObject({
      code: "duplicate_client_order_id",
    });
  });

  it("keeps order operations in an append-only log: a torn last line is ignored, a day change compacts it", async () => {
    const h = home();
    const path = homePaths(h).sim;
    const s = open({ path });
    s.beginDay();
    await s.placeLimitDayOrder(order("BUY", 10, 10));
    appendFileSync(`${path}.log`, '{"gen":1,"orders":[{"broker_or'); // crash mid-write
    const reloaded = SimBroker.open({ market, config: cfg, path });
    expect((await reloaded.positions())[0]?.quantity).toBe(10);
    expect((await reloaded.account()).cash).toBe((await s.account()).cash);
    reloaded.endDay();
    expect(existsSync(`${path}.log`)).toBe(false);
    const after = SimBroker.open({ market, config: cfg, path });
    expect(after.snapshot().played_days).toEqual(["2020-01-07"]);
    expect(after.snapshot().orders).toHaveLength(1);
  });

  for (const keepClosedOrders of [true, false]) {
    it(`a many-day simulation logs its day changes between snapshots and every reload equals the live book (keepClosedOrders ${keepClosedOrders})`, async () => {
      const h = home();
      const path = homePaths(h).sim;
      const live = SimBroker.open({ market, config: cfg, start: "2020-01-07", path, snapshotEvery: 4, keepClosedOrders });
      const reloaded = () => {
        const { gen: _a, ...book } = SimBroker.open({ market, config: cfg, path }).snapshot();
        return book;
      };
      const liveBook = () => {
        const { gen: _b, ...book } = live.snapshot();
        return book;
      };
      const gens = new Set<number | undefined>();
      for (const day of ["2020-01-07", "2020-01-08", "2020-01-09"]) {
        expect(live.beginDay()).toBe(day);
        expect(reloaded()).toEqual(liveBook());
        await live.placeLimitDayOrder(order("BUY", 5, 12)); // fills at the open
        await live.placeLimitDayOrder(order("BUY", 5, 1)); // never reached: expires at the close
        expect(reloaded()).toEqual(liveBook());
        live.endDay();
        expect(reloaded()).toEqual(liveBook());
        gens.add(live.snapshot().gen);
      }
      // Six day changes with a snapshot every fourth: the log carried the rest, then was compacted.
      expect(gens.size).toBe(2);
      expect(liveBook().played_days).toEqual(["2020-01-07", "2020-01-08", "2020-01-09"]);
      expect(liveBook().orders).toHaveLength(keepClosedOrders ? 6 : 0);
      if (keepClosedOrders) expect(liveBook().orders.filter((o) => o.status === "expired")).toHaveLength(3);
      expect(existsSync(`${path}.log`)).toBe(true);
      live.checkpoint();
      expect(existsSync(`${path}.log`)).toBe(false);
      expect(reloaded()).toEqual(liveBook());
    });
  }
  it("injects faults: reject, partial, fill during cancel, timeout after accept, unreachable", async () => {
    const s = open();
    s.beginDay();
    s.inject({ kind: "reject_next" });
    await expect(s.placeLimitDayOrder(order("BUY", 10, 10))).rejects.toMatchObject({ code: "order_rejected" });
    s.inject({ kind: "partial_next", quantity: 3 });
    const p = await s.placeLimitDayOrder(order("BUY", 10, 10));
    expect(await s.orderByClientId(p.client_order_id)).toMatchObject({ status: "partially_filled", filled_quantity: 3 });
    s.inject({ kind: "fill_during_cancel", settle_polls: 1 });
    const f = await s.placeLimitDayOrder(order("BUY", 5, 10));
    expect(await s.orderByClientId(f.client_order_id)).toMatchObject({ status: "accepted", filled_quantity: 0 });
    expect(await s.cancel(f.broker_order_id)).toMatchObject({ status: "filled", filled_quantity: 5 });
    expect(await s.fills(f.broker_order_id)).toEqual([]); // still settling
    expect(await s.fills(f.broker_order_id)).toHaveLength(1);
    s.inject({ kind: "timeout_after_accept" });
    const t = order("BUY", 2, 10);
    await expect(s.placeLimitDayOrder(t)).rejects.toMatchObject({ code: "timeout" });
    expect(await s.orderByClientId(t.client_order_id)).toMatchObject({ status: "filled" });
    s.inject({ kind: "unreachable", calls: 2 });
    await expect(s.account()).rejects.toMatchObject({ code: "broker_unreachable" });
    await expect(s.positions()).rejects.toMatchObject({ code: "broker_unreachable" });
    await expect(s.account()).resolves.toBeDefined();
  });
});

describe("paper guard", () => {
  it("refuses live endpoints and non-paper accounts", async () => {
    expect(() => assertPaperEndpoint({ kind: "alpaca", url: "https://api.alpaca.markets", paper: true })).toThrow(/only https:\/\/paper-api/);
    expect(() => assertPaperEndpoint({ kind: "alpaca", url: "https://paper-api.alpaca.markets", paper: false })).toThrow(/non-paper/);
    expect(() => assertPaperEndpoint({ kind: "alpaca", url: "https://paper-api.alpaca.markets", paper: true })).not.toThrow();
    expect(() => assertPaperEndpoint({ kind: "alpaca", url: "http://127.0.0.1:9999", paper: true })).toThrow();
    expect(() => assertPaperEndpoint({ kind: "alpaca", url: "http://127.0.0.1:9999", paper: true }, { allowLoopback: true })).not.toThrow();
    const acct = { account_id: "SIM-PAPER-ABCD1234", paper: true, cash: 1, currency: "USD", status: "ACTIVE", trading_blocked: false };
    expect(() => assertPaperAccount({ kind: "sim", url: "sim:x", paper: true }, acct)).not.toThrow();
    expect(() => assertPaperAccount({ kind: "sim", url: "sim:x", paper: true }, { ...acct, paper: false })).toThrow();
    expect(() => assertPaperAccount({ kind: "alpaca", url: "https://paper-api.alpaca.markets", paper: true }, acct)).toThrow();
    const g = new GuardedBroker(open());
    expect((await g.connect()).paper).toBe(true);
  });
});

describe("sim commands", () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    const c: CommandIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
    return { c, out: () => out.join(""), err: () => err.join("") };
  };
  it("resets to a start day and reports the status", async () => {
    const h = home();
    const a = io();
    expect(cmdSimStatus({ home: h, market }, a.c)).toBe(0);
    expect(a.out()).toContain("no simulated broker yet");
    const r = io();
    expect(cmdSimReset({ home: h, market, start: "2020-01-08" }, r.c)).toBe(0);
    expect(r.out()).toMatch(/created the simulated paper broker SIM-PAPER-[0-9A-F]{8}: cash 100,000.00 USD, first trading day 2020-01-08/);
    const s = SimBroker.open({ market, config: cfg, path: homePaths(h).sim });
    s.beginDay();
    await s.placeLimitDayOrder(order("BUY", 10, 9.5));
    s.endDay();
    const st = io();
    expect(cmdSimStatus({ home: h, market }, st.c)).toBe(0);
    expect(st.out()).toContain("last day played 2020-01-08");
    expect(st.out()).toMatch(/AAA\s+10/);
    const j = io();
    cmdSimStatus({ home: h, market, json: true }, j.c);
    expect(JSON.parse(j.out())).toMatchObject({ exists: true, days_played: 1, next_day: "2020-01-09", positions: { AAA: { quantity: 10 } } });
    const again = io();
    expect(cmdSimReset({ home: h, market }, again.c)).toBe(2); // default start 2007 is outside this tiny data set
    expect(again.err()).toContain("leaves no price history");
    expect(cmdSimReset({ home: h, market, start: "2020-02-30" }, io().c)).toBe(2);
    const fresh = io();
    expect(cmdSimReset({ home: h, market, start: "2020-01-07" }, fresh.c)).toBe(0);
    expect(fresh.out()).toContain("the journal was not changed");
  });
});
