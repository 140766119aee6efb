import { describe, expect, it } from "vitest";
import type { Bar, Instrument } from "../../src/core/domain.js";
import { TradingCalendar } from "../../src/market/calendar.js";
import { MarketData } from "../../src/market/data.js";
import { summarizeHistory } from "../../src/market/summary.js";
import { makeMarketToolHandlers } from "../../src/tools/handlers/market.js";
import { loadUniverseCsv } from "../../src/market/universe.js";
import type { HandlerResult, ToolCallContext } from "../../src/tools/types.js";
import { checkedAll } from "../tools/checked.js";

const bar = (date: string, close: number, extra: Partial<Bar> = {}): Bar => ({ date, open: close, high: close, low: close, close, volume: 1000, ...extra });

function series(n: number, start = "2020-01-01", f: (i: number) => number = (i) => 100 + i): Bar[] {
  const out: Bar[] = [];
  const d = new Date(`${start}T00:00:00Z`);
  for (let i = 0; i < n; i++) {
    out.push(bar(d.toISOString().slice(0, 10), f(i)));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

const ctx = (tradingDay: string): ToolCallContext => ({ runId: "r1", tradingDay, seenEvidence: new Set(), pending: [] });

describe("trading calendar", () => {
  const cal = new TradingCalendar(["2020-01-06", "2020-01-02", "2020-01-03", "2020-01-02"]);
  it("is the sorted union of dates", () => {
    expect(cal.days).toEqual(["2020-01-02", "2020-01-03", "2020-01-06"]);
    expect(cal.first).toBe("2020-01-02");
    expect(cal.last).toBe("2020-01-06");
  });
  it("steps over non-trading days", () => {
    expect(cal.next("2020-01-03")).toBe("2020-01-06");
    expect(cal.next("2020-01-04")).toBe("2020-01-06");
    expect(cal.onOrAfter("2020-01-04")).toBe("2020-01-06");
    expect(cal.onOrAfter("2020-01-03")).toBe("2020-01-03");
    expect(cal.previous("2020-01-06")).toBe("2020-01-03");
    expect(cal.previous("2020-01-02")).toBeUndefined();
    expect(cal.next("2020-01-06")).toBeUndefined();
    expect(cal.isTradingDay("2020-01-04")).toBe(false);
  });
  it("comes from the union of every symbol's dates", () => {
    const m = MarketData.fromBars({ A: [bar("2020-01-02", 1)], B: [bar("2020-01-03", 1)] });
    expect(m.calendar.days).toEqual(["2020-01-02", "2020-01-03"]);
  });
});

describe("point-in-time views", () => {
  const m = MarketData.fromBars({ AAA: series(10) });
  it("shows tools only bars strictly before the trading day", () => {
    const v = m.asOf("2020-01-05");
    expect(v.history("AAA").map((b) => b.date)).toEqual(["2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04"]);
    expect(v.lastBar("AAA")?.date).toBe("2020-01-04");
    expect(v.history("AAA", 2).map((b) => b.date)).toEqual(["2020-01-03", "2020-01-04"]);
  });
  it("gives the broker the trading day's own bar", () => {
    expect(m.barOn("AAA", "2020-01-05")?.close).toBe(104);
    expect(m.barOn("AAA", "2020-02-05")).toBeUndefined();
  });
  it("takes the reference price from the last close strictly before the trading day", () => {
    const v = m.asOf("2020-01-05");
    expect(v.referencePrice("AAA")).toEqual({ symbol: "AAA", price: 103, as_of: "2020-01-04", currency: "USD", fx_to_base: 1 });
    expect(m.asOf("2020-01-01").referencePrice("AAA")).toBeUndefined();
    expect(v.referencePrice("ZZZ")).toBeUndefined();
  });
  it("refuses a foreign-currency price without a rate and converts with one", () => {
    const uni: Instrument[] = [{ symbol: "AAA", currency: "EUR" }];
    expect(m.asOf("2020-01-05", { universe: uni }).referencePrice("AAA")).toBeUndefined();
    expect(m.asOf("2020-01-05", { universe: uni, fxToBase: (c) => (c === "EUR" ? 1.1 : undefined) }).referencePrice("AAA")?.fx_to_base).toBe(1.1);
  });
  it("loads the bundled data: 20 instruments over 2000-01-03 … 2020-04-17", () => {
    const market = MarketData.load({});
    expect(market.symbols().length).toBe(20);
    expect(market.calendar.first).toBe("2000-01-03");
    expect(market.calendar.last).toBe("2020-04-17");
    const uni = loadUniverseCsv();
    expect(uni.map((i) => i.symbol).sort()).toEqual(market.symbols());
  });
});

describe("summarizeHistory", () => {
  it("needs at least 2 closes", () => {
    expect(summarizeHistory("A", [bar("2020-01-01", 10)]).ok).toBe(false);
    expect(summarizeHistory("A", series(5), "2020-01-02").ok).toBe(false);
    expect(summarizeHistory("A", series(5), "2020-01-03").ok).toBe(true);
  });
  it("computes returns, SMAs, high/low, drawdown, volatility and the last closes", () => {
    const closes = (i: number) => (i < 100 ? 100 + i : 199 - (i - 99) * 2);
    const bars = series(200, "2019-01-01", closes);
    const res = summarizeHistory("abc", bars, "2019-07-20");
    if (!res.ok) throw new Error(res.reason);
    const s = res.summary;
    const before = bars.filter((b) => b.date < "2019-07-20");
    const last = before[before.length - 1]!;
    expect(s.as_of).toBe(last.date);
    expect(s.evidence_id).toBe(`price:ABC:${last.date}`);
    expect(s.last_close).toBe(last.close);
    // By hand: all 200 daily bars (bar i on 2019-01-01 + i days) are before 2019-07-20; close(i) =
    // 100 + i up to i = 99 (199), then 199 − 2(i − 99): close(199) = −1, close(194) = 9,
    // close(178) = 41, close(136) = 125, close(199 − 126 = 73) = 173.
    expect(last.close).toBe(-1);
    expect(s.returns_pct["1w"]).toBe(-111.11); // (−1 / 9 − 1) × 100
    expect(s.returns_pct["1m"]).toBe(-102.44); // (−1 / 41 − 1) × 100 = −102.439
    expect(s.returns_pct["3m"]).toBe(-100.8); // (−1 / 125 − 1) × 100
    expect(s.returns_pct["6m"]).toBe(-100.58); // (−1 / 173 − 1) × 100 = −100.578
    // SMAs of an arithmetic run: the mean of its ends. sma20: i = 180..199, (37 + −1) / 2; sma50: i = 150..199, (97 + −1) / 2.
    expect(s.sma20).toBe(18);
    expect(s.sma50).toBe(48);
    expect(s.high_6m).toBe(199);
    expect(s.drawdown_from_high_pct).toBe(100.5); // (1 − (−1) / 199) × 100 = 100.503
    expect(s.low_6m).toBe(-1);
    expect(s.last_closes).toHaveLength(10);
    expect(s.last_closes[9]).toEqual([last.date, last.close]);
    expect(s.volatility_annualised_pct).toBeGreaterThan(0);
  });
  it("leaves a return null when the window is too short", () => {
    const res = summarizeHistory("A", series(30), "2020-02-01");
    if (!res.ok) throw new Error("expected ok");
    expect(res.summary.returns_pct["3m"]).toBeNull();
    expect(res.summary.sma50).toBeNull();
    expect(res.summary.returns_pct["1m"]).not.toBeNull();
  });
});

describe("market tools", () => {
  const market = MarketData.load({});
  const universe = loadUniverseCsv();
  const tradingDay = "2008-10-10";
  const tools = checkedAll(makeMarketToolHandlers({ market, universe, tradingDay }));
  const call = async (name: "list_universe" | "get_price_history", args: Record<string, unknown>) =>
    (await tools[name](args, ctx(tradingDay))) as HandlerResult;

  it("never shows a date on or after the run's trading day", async () => {
    const results: HandlerResult[] = [await call("list_universe", { limit: 50 })];
    for (const i of universe) results.push(await call("get_price_history", { symbol: i.symbol }));
    const text = JSON.stringify(results);
    const dates = text.match(/\d{4}-\d{2}-\d{2}/g) ?? [];
    expect(dates.length).toBeGreaterThan(100);
    expect(dates.filter((d) => d >= tradingDay)).toEqual([]);
  });
  it("lists the universe with filters, pages and reference prices", async () => {
    const all = await call("list_universe", {});
    if (!all.ok) throw new Error("expected ok");
    expect(all.data.total).toBe(20);
    expect(all.data.returned).toBe(20);
    expect(all.data.sectors).toContain("Technology");
    const tech = await call("list_universe", { sector: "technology" });
    if (!tech.ok) throw new Error("expected ok");
    const inst = tech.data.instruments as Record<string, unknown>[];
    expect(inst.length).toBe(4);
    expect(inst.every((i) => i.sector === "Technology" && Number(i.reference_price) > 0)).toBe(true);
    // What every row shares is said once, at the top, and not on each row.
    expect([tech.data.currency, tech.data.exchange, tech.data.price_as_of]).toEqual(["USD", "SIM", "2008-10-09"]);
    expect(inst.some((i) => "currency" in i || "exchange" in i || "price_as_of" in i)).toBe(false);
    const page = await call("list_universe", { limit: 3, offset: 18 });
    if (!page.ok) throw new Error("expected ok");
    expect(page.data.returned).toBe(2);
    const q = await call("list_universe", { query: "bravo" });
    if (!q.ok) throw new Error("expected ok");
    expect(q.data.instruments).toMatchObject([{ symbol: "BRVO", currency: "USD", exchange: "SIM", price_as_of: "2008-10-09" }]); // one row: nothing to hoist
    expect(q.data.currency).toBeUndefined();
    const capped = await call("list_universe", { limit: 500 });
    if (!capped.ok) throw new Error("expected ok");
    expect(capped.data.returned).toBe(20);
  });
  it("summarises a symbol with its evidence id, and refuses others", async () => {
    const r = await call("get_price_history", { symbol: "alfa" });
    if (!r.ok) throw new Error("expected ok");
    expect(r.data.evidence_id).toBe("price:ALFA:2008-10-09");
    expect(r.evidenceIds).toEqual(["price:ALFA:2008-10-09"]);
    const u = await call("get_price_history", { symbol: "AAPL" });
    expect(u.ok === false && u.code).toBe("unknown_symbol");
  });
  it("says data_unavailable without enough history", async () => {
    const early = checkedAll(makeMarketToolHandlers({ market, universe, tradingDay: "2000-01-04" }));
    const r = (await early.get_price_history({ symbol: "SPX" }, ctx("2000-01-04"))) as HandlerResult;
    expect(r.ok === false && r.code).toBe("data_unavailable");
  });
});
