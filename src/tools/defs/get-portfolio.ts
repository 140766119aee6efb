import { type TSchema, Type } from "@sinclair/typebox";
import { money, num } from "../../core/format.js";
import { defineTool } from "../define.js";

const Input = Type.Object({}, { additionalProperties: false, description: "No arguments." });

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** One holding valued at its reference price (src/journal/tool-handlers.ts, `portfolioSnapshot`). */
const Holding = Type.Object(
  {
    symbol: Type.String(),
    quantity: Type.Number(),
    currency: Type.String(),
    reference_price: Nullable(Type.Number()),
    price_as_of: Nullable(Type.String()),
    market_value: Nullable(Type.Number()),
    weight_pct: Nullable(Type.Number()),
    avg_cost: Type.Number(),
    unrealized_pnl: Nullable(Type.Number()),
    unrealized_pnl_pct: Nullable(Type.Number()),
  },
  { additionalProperties: false },
);

/** One order of an earlier run and what became of it (src/journal/types.ts, `ActivityItem`). */
const Activity = Type.Object(
  {
    run_id: Type.String(),
    trading_day: Type.String(),
    at: Type.String(),
    symbol: Type.String(),
    side: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]),
    quantity: Type.Number(),
    limit_price: Type.Number(),
    outcome: Type.Union((["blocked", "not_placed", "filled", "partially_filled", "not_filled", "rejected", "open"] as const).map((o) => Type.Literal(o))),
    detail: Type.String(),
    reasons: Type.Optional(Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false }))),
    client_order_id: Type.Optional(Type.String()),
    filled_quantity: Type.Optional(Type.Number()),
    avg_fill_price: Type.Optional(Type.Number()),
    counted: Type.Boolean(),
    liquidation: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String({ description: "Cite this id in evidence_ids." }),
    as_of: Type.String({ description: "Day of the reference prices (the last trading day before the run's)." }),
    base_currency: Type.String(),
    cash: Type.Number(),
    value: Type.Number(),
    peak: Type.Number(),
    drawdown_pct: Type.Number(),
    max_drawdown_pct: Type.Number(),
    trading_state: Type.String(),
    orders_used_this_month: Type.Integer(),
    orders_left_this_month: Type.Integer(),
    holdings: Type.Array(Holding),
    recent_activity: Type.Array(Activity),
  },
  { additionalProperties: false },
);

export const getPortfolio = defineTool({
  name: "get_portfolio",
  group: "portfolio",
  kind: "read",
  description:
    "Read the account this run manages: cash, holdings, value, drawdown, trading state, orders left this month, and recent orders with their outcome.",
  example: {},
  successSummary: "success=true with evidence_id, cash, value, peak, drawdown_pct, trading_state, orders_left_this_month, holdings[] and recent_activity[].",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 5,
  summarize: (r) =>
    `value ${num(r.value, (n) => money(n, r.base_currency ?? ""))}, cash ${num(r.cash, (n) => money(n, r.base_currency ?? ""))}, ${Array.isArray(r.holdings) ? r.holdings.length : 0} holding(s), ${r.trading_state ?? "?"}, ${r.orders_left_this_month ?? "?"} orders left`,
});
