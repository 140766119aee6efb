/**
 * The order intent through the agent loop with the real gate: check_orders and submit_orders hand
 * the run their typed decisions, each naming its input order by `index`, for the events and the
 * proposal; the model is shown the tw-tools/2 results it always was (no index: recorded cassettes
 * replay unchanged). The batch holds duplicate identical orders and interleaves sells and buys, so
 * the gate's sells-first answer is not in input order and value alone cannot say whose verdict is whose.
 */
import { describe, expect, test } from "vitest";
import { makeSubmitHandler } from "../../src/agent/submit.js";
import type { ToolResultBlock } from "../../src/agent/types.js";
import type { ProposedOrder } from "../../src/core/domain.js";
import { inInputOrder } from "../../src/core/gate-types.js";
import { evaluate } from "../../src/gate/evaluate.js";
import type { GateInputs } from "../../src/gate/check-orders-handler.js";
import { dispatchable } from "../../src/tools/define.js";
import { makeCheckOrdersHandler } from "../../src/tools/handlers/check-orders.js";
import { AutoApprover } from "../../src/run/approval.js";
import { initialRows } from "../../src/screens/approval-model.js";
import { LIMITS as GATE_LIMITS } from "../gate/helpers.js";
import { ofType, QueueClient, run, use } from "./helpers.js";
import { makeWorld, UP } from "./world.js";

const DAY = "2024-05-06";
const ALFA = UP();
const BETA = UP().map((x) => Math.round(x * 50) / 100);
const last = (xs: number[]) => xs[xs.length - 1] as number;

function realGateWorld() {
  const inputs = (): GateInputs => ({
    state: { cash: 10_000, holdings: { BETA: { quantity: 40 } }, peak: 10_000 + 40 * last(BETA), orders_this_month: 0, trading_state: "ACTIVE" },
    market: { ALFA: { price: last(ALFA) }, BETA: { price: last(BETA) } },
    limits: GATE_LIMITS,
    universe: [
      { symbol: "ALFA", currency: "USD" },
      { symbol: "BETA", currency: "USD" },
    ],
  });
  const gate = (orders: ProposedOrder[]) => {
    const g = inputs();
    return evaluate(orders, g.state, g.market, g.limits, g.universe).decisions;
  };
  const submit = makeSubmitHandler({ evaluateOrders: gate });
  const w = makeWorld(
    { series: { ALFA, BETA }, tradingDay: DAY },
    { handlers: { ...dispatchable({ check_orders: makeCheckOrdersHandler(inputs) }), submit_orders: submit } },
  );
  return { ...w, submit, gate };
}

const order = (symbol: string, side: "BUY" | "SELL", quantity: number, limit: number, reason: string): ProposedOrder => ({
  symbol,
  side,
  quantity,
  limit_price: limit,
  reason,
  // The price summary's evidence id carries the date of its last bar (the Friday before DAY).
  evidence_ids: [`price:${symbol}:2024-05-03`],
});
// Input order: buy, sell, the same buy again, the same sell again (reasons differ; identity does not).
const BATCH = [
  order("ALFA", "BUY", 5, last(ALFA), "first ALFA"),
  order("BETA", "SELL", 10, last(BETA), "first BETA"),
  order("ALFA", "BUY", 5, last(ALFA), "second ALFA"),
  order("BETA", "SELL", 10, last(BETA), "second BETA"),
];
const REVISED = BATCH.slice(0, 2);

describe("order verdicts through the agent loop, by input index", () => {
  test("dry run, bounce and proposal: each verdict names its own input order; the model's results carry no index", async () => {
    const w = realGateWorld();
    const turns = [
      { content: [use("h1", "get_price_history", { symbol: "ALFA" }), use("h2", "get_price_history", { symbol: "BETA" })], stop_reason: "tool_use" },
      { content: [use("c1", "check_orders", { orders: BATCH })], stop_reason: "tool_use" },
      { content: [use("s1", "submit_orders", { orders: BATCH, summary: "both twice" })], stop_reason: "tool_use" },
      { content: [use("s2", "submit_orders", { orders: REVISED, summary: "each once" })], stop_reason: "tool_use" },
    ];
    const { events, result } = await run({ client: new QueueClient(turns), runtime: w.runtime, submitState: w.submit.state });
    expect(result.outcome).toBe("submitted");

    // The dry run: sells first, every input answered once, each decision carrying its own order (reason included).
    const [dry] = ofType(events, "gate.dry_run");
    expect(dry?.decisions.map((d) => d.index)).toEqual([1, 3, 0, 2]);
    for (const d of dry?.decisions ?? []) expect(d.order).toEqual(BATCH[d.index]);
    expect(inInputOrder(dry?.decisions ?? [], 4).map((d) => [d.order.reason, d.approved, d.reasons.map((r) => r.code)])).toEqual([
      ["first ALFA", true, []],
      ["first BETA", true, []],
      ["second ALFA", false, ["duplicate_order"]],
      ["second BETA", false, ["duplicate_order"]],
    ]);

    // The bounce names the duplicates by index; the accepted proposal's verdicts name the revised orders.
    const [bounced] = ofType(events, "submit.bounced");
    expect(bounced?.decisions.filter((d) => !d.approved).map((d) => d.index)).toEqual([3, 2]);
    const [proposal] = ofType(events, "proposal");
    expect(proposal?.decisions.map((d) => [d.index, d.order.reason, d.approved])).toEqual([
      [1, "first BETA", true],
      [0, "first ALFA", true],
    ]);

    // What the model was shown is the tw-tools/2 result: flat decisions in evaluated order, no index.
    const shown = result.transcript
      .flatMap((m) => m.content)
      .filter((b): b is ToolResultBlock => b.type === "tool_result")
      .map((b) => JSON.parse(String(b.content)) as Record<string, unknown>);
    const check = shown.find((r) => Array.isArray(r.decisions)) as { decisions: Record<string, unknown>[] };
    const bounce = shown.find((r) => r.error_code === "orders_blocked") as { correction: { decisions: Record<string, unknown>[] } };
    for (const d of [...check.decisions, ...bounce.correction.decisions]) {
      expect(Object.keys(d)).toEqual(["symbol", "side", "quantity", "limit_price", "approved", "reasons", "notional", "commission"]);
    }
  });

  test("--yes and the approval screen find each order's verdict by index, whatever order the gate answered in", async () => {
    const w = realGateWorld();
    const decisions = w.gate(BATCH); // evaluated order: [1, 3, 0, 2]
    const req = { runId: "r", summary: "s", orders: BATCH, decisions, regate: w.gate };
    const auto = await new AutoApprover().decide(req);
    // Exactly the first of each pair: positionally, decisions[1] (the second BETA, blocked) would have dropped the first BETA.
    expect(auto).toMatchObject({ kind: "approve", orders: [BATCH[0], BATCH[1]] });
    const rows = initialRows(req);
    expect(rows.map((r) => [r.order.reason, r.decision?.index, r.decision?.approved])).toEqual([
      ["first ALFA", 0, true],
      ["first BETA", 1, true],
      ["second ALFA", 2, false],
      ["second BETA", 3, false],
    ]);
  });
});
