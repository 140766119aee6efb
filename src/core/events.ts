/**
 * The run's typed event stream: one discriminated union that the pipeline, the agent loop and the
 * executor emit, and that every front end (Ink console, headless printer, events.jsonl) consumes.
 * Front ends hold no trading logic: everything they show is in these events.
 *
 * Defined once, as TypeBox schemas (the agent's events in ./events-agent.ts, their pieces in
 * ./events-parts.ts); every type here is the Static<> of its schema.
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { type PortfolioView, type RunMode, TradingStateSchema } from "./domain.js";
import { AGENT_EVENT_SCHEMAS } from "./events-agent.js";
import { eventOf, FundedBuyFieldsSchema, OrderEventBaseSchema, ReconcileDifferenceSchema, RunOutcomeSchema } from "./events-parts.js";
import { GateDecisionSchema } from "./gate-types.js";
import { OrderIntentSchema } from "./order-intent.js";

export type {
  AgentOutcome,
  Correction,
  FundedBuyFields,
  FundedBuyRecord,
  OrderEventBase,
  PendingError,
  ReconcileDifference,
  RunOutcome,
  ToolIssue,
  Usage,
} from "./events-parts.js";

/** Domain shapes typed in core/domain.ts: the event schema names their types and leaves their shape to it. */
const RunModeSchema = Type.Unsafe<RunMode>({ type: "string", description: "The run's mode (core/domain.ts)." });
const PortfolioViewSchema = Type.Unsafe<PortfolioView>({ type: "object", description: "The account as the operator sees it (core/domain.ts)." });

const Orders = Type.Array(OrderIntentSchema);
const Decisions = Type.Array(GateDecisionSchema);
const orderEvent = <K extends string, P extends Parameters<typeof eventOf>[1]>(type: K, properties: P) =>
  Type.Composite([eventOf(type, properties), OrderEventBaseSchema]);

