/**
 * The journal's shapes, defined once, as TypeBox schemas: the head document (`journal.json`) and
 * every event type of the log (`journal.log.jsonl`). validate.ts checks each file against them on
 * open; types.ts gives every record its TypeScript type as `Static<>` of its schema.
 *
 * A few fields are checked more loosely on disk than the program writes them (an order's status,
 * a run's mode and outcome, a finished run's status, a note's kind, an approval's decision: plain
 * strings, as older journals hold them; proposed orders and gate decisions: the fields the journal
 * relies on); their static type is the program's narrower one (`Loose`), the check stays what it
 * always was.
 */
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { type OrderStatus, type ProposedOrder, type RunMode, TradingStateSchema } from "../core/domain.js";
import { SideSchema } from "../core/order-intent.js";
import type { RunOutcome } from "../core/events.js";
import { FundedBuyRecordSchema } from "../core/events-parts.js";
import type { GateDecision } from "../core/gate-types.js";

/** Minor units and counts: safe integers. Quantities and prices: finite numbers. */
const Minor = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const NonNegInt = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Positive = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Qty = Type.Number({ minimum: 0, maximum: 1e15 });
const Num = Type.Number({ minimum: -1e15, maximum: 1e15 });
const Str = Type.String();
const Id = Type.String({ minLength: 1 });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/** A value checked as `schema` on disk, typed as the program's narrower `T`. */
const Loose = <T>(schema: TSchema) => Type.Unsafe<T>(schema);
const Side = SideSchema;
const TradingState = TradingStateSchema;

/** Every kind of ledger entry; `adjustment` entries come only from adjustment events. */
const LedgerKind = Type.Union([Type.Literal("deposit"), Type.Literal("buy"), Type.Literal("sell"), Type.Literal("commission"), Type.Literal("adjustment")]);
/** The kinds a schema 1 journal's ledger could hold (the `import_ledger` event). */
const ImportedLedgerKind = Type.Union([Type.Literal("deposit"), Type.Literal("buy"), Type.Literal("sell"), Type.Literal("commission")]);
export const RunStatus = Type.Union([
  Type.Literal("running"),
  Type.Literal("completed"),
  Type.Literal("failed"),
  Type.Literal("interrupted"),
  Type.Literal("aborted"),
]);
/** What started a run: the scheduler (`tradewarden tick`) or a person (`run`, `approve`). */
export const RunTrigger = Type.Union([Type.Literal("scheduled"), Type.Literal("manual")]);
export const NoteKind = Type.Union([Type.Literal("observation"), Type.Literal("lesson"), Type.Literal("plan"), Type.Literal("watch")]);
export const ApprovalDecision = Type.Union([
  Type.Literal("approved"),
  Type.Literal("rejected"),
  Type.Literal("killswitch"),
  Type.Literal("awaiting"),
  Type.Literal("none"),
]);

const Usage = Type.Object({
  input_tokens: NonNegInt,
  output_tokens: NonNegInt,
  cache_creation_input_tokens: NonNegInt,
  cache_read_input_tokens: NonNegInt,
  cache_creation_5m_input_tokens: Type.Optional(NonNegInt),
  cache_creation_1h_input_tokens: Type.Optional(NonNegInt),
});

export const RunRecord = Type.Object({
  run_id: Id,
  mode: Loose<RunMode>(Str),
  trading_day: Str,
  started_at: Str,
  finished_at: Nullable(Str),
  status: RunStatus,
  outcome: Loose<RunOutcome | null>(Nullable(Str)),
  exit_code: Nullable(Type.Integer()),
  message: Nullable(Str),
  model: Type.Object({ provider: Str, id: Str }),
  broker: Type.Object({ kind: Str, account_id: Type.Optional(Str), endpoint: Type.Optional(Str) }),
  pid: Type.Integer(),
  host: Str,
  /** Who started the run: `tradewarden tick` in a schedule slot, or a person. Absent in older journals: manual. */
  trigger: Type.Optional(RunTrigger),
  /** The run's first valuation (the only one that moves the peak), and the previous run's. */
  first_value_minor: Nullable(Minor),
  previous_value_minor: Nullable(Minor),
  peak_after_minor: Nullable(Minor),
  cost_micros: NonNegInt,
  notes: Type.Array(Str),
});

