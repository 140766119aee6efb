/**
 * A stand-in model for the two-wave tests: it reads the account and the universe (get_portfolio,
 * list_universe), then submits the orders a plan computes from them, citing the portfolio's
 * evidence id — so a test states the exact batch (a rebalance that needs the sell's proceeds) and
 * the rest of the run (gate, operator, executor, journal, broker) is the real one.
 */
import type { ContentBlock, ModelClient, ModelRequest, ModelResponse } from "../../src/agent/types.js";
import { stepsOf } from "../../src/agent/scripted/conversation.js";
import { holdingsOf, num } from "../../src/agent/scripted/results.js";

export interface PlanView {
  cash: number;
  value: number;
  holdings: { symbol: string; quantity: number }[];
  /** Reference price by symbol, in list_universe's order. */
  prices: Map<string, number>;
}

export interface PlannedOrder {
  symbol: string;
  side: "BUY" | "SELL";
  quantity: number;
  limit_price: number;
}

export class PlannedModel implements ModelClient {
  readonly model = "scripted";
  constructor(private readonly plan: (v: PlanView) => PlannedOrder[]) {}

  async complete(req: ModelRequest): Promise<ModelResponse> {
    const steps = stepsOf(req.messages);
    const portfolio = steps.find((s) => s.name === "get_portfolio" && s.ok)?.result;
    const universe = steps.find((s) => s.name === "list_universe" && s.ok)?.result;
    let content: ContentBlock[];
    if (!portfolio || !universe) {
      content = [
        { type: "text", text: "Reading the account and the universe." },
        { type: "tool_use", id: "toolu_plan_1", name: "get_portfolio", input: {} },
        { type: "tool_use", id: "toolu_plan_2", name: "list_universe", input: { limit: 50 } },
      ];
    } else {
      const prices = new Map<string, number>();
      for (const i of Array.isArray(universe.instruments) ? (universe.instruments as Record<string, unknown>[]) : []) {
        const p = num(i.reference_price);
        if (p !== undefined) prices.set(String(i.symbol), p);
      }
      const view: PlanView = { cash: num(portfolio.cash) ?? 0, value: num(portfolio.value) ?? 0, holdings: holdingsOf(portfolio), prices };
      const planned = this.plan(view);
      const history = new Map(steps.filter((x) => x.name === "get_price_history" && x.ok).map((x) => [String(x.input.symbol), String(x.result.evidence_id)]));
      const missing = [...new Set(planned.map((o) => o.symbol))].filter((sym) => !history.has(sym));
      if (missing.length > 0) {
        // Each order cites evidence about its own instrument: its price history.
        content = [
          { type: "text", text: "Reading the planned instruments' histories." },
          ...missing.map(
            (symbol, i): ContentBlock => ({ type: "tool_use", id: `toolu_plan_h${steps.length}_${i}`, name: "get_price_history", input: { symbol } }),
          ),
        ];
      } else {
        const orders = planned.map((o) => ({
          ...o,
          reason: "The test's planned order.",
          evidence_ids: [String(portfolio.evidence_id), history.get(o.symbol) ?? ""],
        }));
        content = [
          { type: "text", text: `Submitting ${orders.length} planned order(s).` },
          { type: "tool_use", id: "toolu_plan_3", name: "submit_orders", input: { orders, summary: "The test's planned batch." } },
        ];
      }
    }
    return {
      content,
      stop_reason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      model: this.model,
    };
  }
}

export const cents = (n: number): number => Math.round(n * 100) / 100;
