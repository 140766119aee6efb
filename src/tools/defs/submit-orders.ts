import { Type } from "@sinclair/typebox";
import { defineTool } from "../define.js";
import { EXAMPLE_ORDER, OrderSchema } from "./order.js";

const Input = Type.Object(
  {
    orders: Type.Array(OrderSchema, {
      minItems: 0,
      maxItems: 20,
      description: "The orders to propose; an empty list is a hold (often the right answer).",
    }),
    summary: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: "Your reasoning for the operator, in a few sentences.",
    }),
    abandon_error_codes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 60, description: "A pending error code." }), {
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        description: "Error codes of pending retryable failures you give up repairing. Requires abandon_explanation.",
      }),
    ),
    abandon_explanation: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: "Why the listed pending errors are abandoned." })),
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
  description:
    "Finish the run with your proposal. This is a proposal, not an order: the risk gate checks it again and a human operator approves it before anything reaches the paper broker. If an order is blocked you get one revision; after that, blocked orders are dropped. Refused while a retryable error is pending unless you list its code in abandon_error_codes with abandon_explanation.",
  example: {
    orders: [EXAMPLE_ORDER],
    summary: "One small momentum buy; everything else holds.",
  },
  successSummary: "success=true with accepted_orders and hold (true when the list was empty); the run ends.",
  input: Input,
  output: Output,
  mutates: true,
  grounded: true,
  callLimit: 3,
  summarize: (r) => (r.hold === true ? "hold submitted" : `proposal submitted (${r.accepted_orders ?? "?"} order(s))`),
});