const OrderStatusEntry = Type.Object({
  status: Loose<OrderStatus>(Str),
  at: Str,
  broker_order_id: Type.Optional(Str),
  filled_quantity: Type.Optional(Qty),
  message: Type.Optional(Str),
});

export const OrderRecord = Type.Object({
  run_id: Id,
  client_order_id: Id,
  index: NonNegInt,
  symbol: Id,
  side: Side,
  quantity: Qty,
  limit_price: Qty,
  /** Kill-switch liquidation orders are outside the monthly quota. */
  liquidation: Type.Boolean(),
  /** The instrument's currency. */
  currency: Str,
  /** The rate to base the order was approved at; its fills are booked at it (absent in older journals). */
  fx_to_base: Type.Optional(Qty),
  broker_order_id: Nullable(Str),
  status: Loose<OrderStatus>(Str),
  filled_quantity: Qty,
  history: Type.Array(OrderStatusEntry),
  created_at: Str,
  /** When the order first counted toward the monthly quota (null = not counted). */
  counted_at: Nullable(Str),
});

export const FillRecord = Type.Object({
  fill_id: Id,
  client_order_id: Id,
  run_id: Str,
  symbol: Id,
  side: Side,
  quantity: Qty,
  /** Instrument currency. */
  price: Qty,
  fx_to_base: Qty,
  gross_minor: Minor,
  commission_minor: Minor,
  at: Str,
  /** Imported fills (migration) carry their ledger entries separately. */
  ledger: Type.Boolean(),
});

const ProposedOrderRecord = Loose<ProposedOrder>(Type.Object({ symbol: Str, side: Str, quantity: Num, limit_price: Num }));
/** The gate's decisions as the journal checks them: the verdict and its reason codes (the rest as the gate wrote it). */
const Decision = Loose<GateDecision>(Type.Object({ approved: Type.Boolean(), reasons: Type.Array(Type.Object({ code: Str })) }));
export const TripRecord = Type.Object({ run_id: Str, at: Str, value: Num, peak: Num, drawdown_pct: Num, reason: Str });
export const ResetRecord = Type.Object({ at: Str, who: Str, reason: Str, value: Num, new_peak: Num, reducing_runs: NonNegInt });

/**
 * An operator's adoption of the broker's side of a difference reconciliation could not explain:
 * appended, never an edit. `position`: the holding moves by `quantity_delta` (cost basis
 * `basis_minor` for an increase, proportional for a decrease; no cash moves); `cash`: a ledger
 * entry of `amount_minor`; `order`: the order is settled as the broker knows it (an order_update
 * in the same commit).
 */
export const AdjustmentRecord = Type.Object({
  id: Id,
  kind: Type.Union([Type.Literal("position"), Type.Literal("cash"), Type.Literal("order")]),
  symbol: Type.Optional(Id),
  quantity_delta: Type.Optional(Num),
  basis_minor: Type.Optional(Minor),
  amount_minor: Type.Optional(Minor),
  client_order_id: Type.Optional(Id),
  /** The difference as reconciliation saw it. */
  difference: Str,
  reason: Type.String({ minLength: 1 }),
  by: Str,
  at: Str,
});

export const Note = Type.Object({
  id: Id,
  kind: Loose<Static<typeof NoteKind>>(Str),
  text: Str,
  symbol: Type.Optional(Str),
  supersedes: Type.Optional(Str),
  superseded_by: Type.Optional(Str),
  status: Type.Union([Type.Literal("live"), Type.Literal("superseded")]),
  /** The run that wrote it (the model's own note, via the remember tool). */
  run_id: Str,
  created_at: Str,
  /**
   * The evidence ids that run had received when it wrote the note: what the note's content came
   * from. Absent on notes written before it was recorded.
   */
  evidence_ids: Type.Optional(Type.Array(Str)),
});

export const UsageRecord = Type.Object({ run_id: Id, model: Str, usage: Usage, cost_micros: NonNegInt, at: Str });
export const ProposalRecord = Type.Object({ run_id: Id, orders: Type.Array(ProposedOrderRecord), summary: Str, decisions: Type.Array(Decision), at: Str });
export const ApprovalRecord = Type.Object({
  run_id: Id,
  decision: Loose<Static<typeof ApprovalDecision>>(Str),
  by: Str,
  orders_hash: Str,
  reason: Type.Optional(Str),
  orders: Type.Optional(Type.Array(ProposedOrderRecord)),
  at: Str,
});

