import { Type } from "@sinclair/typebox";
import { StaleEvidenceSchema } from "../../core/evidence-age.js";
import { defineTool } from "../define.js";
import { EXAMPLE_ORDER, OrderSchema } from "./order.js";

const Input = Type.Object(
  {
    orders: Type.Array(OrderSchema, { minItems: 1, maxItems: 20, description: "The orders to dry-run." }),
  },
  { additionalProperties: false, description: "A batch of orders to dry-run through the risk gate." },
);

/** One order's verdict as the model is shown it (src/gate/check-orders-handler.ts, `modelVerdicts`). */
const Decision = Type.Object(
  {
    symbol: Type.String(),
    side: Type.String(),
    quantity: Type.Number(),
    limit_price: Type.Number(),
    approved: Type.Boolean(),
    reasons: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
    notional: Type.Number(),
    commission: Type.Union([Type.Number(), Type.Null()]),
    funded_by_sells: Type.Optional(
      Type.Object(
        {
          amount: Type.Number({ description: "The part of the buy's cost this batch's sells' proceeds pay (base currency)." }),
          currency: Type.String(),
          placed_after_sells_fill: Type.Literal(true),
          note: Type.String(),
        },
        {
          additionalProperties: false,
          description:
            "Only on an approved buy the cash held does not cover but this batch's sells do: it is placed after those sells fill, and shrunk or dropped if they fill short or not at all.",
        },
      ),
    ),
    stale_evidence: Type.Optional(
      Type.Array(StaleEvidenceSchema, {
        description:
          "The order's cited items older than the configured age (research.stale_evidence_days), with their age in trading days; present only when there are any. Information, not a block.",
      }),
    ),
  },
  { additionalProperties: false },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    check_id: Type.Optional(
      Type.String({ description: "Names these orders for submit_orders (which takes it instead of the orders); added by the runtime, tw-tools/3 on." }),
    ),
    all_approved: Type.Boolean(),
    decisions: Type.Array(Decision),
    portfolio_after: Type.Object(
      { cash: Type.Number(), orders_this_month: Type.Integer() },
      { additionalProperties: false, description: "The account after the approved orders: cash and orders this month." },
    ),
  },
  { additionalProperties: false },
);

export const checkOrders = defineTool({
  name: "check_orders",
  group: "orders",
  kind: "dry_run",
  description:
    "Dry-run orders through the risk gate on a copy of the account (sells first, the batch jointly); nothing is placed. Each order: approved or blocked, with every reason; a buy only the batch's sells pay for is approved funded_by_sells.",
  example: {
    orders: [EXAMPLE_ORDER],
  },
  successSummary:
    "success=true with check_id (submit_orders takes it instead of the orders), all_approved and decisions[] ({symbol, side, quantity, limit_price, approved, reasons[{code, message}], notional, commission, funded_by_sells{amount, currency, placed_after_sells_fill, note} on a buy paid by the batch's sells, and stale_evidence[{evidence_id, day, age_trading_days}] when the order cites items older than the configured age: a note, not a block}) in evaluated order.",
  input: Input,
  output: Output,
  mutates: false,
  grounded: true,
  callLimit: 5,
  summarize: (r) => {
    const d = r.decisions;
    return `${d.length} order(s): ${d.filter((x) => x.approved).length} approved, ${d.filter((x) => !x.approved).length} blocked`;
  },
});
