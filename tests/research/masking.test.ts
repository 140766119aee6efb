/**
 * Entity masking: mask → unmask is the identity on every tool's arguments and results (a property
 * test over the text the tools produce, plus real results from the bundled data), an ambiguous
 * partial alias is refused with every candidate and a complete retry argument object each, and
 * the leak scan finds real symbols, names, terms and dates.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { loadUniverse } from "../../src/config/universe.js";
import { MarketData } from "../../src/market/data.js";
import { makeMarketToolHandlers } from "../../src/tools/handlers/market.js";
import { makeMarketWideHandlers } from "../../src/tools/handlers/market-wide.js";
import { bundledMaskTerms } from "../../src/research/masking.js";
import { makeSearchNewsHandler } from "../../src/tools/handlers/search-news.js";
import { embeddedProvider } from "../../src/research/setup.js";
import { maskerFor, modelTextLeaks } from "../../src/run/masking.js";
import { CATALOGUE, TOOL_NAMES } from "../../src/tools/catalogue.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { HandlerResult, ToolCallContext, ToolHandler } from "../../src/tools/types.js";
import { validateArguments } from "../../src/tools/validate.js";
import { bundledDataDir } from "../../src/util/paths.js";
import { checked, checkedAll } from "../tools/checked.js";

const { universe } = loadUniverse(["universe/sim.csv"], "/nonexistent", bundledDataDir(), "test");
const masker = maskerFor(universe);
const ctx: ToolCallContext = { runId: "r", tradingDay: "2008-09-16", seenEvidence: new Set(), pending: [] };
const DAY = "2008-09-16";

async function realResults(): Promise<Record<string, unknown>[]> {
  const market = MarketData.load({ bundled: true });
  const m = checkedAll(makeMarketToolHandlers({ market, universe, tradingDay: DAY }));
  const wide = checkedAll(makeMarketWideHandlers({ view: market.asOf(DAY, { universe }), universe, tradingDay: DAY }));
  const news = checked(
    "search_news",
    makeSearchNewsHandler({
      setup: { provider: embeddedProvider(), providerName: "embedded", policy: { block: [], allow: [] }, undated: "exclude" },
      tradingDay: DAY,
    }),
  );
  const out: HandlerResult[] = [
    await m.list_universe({ limit: 50 }, ctx),
    ...(await Promise.all(["SPX", "ALFA", "ECHO"].map((symbol) => m.get_price_history({ symbol }, ctx)))),
    await wide.get_market_overview({}, ctx),
    ...(await Promise.all(["Technology", "Financials", "nope"].map((sector) => wide.get_sector_summary({ sector }, ctx)))),
    ...(await Promise.all(["Lehman Brothers", "ALFA", "Federal Reserve rate", "September 11 attacks"].map((query) => news({ query, max_results: 10 }, ctx)))),
  ];
  return out.map((r) => (r.ok ? r.data : { error: r.message }));
}

describe("aliases", () => {
  it("are stable per data set, opaque, and share numbers across sectors (as codes share suffixes across boards)", () => {
    const again = maskerFor(universe);
    expect([...again.aliases]).toEqual([...masker.aliases]);
    for (const alias of masker.aliases.values()) expect(alias).toMatch(/^[A-Z]{2}-\d{2}$/);
    const numbers = [...masker.aliases.values()].map((a) => a.split("-")[1]);
    expect(new Set(numbers).size).toBeLessThan(numbers.length);
    const other = maskerFor(universe.slice(1));
    expect(other.dataSet).not.toBe(masker.dataSet);
    expect(masker.dateOffsetDays % 7).toBe(0);
  });
});

describe("mask → unmask is the identity", () => {
  const terms = Object.keys(bundledMaskTerms());
  const realTokens = [...universe.map((i) => i.symbol), ...universe.map((i) => i.name ?? i.symbol), ...terms];
  const day = fc
    .date({ min: new Date("1980-01-01T00:00:00Z"), max: new Date("2029-12-31T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  const month = ["January", "March", "September", "December"];
  const token = fc.oneof(
    fc.constantFrom(...realTokens),
    day,
    day.map((d) => `price:ALFA:${d}`),
    fc.tuple(fc.constantFrom(...month), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1980, max: 2029 })).map(([m, d, y]) => `${m} ${d}, ${y}`),
    fc.tuple(fc.constantFrom(...month), fc.integer({ min: 1980, max: 2029 })).map(([m, y]) => `${m} ${y}`),
    fc.integer({ min: 1980, max: 2029 }).map(String),
    fc.constantFrom("rose", "fell", "12.5%", "the", "index", "shares", "(synthetic)", "[synthetic]", ":", ",", "101.50", "-", "news:ab12cd34ef56"),
  );
  const text = fc.array(token, { maxLength: 12 }).map((t) => t.join(" "));
  const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      text,
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom("symbol", "title", "snippet", "as_of", "reason"), tie("v"), { maxKeys: 4 }),
    ),
  })).v;

  it("on any text and value the tools produce (property)", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(masker.unmask(masker.mask(v))).toEqual(v);
      }),
      { numRuns: 1000 },
    );
  });

  it("on every tool's example arguments, through the runtime's unmasking", () => {
    for (const t of CATALOGUE) {
      const shown = masker.mask(t.example);
      const back = masker.toolMasking().unmaskArguments(t.name, shown as Record<string, unknown>);
      expect(back).toEqual({ ok: true, args: t.example });
    }
  });

  it("on real results of the market and news tools over the bundled data, and the masked ones name nothing real", async () => {
    for (const r of await realResults()) {
      const shown = masker.mask(r);
      expect(masker.unmask(shown)).toEqual(r);
      expect(masker.leaks(JSON.stringify(shown))).toEqual([]);
    }
  });
});

describe("money", () => {
  it("is rescaled by one power of two in fields and in the gate's sentences, and comes back exactly", () => {
    const f = masker.priceScale;
    expect([0.5, 0.25, 0.125]).toContain(f);
    const decision = {
      symbol: "ALFA",
      quantity: 12,
      limit_price: 101.55,
      notional: 1218.6,
      commission: 1,
      reasons: [{ code: "price_band", message: "limit 101.55 is 3.20% from price 98.37 (max 2%)" }],
      last_closes: [{ date: "2008-09-12", close: 1251.7 }],
      // get_price_history's closes since tw-tools/3: [date, close] pairs
      history: { last_closes: [["2008-09-12", 1251.7]] },
      returns_pct: { "3m": 12.34 },
    };
    const shown = masker.mask(decision);
    expect(shown).toMatchObject({ quantity: 12, limit_price: 101.55 * f, notional: 1218.6 * f, returns_pct: { "3m": 12.34 } });
    expect(shown.last_closes[0]?.close).toBe(1251.7 * f);
    expect(shown.history.last_closes[0]).toEqual([masker.maskText("2008-09-12"), 1251.7 * f]);
    expect(masker.maskText("2008-09-12")).not.toBe("2008-09-12");
    const m = /^limit (\d+\.\d{2,}) is 3\.20% from price (\d+\.\d{2,}) \(max 2%\)$/.exec(shown.reasons[0]?.message ?? "");
    expect(m && [Number(m[1]), Number(m[2])]).toEqual([101.55 * f, 98.37 * f]);
    expect(masker.unmask(shown)).toEqual(decision);
    // A limit the model writes in cents unmasks to whole cents.
    const back = masker.toolMasking().unmaskArguments("check_orders", {
      orders: [{ symbol: masker.aliases.get("ALFA"), side: "BUY", quantity: 1, limit_price: 25.39, reason: "r", evidence_ids: ["x"] }],
    });
    const limit = back.ok ? (back.args.orders as { limit_price: number }[])[0]?.limit_price : Number.NaN;
    expect(Math.round((limit as number) * 100) / 100).toBe(limit);
  });
});

describe("a partial alias", () => {
  const seen: unknown[] = [];
  const noop: ToolHandler = () => ({ ok: true, data: {} });
  const handlers: Record<string, ToolHandler> = Object.fromEntries(TOOL_NAMES.map((n) => [n, noop]));
  const history = vi.fn<ToolHandler>((args) => {
    seen.push(args.symbol);
    return { ok: true, data: { symbol: args.symbol } };
  });
  handlers.get_price_history = history;
  const rt = buildToolRuntime(handlers, { runId: "r", tradingDay: DAY, masking: masker.toolMasking() });
  const shared = (() => {
    const by = new Map<string, string[]>();
    for (const a of masker.aliases.values()) by.set(a.split("-")[1] as string, [...(by.get(a.split("-")[1] as string) ?? []), a]);
    return [...by].find(([, as]) => as.length > 1) as [string, string[]];
  })();

  it("matching several instruments is refused (retryable) with every candidate and a complete retry argument object for each", async () => {
    const [num, aliases] = shared;
    const out = await rt.dispatch("get_price_history", { symbol: num, lookback_days: 60 });
    expect(out).toMatchObject({ success: false, errorCode: "ambiguous_masked_symbol", retryable: true });
    expect(history).not.toHaveBeenCalled();
    const correction = out.envelope.correction as {
      candidate_aliases: string[];
      retry_argument_choices: { symbol: string; arguments: Record<string, unknown> }[];
    };
    expect(correction.candidate_aliases).toEqual([...aliases].sort());
    expect(correction.retry_argument_choices).toHaveLength(aliases.length);
    for (const c of correction.retry_argument_choices) {
      expect(c.arguments).toEqual({ symbol: c.symbol, lookback_days: 60 });
      expect(validateArguments("get_price_history", c.arguments).valid).toBe(true);
    }
    // What the model is shown names only aliases.
    expect(masker.leaks(out.text)).toEqual([]);
    // A retry with one choice reaches the handler with the real symbol.
    const choice = correction.retry_argument_choices[0] as { symbol: string; arguments: Record<string, unknown> };
    const retry = await rt.dispatch("get_price_history", choice.arguments);
    expect(retry.success).toBe(true);
    const real = [...masker.aliases].find(([, a]) => a === choice.symbol)?.[0];
    expect(seen.at(-1)).toBe(real);
    // ...and its result is shown masked.
    expect(JSON.parse(retry.text)).toMatchObject({ symbol: choice.symbol });
  });

  it("matching exactly one instrument (the alias without its dash, any case) is resolved", async () => {
    const [real, alias] = [...masker.aliases][0] as [string, string];
    const out = await rt.dispatch("get_price_history", { symbol: alias.replace("-", "").toLowerCase() });
    expect(out.success).toBe(true);
    expect(seen.at(-1)).toBe(real);
  });
});

describe("leak scan", () => {
  it("finds real symbols, names, terms and dates in the model's own text, and nothing in masked text", () => {
    const leaky = "ALFA looks like Alfa Systems before Lehman Brothers failed on 2008-09-15, as in September 2008.";
    const kinds = masker.leaks(leaky).map((l) => `${l.kind}:${l.found}`);
    expect(kinds).toEqual(expect.arrayContaining(["symbol:ALFA", "name:Alfa Systems", "term:Lehman Brothers", "date:2008-09-15", "date:September 2008"]));
    expect(masker.leaks(masker.maskText(leaky))).toEqual([]);
    const events = modelTextLeaks(masker, [
      { role: "user", content: [{ type: "text", text: "task" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Buying ECHO." },
          { type: "tool_use", id: "t1", name: "get_price_history", input: { symbol: "ECHO" } },
        ],
      },
    ]);
    expect(events).toEqual([
      { type: "mask.leak", turn: 1, kind: "symbol", found: "ECHO", where: "text" },
      { type: "mask.leak", turn: 1, kind: "symbol", found: "ECHO", where: "arguments of get_price_history" },
    ]);
  });
});

describe("amounts of the watchlist and standing-order tools", () => {
  it("trigger, limit, alert and add-time prices are rescaled on the way out and back", () => {
    const m = masker;
    const real = {
      standing_order: { trigger_price: 100, limit_price: 99, reference_price: 101 },
      item: { price_at_add: 50, alerts: { above: 60, below: 40 } },
      args: { alert_above: 60, alert_below: 40 },
    };
    const shown = m.mask(real);
    expect(shown.standing_order.trigger_price).toBeCloseTo(100 * m.priceScale, 9);
    expect(shown.item.alerts).toEqual({ above: 60 * m.priceScale, below: 40 * m.priceScale });
    expect(shown.item.price_at_add).toBeCloseTo(50 * m.priceScale, 9);
    expect(m.unmask(shown)).toEqual(real);
  });
});