const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });
const Price = Type.Number({ exclusiveMinimum: 0, maximum: 1e15 });
const Reasons = Type.Array(Type.Object({ code: Str, message: Str }));

export const WatchItem = Type.Object({
  id: Id,
  symbol: Id,
  reason: Str,
  run_id: Id,
  /** The trading day of the run that added it. */
  added_day: Day,
  added_at: Str,
  /** The reference price when it was added (last close before `added_day`). */
  price_at_add: Nullable(Price),
  ttl_trading_days: Positive,
  /** The last trading day on which it is still shown. */
  expires_on: Day,
  alert_above: Type.Optional(Price),
  alert_below: Type.Optional(Price),
  status: Type.Union([Type.Literal("live"), Type.Literal("removed")]),
  removed_at: Type.Optional(Str),
  removed_by_run: Type.Optional(Str),
  removed_reason: Type.Optional(Str),
});
export const WatchEvent = Type.Union([
  Type.Object({ kind: Type.Literal("add"), item: WatchItem }),
  Type.Object({ kind: Type.Literal("remove"), id: Id, run_id: Id, at: Str, reason: Str }),
]);

export const StandingType = Type.Union([Type.Literal("stop_loss"), Type.Literal("take_profit"), Type.Literal("buy_limit_below")]);
const StandingStatus = Type.Union([
  Type.Literal("proposed"),
  Type.Literal("active"),
  Type.Literal("rejected"),
  Type.Literal("cancelled"),
  Type.Literal("expired"),
  Type.Literal("placed"),
  Type.Literal("blocked"),
]);
/** The run that fired a standing order, with the reference price, and the order placed or the gate's reasons. */
const StandingFired = Type.Object({
  run_id: Id,
  trading_day: Day,
  reference_price: Price,
  at: Str,
  client_order_id: Type.Optional(Id),
  reasons: Type.Optional(Reasons),
});
export const StandingOrder = Type.Object({
  id: Id,
  symbol: Id,
  type: StandingType,
  trigger_price: Price,
  side: Side,
  quantity: Type.Number({ exclusiveMinimum: 0, maximum: 1e15 }),
  limit_price: Price,
  reason: Str,
  evidence_ids: Type.Array(Str),
  proposed_run: Id,
  proposed_day: Day,
  proposed_at: Str,
  ttl_trading_days: Positive,
  /** The last trading day on which it may fire. */
  expires_on: Day,
  /** SHA-256 of the trigger and the order it would place: what an approval binds to. */
  binding_hash: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  status: StandingStatus,
  approval: Type.Optional(Type.Object({ by: Str, at: Str, binding_hash: Str, note: Type.Optional(Str) })),
  /** Why it ended (rejected, cancelled, expired), in words. */
  end: Type.Optional(Type.Object({ at: Str, by: Str, reason: Str })),
  fired: Type.Optional(StandingFired),
});
export const StandingEvent = Type.Union([
  Type.Object({ kind: Type.Literal("propose"), order: StandingOrder }),
  Type.Object({ kind: Type.Literal("approve"), id: Id, by: Str, at: Str, binding_hash: Str, note: Type.Optional(Str) }),
  Type.Object({
    kind: Type.Literal("end"),
    id: Id,
    status: Type.Union([Type.Literal("rejected"), Type.Literal("cancelled"), Type.Literal("expired")]),
    by: Str,
    at: Str,
    reason: Str,
  }),
  Type.Object({ kind: Type.Literal("fire"), id: Id, placed: Type.Boolean(), fired: StandingFired }),
]);

/**
 * One schema per event type `t` (the key; the schema holds the rest of the line). Money is already
 * in minor units: the fold never rounds. `seq` is checked by the reader (it must count up from 1).
 */
