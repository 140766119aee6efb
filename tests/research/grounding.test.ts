/**
 * Grounding, tightened: an order's evidence must include a dated item about its own instrument —
 * its price history or a news result that names it. Citing only another instrument's evidence is
 * bounced with the envelope; undated evidence never grounds an order alone.
 */
import { describe, expect, it, vi } from "vitest";
import { mentionsOf } from "../../src/research/mentions.js";
import { TOOL_NAMES } from "../../src/tools/catalogue.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";

const universe = [
  { symbol: "ALFA", name: "Alfa Systems (synthetic)" },
  { symbol: "ECHO", name: "Echo Bancorp (synthetic)" },
];

function world() {
  const noop: ToolHandler = () => ({ ok: true, data: {} });
  const handlers: Record<string, ToolHandler> = Object.fromEntries(TOOL_NAMES.map((n) => [n, noop]));
  handlers.get_price_history = (args) => {
    const id = `price:${String(args.symbol)}:2008-09-12`;
    return { ok: true, data: { evidence_id: id, symbol: args.symbol }, evidenceIds: [id] };
  };
  handlers.search_news = () => {
    const results = [
      {
        evidence_id: "news:aaa",
        title: "Alfa Systems wins a contract",
        url: "https://x.example/a",
        published: "2008-09-10",
        outlets: ["x.example"],
        snippet: "Good news.",
      },
    ];
    const undated = [
      {
        evidence_id: "news-undated:bbb",
        title: "Echo Bancorp (ECHO) profile",
        url: "https://x.example/b",
        published: null,
        outlets: ["x.example"],
        snippet: "No date.",
        verified: false,
      },
    ];
    return {
      ok: true,
      data: { as_of: "2008-09-15", results, undated, removed: { cutoff: 0, undated: 0, policy: 0, duplicates: 0 } },
      evidenceIds: ["news:aaa", "news-undated:bbb"],
    };
  };
  const check = vi.fn<ToolHandler>(() => ({ ok: true, data: { decisions: [] } }));
  handlers.check_orders = check;
  const rt = buildToolRuntime(handlers, { runId: "r", tradingDay: "2008-09-15", subjectsOf: mentionsOf(universe) });
  return { rt, check };
}

const order = (symbol: string, evidence_ids: string[]) => ({ orders: [{ symbol, side: "BUY", quantity: 1, limit_price: 10, reason: "r", evidence_ids }] });

describe("grounding", () => {
  it("bounces an order that cites only another instrument's evidence (retryable envelope, handler not reached)", async () => {
    const { rt, check } = world();
    await rt.dispatch("get_price_history", { symbol: "ALFA" });
    const out = await rt.dispatch("check_orders", order("ECHO", ["price:ALFA:2008-09-12"]));
    expect(out).toMatchObject({ success: false, errorCode: "ungrounded_order", retryable: true, stage: "grounding" });
    expect((out.envelope.correction as { issues: { path: string; message: string }[] }).issues).toEqual([
      { path: "$.orders[0].evidence_ids", message: expect.stringMatching(/none of the ECHO order's evidence is about ECHO/) },
    ]);
    expect(check).not.toHaveBeenCalled();
    // Its own history grounds it.
    await rt.dispatch("get_price_history", { symbol: "ECHO" });
    expect((await rt.dispatch("check_orders", order("ECHO", ["price:ALFA:2008-09-12", "price:ECHO:2008-09-12"]))).success).toBe(true);
  });

  it("a dated news item that names the instrument grounds it; one naming another does not", async () => {
    const { rt } = world();
    await rt.dispatch("search_news", { query: "Alfa" });
    expect((await rt.dispatch("check_orders", order("ALFA", ["news:aaa"]))).success).toBe(true);
    expect((await rt.dispatch("check_orders", order("ECHO", ["news:aaa"]))).errorCode).toBe("ungrounded_order");
  });

  it("undated evidence never grounds an order alone, but may come along", async () => {
    const { rt } = world();
    await rt.dispatch("search_news", { query: "Echo" });
    const alone = await rt.dispatch("check_orders", order("ECHO", ["news-undated:bbb"]));
    expect(alone.errorCode).toBe("ungrounded_order");
    expect(alone.error).toMatch(/undated/);
    await rt.dispatch("get_price_history", { symbol: "ECHO" });
    expect((await rt.dispatch("check_orders", order("ECHO", ["news-undated:bbb", "price:ECHO:2008-09-12"]))).success).toBe(true);
  });
});
