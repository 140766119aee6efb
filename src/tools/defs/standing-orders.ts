import { type Static, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { price, quantity } from "../../core/format.js";
import { defineTool } from "../define.js";
import { EvidenceIds, SymbolField } from "./order.js";

const STANDING_TYPES = ["stop_loss", "take_profit", "buy_limit_below"] as const;

const PlaceInput = Type.Object(
  {
    symbol: SymbolField,
    type: Type.Union(
      STANDING_TYPES.map((t) => Type.Literal(t)),
      {
        description: "stop_loss: SELL at or below trigger_price; take_profit: SELL at or above; buy_limit_below: BUY at or below.",
      },
    ),
    trigger_price: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description: "Reference price that fires it.",
    }),
    quantity: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description: "Shares.",
    }),
    limit_price: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description: "DAY limit price of the order it places.",
    }),
    ttl_trading_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 60,
        default: 20,
        description: "Trading days it stays armed.",
      }),
    ),
    reason: Type.String({ minLength: 1, maxLength: 500, description: "Why." }),
    evidence_ids: EvidenceIds,
  },
  { additionalProperties: false, description: "A standing order to propose: a trigger and the order it would place." },
);

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Closed = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });

/**
 * A standing order as the journal records it (src/journal/standing-orders.ts, `StandingOrder`) plus
 * the reference price now (src/tools/handlers/standing-orders.ts, `standingView`).
 */
const StandingOrderView = Closed({
  id: Type.String(),
  symbol: Type.String(),
  type: Type.Union(STANDING_TYPES.map((t) => Type.Literal(t))),
  trigger_price: Type.Number(),
  side: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]),
  quantity: Type.Number(),
  limit_price: Type.Number(),
  reason: Type.String(),
  evidence_ids: Type.Array(Type.String()),
  proposed_run: Type.String(),
  proposed_day: Type.String(),
  proposed_at: Type.String(),
  ttl_trading_days: Type.Integer(),
  expires_on: Type.String(),
  binding_hash: Type.String(),
  status: Type.Union((["proposed", "active", "rejected", "cancelled", "expired", "placed", "blocked"] as const).map((s) => Type.Literal(s))),
  approval: Type.Optional(Closed({ by: Type.String(), at: Type.String(), binding_hash: Type.String(), note: Type.Optional(Type.String()) })),
  end: Type.Optional(Closed({ at: Type.String(), by: Type.String(), reason: Type.String() })),
  fired: Type.Optional(
    Closed({
      run_id: Type.String(),
      trading_day: Type.String(),
      reference_price: Type.Number(),
      at: Type.String(),
      client_order_id: Type.Optional(Type.String()),
      reasons: Type.Optional(Type.Array(Closed({ code: Type.String(), message: Type.String() }))),
    }),
  ),
  reference_price: Nullable(Type.Number()),
  price_as_of: Nullable(Type.String()),
});

const PlaceOutput = Type.Object({ success: Type.Literal(true), standing_order: StandingOrderView, note: Type.String() }, { additionalProperties: false });
const OneOutput = Type.Object({ success: Type.Literal(true), standing_order: StandingOrderView }, { additionalProperties: false });

/** The summary line of one standing order (placed or cancelled). */
function standingOrderLine(o: Static<typeof StandingOrderView>): string {
  return `standing order ${o.id} ${o.status}: ${o.type} ${o.symbol} at ${price(o.trigger_price)} → ${o.side} ${quantity(o.quantity)} @ ${price(o.limit_price)} (through ${o.expires_on})`;
}

export const placeStandingOrder = defineTool({
  name: "place_standing_order",
  group: "orders",
  kind: "write",
  description:
    "Propose a standing order: a trigger and the DAY limit order it places. Once the operator approves it, a later run whose reference price meets the trigger places the order if the risk gate passes it.",
  example: {
    symbol: "ALFA",
    type: "stop_loss",
    trigger_price: 92.5,
    quantity: 10,
    limit_price: 92,
    reason: "Exit below SMA50.",
    evidence_ids: ["price:ALFA:2008-03-14"],
  },
  successSummary:
    "success=true with standing_order {id, symbol, type, trigger_price, side, quantity, limit_price, expires_on, status: proposed, binding_hash}.",
  input: PlaceInput,
  output: PlaceOutput,
  mutates: true,
  grounded: false,
  callLimit: 5,
  summarize: (r) => standingOrderLine(r.standing_order),
});

const ListInput = Type.Object(
  { include_closed: Type.Optional(Type.Boolean({ default: false, description: "Also the closed ones (newest 20)." })) },
  { additionalProperties: false, description: "Optional: include closed standing orders." },
);

const ListOutput = Type.Object(
  {
    success: Type.Literal(true),
    as_of: Type.String(),
    standing_orders: Type.Array(StandingOrderView),
    total: Type.Integer(),
  },
  { additionalProperties: false },
);

export const listStandingOrders = defineTool({
  name: "list_standing_orders",
  group: "orders",
  kind: "read",
  description: "The standing orders proposed and armed, with trigger, order, expiry and the reference price now.",
  example: {},
  successSummary:
    "success=true with total and standing_orders[] ({id, symbol, type, trigger_price, side, quantity, limit_price, status, expires_on, reference_price, approval, fired}).",
  input: ListInput,
  output: ListOutput,
  mutates: false,
  grounded: false,
  callLimit: 5,
  summarize: (r) =>
    `${r.total ?? 0} standing order(s): ${(Array.isArray(r.standing_orders) ? r.standing_orders : []).map((o) => `${o.id} ${o.status}`).join(", ")}`,
});

const CancelInput = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 20, pattern: "^so-[0-9]+$", description: "The standing order's id." }),
    reason: Type.String({ minLength: 1, maxLength: 300, description: "Why." }),
  },
  { additionalProperties: false, description: "The standing order to cancel." },
);

export const cancelStandingOrder = defineTool({
  name: "cancel_standing_order",
  group: "orders",
  kind: "write",
  description: "Cancel a proposed or armed standing order (no approval needed).",
  example: { id: "so-1", reason: "Position sold." },
  successSummary: "success=true with standing_order (now cancelled).",
  input: CancelInput,
  output: OneOutput,
  mutates: true,
  grounded: false,
  callLimit: 5,
  summarize: (r) => standingOrderLine(r.standing_order),
});