export const EVENT_BODIES = {
  init: Type.Object({ currency: Type.String({ pattern: "^[A-Z]{3}$" }), capital_minor: Positive, at: Str }),
  deposit: Type.Object({ amount_minor: Positive, at: Str, note: Type.Optional(Str) }),
  run_start: Type.Object({ run: RunRecord }),
  run_abort: Type.Object({ run_id: Id, at: Str, message: Str }),
  run_finish: Type.Object({
    run_id: Id,
    status: Loose<Static<typeof RunStatus>>(Str),
    outcome: Loose<RunOutcome | null>(Nullable(Str)),
    exit_code: Nullable(Type.Integer()),
    message: Str,
    at: Str,
    could_trade: Type.Optional(Type.Boolean()),
    /** The SHA-256 of each file the run wrote under runs/<id>/, by file name (audit checks them). */
    artifacts: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String({ pattern: "^[0-9a-f]{64}$" }))),
  }),
  valuation: Type.Object({ run_id: Id, value_minor: Minor, at: Str }),
  trip: Type.Object({ trip: TripRecord }),
  reset: Type.Object({ reset: ResetRecord, value_minor: Minor }),
  usage: Type.Object({ record: UsageRecord }),
  proposal: Type.Object({ record: ProposalRecord }),
  approval: Type.Object({ record: ApprovalRecord }),
  /** `orders_hash`: the hash of the orders handed to the executor, computed by the pipeline. */
  final_gate: Type.Object({ run_id: Id, decisions: Type.Array(Decision), at: Str, orders_hash: Type.Optional(Str) }),
  /** What became of a buy funded by its batch's sells (second wave; or not placed, recorded by the next run). */
  funded_buy: Type.Object({ record: FundedBuyRecordSchema }),
  order_intent: Type.Object({ order: OrderRecord }),
  order_update: Type.Object({ client_order_id: Id, entry: OrderStatusEntry }),
  fill: Type.Object({ fill: FillRecord }),
  note: Type.Object({ note: Note }),
  watch: Type.Object({ record: WatchEvent }),
  standing: Type.Object({ record: StandingEvent }),
  adjustment: Type.Object({ adjustment: AdjustmentRecord }),
  // migration imports (v1 single-document journals)
  import_ledger: Type.Object({ kind: ImportedLedgerKind, amount_minor: Minor, at: Str, note: Type.Optional(Str), symbol: Type.Optional(Str) }),
  import_run: Type.Object({ run: RunRecord }),
  import_order: Type.Object({ order: OrderRecord }),
  import_state: Type.Object({
    peak_minor: Nullable(Minor),
    last_first_value_minor: Nullable(Minor),
    trading_state: TradingState,
    reducing_runs_left: NonNegInt,
    trips: Type.Array(TripRecord),
    resets: Type.Array(ResetRecord),
  }),
};

const Hash = Type.String({ pattern: "^[0-9a-f]{64}$" });
const Decimal = Type.String({ pattern: "^-?\\d+(\\.\\d+)?$" });

export const Checkpoint = Type.Object({
  initialised: Type.Boolean(),
  base_currency: Nullable(Type.String({ pattern: "^[A-Z]{3}$" })),
  cash_minor: Minor,
  /** symbol → quantity and cost basis (base-currency minor units), as exact decimal strings. */
  holdings: Type.Record(Type.String(), Type.Object({ quantity: Decimal, cost_basis_minor: Decimal, currency: Str })),
  peak_minor: Nullable(Minor),
  trading_state: TradingState,
  ledger_entries: NonNegInt,
  fills: NonNegInt,
});

export const HeadDoc = Type.Object({
  format: Type.Literal("tradewarden-journal"),
  schema_version: Type.Integer({ minimum: 1 }),
  created_at: Str,
  updated_at: Str,
  /** `last_hash`: the hash chain after the last committed line (chain.ts); absent in heads written before the chain. */
  log: Type.Object({ file: Str, committed_bytes: NonNegInt, last_seq: NonNegInt, last_hash: Type.Optional(Hash) }),
  checkpoint: Checkpoint,
});

/** One entry of the ledger (the fold's, never on disk as such). `amount_minor`: signed, base-currency minor units. */
export const LedgerEntry = Type.Object({
  seq: Type.Integer(),
  kind: LedgerKind,
  amount_minor: Minor,
  at: Str,
  note: Type.Optional(Str),
  run_id: Type.Optional(Str),
  client_order_id: Type.Optional(Str),
  fill_id: Type.Optional(Str),
  symbol: Type.Optional(Str),
});
