import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { CHECK_ID_PATTERN } from "../checked-orders.js";
import { OrderSchema } from "./order.js";

const Input = Type.Object(
  {
    orders: Type.Optional(
      Type.Array(OrderSchema, {
        maxItems: 20,
        description: "The orders; empty = hold.",
      }),
    ),
    check_id: Type.Optional(Type.String({ pattern: CHECK_ID_PATTERN, description: "Instead of orders: check_orders' check_id, for the orders it checked." })),
    summary: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: "Your reasoning for the operator.",
    }),
    abandon_error_codes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 60, description: "A pending error_code." }), {
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        description: "Pending error codes you give up repairing; needs abandon_explanation.",
      }),
    ),
    abandon_explanation: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: "Why they are abandoned." })),
  },
  {
    additionalProperties: false,
    description: "The final proposal of this run.",
    // Conditional requirement: listing codes to abandon requires saying why. (`dependentRequired`
    // rather than `allOf/if/then`: ajv's strict mode rejects `required` names that the `if`
    // subschema does not itself define, which made the validator throw at start-up.)
    dependentRequired: { abandon_error_codes: ["abandon_explanation"] },
  },
);

const Output = Type.Object(
  {
    success: Type.Literal(true),
    accepted_orders: Type.Integer(),
    hold: Type.Boolean(),
    approved_by_dry_run: Type.Integer(),
    will_be_dropped: Type.Integer(),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const submitOrders = defineTool({
  name: "submit_orders",
  group: "orders",
  kind: "final",
  description: "End the run with your proposal (orders go to the risk gate and the operator, not straight to the broker).",
  example: { orders: [], summary: "Hold: no clear setup." },
  successSummary: "success=true with accepted_orders and hold (true when the list was empty); the run ends.",
  input: Input,
  output: Output,
  mutates: true,
  grounded: true,
  callLimit: 3,
  summarize: (r) => (r.hold === true ? "hold submitted" : `proposal submitted (${r.accepted_orders ?? "?"} order(s))`),
});