const RUN_EVENT_SCHEMAS = [
  eventOf("run.started", {
    run_id: Type.String(),
    mode: RunModeSchema,
    trading_day: Type.String(),
    model: Type.Object({ provider: Type.String(), id: Type.String() }),
    broker: Type.Object({ kind: Type.String(), account_id: Type.String(), endpoint: Type.String() }),
    base_currency: Type.String(),
  }),
  eventOf("preflight.failed", { code: Type.String(), message: Type.String() }),
  eventOf("reconcile.ok", { positions: Type.Number() }),
  /** An order of an earlier run whose outcome was not final, looked up at the broker by its client order id. */
  orderEvent("order.recovered", {
    from_run: Type.String(),
    status_before: Type.String(),
    status: Type.String(),
    filled_quantity: Type.Number(),
    fills_booked: Type.Number(),
    settled: Type.Boolean(),
    message: Type.String(),
  }),
  eventOf("reconcile.failed", { differences: Type.Array(ReconcileDifferenceSchema) }),
  eventOf("valuation", {
    value: Type.Number(),
    cash: Type.Number(),
    peak: Type.Number(),
    drawdown_pct: Type.Number(),
    max_drawdown_pct: Type.Number(),
    trading_state: TradingStateSchema,
    orders_used: Type.Number(),
    orders_left: Type.Number(),
    first_of_run: Type.Boolean(),
    /** Holdings, cash and the previous run's fills, for the console. */
    portfolio: Type.Optional(PortfolioViewSchema),
  }),
  eventOf("killswitch.tripped", {
    value: Type.Number(),
    peak: Type.Number(),
    drawdown_pct: Type.Number(),
    limit_pct: Type.Number(),
    reason: Type.String(),
    liquidation: Orders,
    /** Who tripped it: the drawdown reaching the limit, or the operator (at any drawdown). */
    by: Type.Optional(Type.Union([Type.Literal("drawdown"), Type.Literal("operator")])),
  }),
  eventOf("run.note", { level: Type.Union([Type.Literal("info"), Type.Literal("warn")]), message: Type.String() }),
  /** A standing order approved earlier crossed its trigger (or expired) at the start of this run. */
  eventOf("standing.fired", {
    id: Type.String(),
    standing_type: Type.String(),
    trigger_price: Type.Number(),
    /** null when it expired unfired. */
    reference_price: Type.Union([Type.Number(), Type.Null()]),
    order: OrderIntentSchema,
    approved_by: Type.String(),
    binding_hash: Type.String(),
    /** placed: passed the final gate and sent; blocked: the gate refused it; not_placed: this mode places nothing; expired. */
    result: Type.Union([Type.Literal("placed"), Type.Literal("blocked"), Type.Literal("not_placed"), Type.Literal("expired")]),
    reasons: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  }),
  ...AGENT_EVENT_SCHEMAS,
  eventOf("proposal", { orders: Orders, summary: Type.String(), decisions: Decisions, abandoned: Type.Array(Type.String()) }),
  eventOf("approval.requested", { orders_hash: Type.String(), approvable: Type.Number(), blocked: Type.Number() }),
  eventOf("approval.decided", {
    decision: Type.Union((["approved", "rejected", "killswitch", "awaiting", "none"] as const).map((d) => Type.Literal(d))),
    by: Type.Union([Type.Literal("operator"), Type.Literal("auto"), Type.Literal("none")]),
    orders: Orders,
    orders_hash: Type.String(),
    reason: Type.Optional(Type.String()),
  }),
  /** `orders_hash`: the pipeline's hash of the orders it hands the executor (the approved placements). */
  eventOf("gate.final", { decisions: Decisions, orders_hash: Type.Optional(Type.String()) }),
  orderEvent("order.placed", {}),
  orderEvent("order.partially_filled", { filled_quantity: Type.Number(), avg_price: Type.Number() }),
  orderEvent("order.filled", { filled_quantity: Type.Number(), avg_price: Type.Number(), commission: Type.Number() }),
  orderEvent("order.cancelled", { filled_quantity: Type.Number(), message: Type.String() }),
  orderEvent("order.rejected", { message: Type.String() }),
  orderEvent("order.uncertain", { message: Type.String() }),
  orderEvent("order.expired", { filled_quantity: Type.Number() }),
  /** A buy funded by its batch's sells, after the sells settled: placed, shrunk, dropped or (an earlier run's) not placed. */
  eventOf("order.funded_buy", { from_run: Type.String(), ...FundedBuyFieldsSchema.properties }),
  eventOf("run.finished", {
    outcome: RunOutcomeSchema,
    exit_code: Type.Number(),
    message: Type.String(),
    value_after: Type.Optional(Type.Number()),
    cost_usd: Type.Number(),
  }),
] as const;

/** One event's body: what happened, without its stamp. */
const RunEventBodySchema = Type.Union([...RUN_EVENT_SCHEMAS]);
export type RunEventBody = Static<typeof RunEventBodySchema>;

export type RunEventType = RunEventBody["type"];

/** The stamp every recorded event carries. */
const StampSchema = Type.Object({ seq: Type.Number(), at: Type.String(), run_id: Type.String() });

/** An event as recorded: the body stamped with its sequence number and time. */
const RunEventSchema = Type.Intersect([RunEventBodySchema, StampSchema]);
export type RunEvent = Static<typeof RunEventSchema>;

/** The `type` an event schema fixes (a variant, or the first part of an intersected one). */
function eventTypeOf(schema: TSchema): string {
  const variant: TSchema = schema.allOf?.[0] ?? schema;
  return variant.properties.type.const;
}

/** Every event type, at run time (the audit checks recorded events against it): read off the schema. */
export const RUN_EVENT_TYPES: readonly string[] = RUN_EVENT_SCHEMAS.map(eventTypeOf);

/** Each event type's schema as recorded (its body and the stamp): how the audit checks one events.jsonl line. */
export const RECORDED_EVENT_SCHEMAS: ReadonlyMap<string, TSchema> = new Map(
  RUN_EVENT_SCHEMAS.map((schema) => [eventTypeOf(schema), Type.Intersect([schema, StampSchema])]),
);
