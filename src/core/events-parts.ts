/**
 * The pieces the run's events are made of (tool issues and corrections, token usage, outcomes,
 * reconcile differences, an order event's common fields): schemas, each type the Static<> of its
 * schema. The event union itself is in ./events.ts.
 */
import { type Static, type TProperties, Type } from "@sinclair/typebox";
import { SideSchema } from "./order-intent.js";

const ToolIssueSchema = Type.Object({ path: Type.String(), message: Type.String() });
export type ToolIssue = Static<typeof ToolIssueSchema>;

export const PendingErrorSchema = Type.Object({ tool: Type.String(), error_code: Type.String(), error: Type.String() });
export type PendingError = Static<typeof PendingErrorSchema>;

/** The event `type` literal and the event's own fields: one variant of the run's event union. */
export function eventOf<K extends string, P extends TProperties>(type: K, properties: P) {
  return Type.Object({ type: Type.Literal(type), ...properties });
}

/** What the model is told to fix after a rejected call; open: a correction may carry more keys. */
export const CorrectionSchema = Type.Intersect([
  Type.Object({
    tool: Type.String(),
    instruction: Type.String(),
    valid_arguments_example: Type.Unknown(),
    received_arguments: Type.Unknown(),
    issues: Type.Optional(Type.Array(ToolIssueSchema)),
    missing_fields: Type.Optional(Type.Array(Type.String())),
    pending: Type.Optional(Type.Array(PendingErrorSchema)),
  }),
  Type.Record(Type.String(), Type.Unknown()),
]);
export type Correction = Static<typeof CorrectionSchema>;

export const UsageSchema = Type.Object({
  input_tokens: Type.Number(),
  output_tokens: Type.Number(),
  cache_creation_input_tokens: Type.Number(),
  cache_read_input_tokens: Type.Number(),
  /** The TTL split of cache writes, when the API reports it. */
  cache_creation_5m_input_tokens: Type.Optional(Type.Number({ description: "The TTL split of cache writes, when the API reports it." })),
  cache_creation_1h_input_tokens: Type.Optional(Type.Number()),
});
export type Usage = Static<typeof UsageSchema>;

const AGENT_OUTCOMES = [
  "submitted",
  "hold",
  "no_submission",
  "turn_limit",
  "time_limit",
  "cost_budget",
  "monthly_budget",
  "refusal",
  "max_tokens",
  "context_window",
  "model_error",
  "interrupted",
  "repair_budget",
] as const;
export const AgentOutcomeSchema = Type.Union(AGENT_OUTCOMES.map((outcome) => Type.Literal(outcome)));
export type AgentOutcome = Static<typeof AgentOutcomeSchema>;

const RUN_OUTCOMES = [
  "executed",
  "hold",
  "no_trades",
  "observed",
  "rejected",
  "awaiting_approval",
  "reconcile_failed",
  "broker_unavailable",
  "data_unavailable",
  "halted",
  "tripped",
  "quota_exhausted",
  "spend_cap_reached",
  "model_unavailable",
  "interrupted",
  "error",
] as const;
export const RunOutcomeSchema = Type.Union(RUN_OUTCOMES.map((outcome) => Type.Literal(outcome)));
export type RunOutcome = Static<typeof RunOutcomeSchema>;

const DIFFERENCE_KINDS = ["position_mismatch", "unknown_open_order", "unbooked_position", "missing_position", "cash_mismatch", "unsettled_order"] as const;

export const ReconcileDifferenceSchema = Type.Object({
  kind: Type.Union(DIFFERENCE_KINDS.map((kind) => Type.Literal(kind))),
  /** The instrument (for cash_mismatch: the base currency). */
  symbol: Type.String({ description: "The instrument (for cash_mismatch: the base currency)." }),
  journal_quantity: Type.Optional(Type.Number()),
  broker_quantity: Type.Optional(Type.Number()),
  /** cash_mismatch: the cash moved by trading since the account opened, per side (base currency). */
  journal_cash_flow: Type.Optional(Type.Number({ description: "cash_mismatch: the cash moved by trading since the account opened (base currency)." })),
  broker_cash_flow: Type.Optional(Type.Number()),
  /** The broker's average cost per share of the position, when it reports one. */
  broker_avg_cost: Type.Optional(Type.Number({ description: "The broker's average cost per share, when it reports one." })),
  /** What the difference proves, and what resolves it. */
  proves: Type.Optional(Type.String({ description: "What the difference proves, and what resolves it." })),
  /** Whether an operator may resolve it by adopting the broker's side (append-only adjustment). */
  adoptable: Type.Optional(Type.Boolean({ description: "Whether an operator may resolve it by adopting the broker's side." })),
  broker_order_id: Type.Optional(Type.String()),
  client_order_id: Type.Optional(Type.String()),
  message: Type.String(),
});
export type ReconcileDifference = Static<typeof ReconcileDifferenceSchema>;

export const OrderEventBaseSchema = Type.Object({
  client_order_id: Type.String(),
  broker_order_id: Type.Optional(Type.String()),
  symbol: Type.String(),
  side: SideSchema,
  quantity: Type.Number(),
  limit_price: Type.Number(),
});
export type OrderEventBase = Static<typeof OrderEventBaseSchema>;

/**
 * What became of a buy the final gate approved as funded by its batch's sells (two-wave execution):
 * placed as approved, shrunk to the cash the sells actually brought (whole shares, limit unchanged),
 * dropped (nothing fits, or the re-gate blocked it), or not placed (the run ended before the second
 * wave: the next run records it, and never sends it). A run event and a journal record alike.
 */
const FundedBuyOutcomeSchema = Type.Union([Type.Literal("placed"), Type.Literal("shrunk"), Type.Literal("dropped"), Type.Literal("not_placed")]);
/** The fields the run event and the journal record share (the event says `from_run`, the record `run_id` and `at`). */
export const FundedBuyFieldsSchema = Type.Object({
  /** The final gate decision's input index. */
  index: Type.Integer({ minimum: 0 }),
  symbol: Type.String({ minLength: 1 }),
  limit_price: Type.Number(),
  /** The quantity the operator approved. */
  quantity: Type.Number({ minimum: 0 }),
  /** The quantity sent in the second wave (0 when dropped or not placed). */
  placed_quantity: Type.Number({ minimum: 0 }),
  /** The part of its cost the final gate counted on the sells' proceeds for (minor units of `currency`). */
  funded_minor: Type.Integer({ minimum: 0 }),
  currency: Type.String(),
  outcome: FundedBuyOutcomeSchema,
  /** Why, in words with the numbers. */
  reason: Type.String(),
});
export type FundedBuyFields = Static<typeof FundedBuyFieldsSchema>;
export const FundedBuyRecordSchema = Type.Composite([
  /** The run whose final gate approved the buy. */
  Type.Object({ run_id: Type.String({ minLength: 1 }), at: Type.String() }),
  FundedBuyFieldsSchema,
]);
export type FundedBuyRecord = Static<typeof FundedBuyRecordSchema>;
