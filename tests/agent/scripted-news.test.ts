/**
 * The scripted policy's news step: recent news (30 days before the trading day) is cited; news
 * years old is said to be old and never cited as if it were current (a 2007 trade once cited
 * `Latest news: "…" (2000-05-29)`); recent negative news drops a buy.
 */
import { describe, expect, it } from "vitest";
import type { ProposedOrder } from "../../src/core/domain.js";
import { applyNews, type NewsStep } from "../../src/agent/scripted-news.js";

const order: ProposedOrder = { symbol: "HTLX", side: "BUY", quantity: 10, limit_price: 71.45, reason: "Momentum.", evidence_ids: ["price:HTLX:2006-12-29"] };

function search(published: string, title: string): NewsStep {
  return {
    name: "search_news",
    input: { query: "HTLX" },
    ok: true,
    result: { as_of: "2007-01-03", results: [{ evidence_id: `news:${published}`, title, snippet: "Hotel Health (HTLX)", published }] },
  };
}

describe("the scripted policy's news step", () => {
  it("does not cite news years before the trading day, and says how old it is in a note for the summary (the order is the one checked)", () => {
    const { orders, notes } = applyNews([order], [search("2000-05-29", "Hotel Health (HTLX) shares jump after a takeover approach")]);
    expect(orders).toEqual([order]);
    expect(notes).toEqual(["no recent news on HTLX (newest 2000-05-29, 2,410 days before the trading day): not cited"]);
    // Several instruments with old news only: one note names them all.
    const kilo: ProposedOrder = { ...order, symbol: "KILO", evidence_ids: ["price:KILO:2006-12-29"] };
    const kiloNews = { ...search("2000-08-09", "Kilo Foods (KILO) expands"), input: { query: "KILO" } };
    kiloNews.result = {
      ...kiloNews.result,
      results: [{ evidence_id: "news:k", title: "Kilo Foods (KILO) expands", snippet: "KILO", published: "2000-08-09" }],
    };
    const both = applyNews([order, kilo], [search("2000-05-29", "Hotel Health (HTLX) shares jump"), kiloNews]);
    expect(both.orders).toEqual([order, kilo]);
    expect(both.notes).toEqual([
      "no recent news on HTLX (newest 2000-05-29, 2,410 days before the trading day) or KILO (newest 2000-08-09, 2,338 days before the trading day): not cited",
    ]);
  });

  it("cites news from the 30 days before the trading day", () => {
    const { orders } = applyNews([order], [search("2006-12-20", "Hotel Health (HTLX) raises guidance")]);
    expect(orders[0]?.evidence_ids).toEqual(["price:HTLX:2006-12-29", "news:2006-12-20"]);
    expect(orders[0]?.reason).toContain('Latest news: "Hotel Health (HTLX) raises guidance" (2006-12-20).');
  });

  it("drops a buy with recent negative news", () => {
    const { orders, notes } = applyNews([order], [search("2006-12-28", "Hotel Health (HTLX) shares plunge on a recall")]);
    expect(orders).toEqual([]);
    expect(notes[0]).toContain("HTLX skipped: recent negative news");
  });
});
