import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { Nullable } from "./market-shapes.js";
import { SymbolField } from "./order.js";

const Input = Type.Object({ symbol: SymbolField }, { additionalProperties: false, description: "Which instrument to look at." });

const Num = Nullable(Type.Number());
const Lot = Type.Object(
  {
    bought_on: Type.String(),
    source: Type.Union([Type.Literal("fill"), Type.Literal("adjustment")]),
    quantity: Type.Number(),
    price: Num,
    commission: Type.Number(),
    cost_basis: Type.Number(),
    fx_to_base: Num,
  },
  { additionalProperties: false },
);

const Position = Type.Object(
  {
    quantity: Type.Number(),
    currency: Type.String(),
    avg_cost: Type.Number(),
    cost_basis: Type.Number(),
    reference_price: Num,
    price_as_of: Nullable(Type.String()),
    market_value: Num,
    unrealized_pnl: Num,
    unrealized_pnl_pct: Num,
    instrument_currency: Type.Object({ currency: Type.String(), avg_cost: Num, market_value: Num, unrealized_pnl: Num }, { additionalProperties: false }),
    weight_pct: Num,
    first_bought_on: Nullable(Type.String()),
    days_held: Nullable(Type.Integer()),
    lots: Type.Array(Lot),
    kill_switch: Type.Object(
      {
        value: Type.Number(),
        peak: Type.Number(),
        drawdown_pct: Type.Number(),
        max_drawdown_pct: Type.Number(),
        trip_value: Type.Number(),
        headroom_value: Type.Number(),
        fall_to_trip_pct: Num,
      },
      { additionalProperties: false },
    ),
    position_limit: Type.Object(
      { max_position_pct: Type.Number(), room_pct: Num, room_value: Num, room_quantity: Nullable(Type.Integer()) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    evidence_id: Type.String(),
    symbol: Type.String(),
    name: Type.String(),
    held: Type.Boolean(),
    base_currency: Type.String(),
    as_of: Type.String(),
    position: Nullable(Position),
    standing_orders: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          type: Type.String(),
          side: Type.String(),
          quantity: Type.Number(),
          trigger_price: Type.Number(),
          limit_price: Type.Number(),
          status: Type.String(),
          expires_on: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    watchlist: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          reason: Type.String(),
          added_day: Type.String(),
          price_at_add: Num,
          expires_on: Type.String(),
          alert_above: Type.Optional(Type.Number()),
          alert_below: Type.Optional(Type.Number()),
        },
        { additionalProperties: false },
      ),
    ),
    notes: Type.Array(Type.Object({ id: Type.String(), kind: Type.String(), text: Type.String(), written_on: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const getPosition = defineTool({
  name: "get_position",
  group: "portfolio",
  kind: "read",
  description:
    "One instrument on the books: for a holding, its open lots (first in, first out) with commissions, average cost, days held, unrealised P&L in base and instrument currency, weight, headroom to the kill switch (fall_to_trip_pct: the fall of this holding alone that trips it) and to the position limit; always its open standing orders, watchlist entries and notes. Not held: held=false and position=null.",
  example: { symbol: "ALFA" },
  successSummary: "success=true with evidence_id, symbol, held, position (null when not held), standing_orders[], watchlist[] and notes[].",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 15,
  summarize: (r) => {
    const p = r.position;
    if (!p) return `${r.symbol}: not held; ${r.standing_orders.length} standing order(s), ${r.watchlist.length} watch entr(ies)`;
    return `${r.symbol}: ${p.quantity} held, weight ${p.weight_pct ?? "?"}%, P&L ${p.unrealized_pnl ?? "?"} ${r.base_currency} (${p.unrealized_pnl_pct ?? "?"}%), ${p.days_held ?? "?"} day(s)`;
  },
});
