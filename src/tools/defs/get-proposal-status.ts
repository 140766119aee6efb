import { Type } from "@sinclair/typebox";
import { ProposalStatusSchema } from "../../journal/proposal-status.js";
import { defineTool } from "../define.js";

const Input = Type.Object(
  {
    run_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: "^[0-9A-Za-z-]+$",
        description: "The run whose proposal to report (default: the latest proposal recorded).",
      }),
    ),
  },
  { additionalProperties: false, description: "Optional: the run." },
);

const Output = Type.Object({ success: Type.Literal(true), ...ProposalStatusSchema.properties }, { additionalProperties: false });

export const getProposalStatus = defineTool({
  name: "get_proposal_status",
  group: "orders",
  kind: "read",
  description:
    "What became of a submitted proposal: awaiting the operator, approved, rejected, expired or a hold, and per order whether it was placed and how much filled. Only the operator decides; this only reads.",
  example: {},
  successSummary: "success=true with run_id, status, decided_by_run, orders[] ({symbol, side, quantity, placed, order_status, filled_quantity}) and message.",
  input: Input,
  output: Output,
  mutates: false,
  grounded: false,
  callLimit: 10,
  summarize: (r) => `proposal ${r.run_id ?? "none"}: ${r.status}`,
});
