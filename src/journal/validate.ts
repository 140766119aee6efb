/**
 * The journal's files checked in full on open, before anything reads a balance or writes: the head
 * document (`journal.json`) and every committed line of the event log (`journal.log.jsonl`) against
 * TypeBox schemas (compiled with ajv), one per event type. An unknown event type, a wrong-typed or
 * non-finite field is refused naming the file, the line and the key — never skipped, never found
 * only after a run has appended to the journal.
 */
import { type TSchema, Type } from "@sinclair/typebox";
import { schemaChecker } from "../config/ajv.js";

/** Minor units and counts: safe integers. Quantities and prices: finite numbers. */
const Minor = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const NonNegInt = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Positive = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Qty = Type.Number({ minimum: 0, maximum: 1e15 });
const Num = Type.Number({ minimum: -1e15, maximum: 1e15 });
const Str = Type.String();
const Id = Type.String({ minLength: 1 });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Side = Type.Union([Type.Literal("BUY"), Type.Literal("SELL")]);
const TradingState = Type.Union([Type.Literal("ACTIVE"), Type.Literal("REDUCING"), Type.Literal("HALTED")]);
const LedgerKind = Type.Union(["deposit", "buy", "sell", "commission"].map((k) => Type.Literal(k)));

const Usage = Type.Object({
  input_tokens: NonNegInt,
  output_tokens: NonNegInt,
  cache_creation_input_tokens: NonNegInt,
  cache_read_input_tokens: NonNegInt,
  cache_creation_5m_input_tokens: Type.Optional(NonNegInt),
  cache_creation_1h_input_tokens: Type.Optional(NonNegInt),
});

const Run = Type.Object({
  run_id: Id,
  mode: Str,
  trading_day: Str,
  started_at: Str,
  finished_at: Nullable(Str),
  status: Type.Union(["running", "completed", "failed", "interrupted", "aborted"].map((k) => Type.Literal(k))),
  outcome: Nullable(Str),
  exit_code: Nullable(Type.Integer()),
  message: Nullable(Str),
  model: Type.Object({ provider: Str, id: Str }),
  broker: Type.Object({ kind: Str }),
  first_value_minor: Nullable(Minor),
  previous_value_minor: Nullable(Minor),
  peak_after_minor: Nullable(Minor),
  cost_micros: NonNegInt,
  notes: Type.Array(Str),
});

const StatusEntry = Type.Object({
  status: Str,
  at: Str,
  broker_order_id: Type.Optional(Str),
  filled_quantity: Type.Optional(Qty),
  message: Type.Optional(Str),
});

const Order = Type.Object({
  run_id: Id,
  client_order_id: Id,
  index: NonNegInt,
  symbol: Id,
  side: Side,
  quantity: Qty,
  limit_price: Qty,
  liquidation: Type.Boolean(),
  currency: Str,
  broker_order_id: Nullable(Str),
  status: Str,
  filled_quantity: Qty,
  history: Type.Array(StatusEntry),
  created_at: Str,
  counted_at: Nullable(Str),
});

const Fill = Type.Object({
  fill_id: Id,
  client_order_id: Id,
  run_id: Str,
  symbol: Id,
  side: Side,
  quantity: Qty,
  price: Qty,
  fx_to_base: Qty,
  gross_minor: Minor,
  commission_minor: Minor,
  at: Str,
  ledger: Type.Boolean(),
});

const ProposedOrder = Type.Object({ symbol: Str, side: Str, quantity: Num, limit_price: Num });
const Decision = Type.Object({ approved: Type.Boolean(), reasons: Type.Array(Type.Object({ code: Str })) });
const Trip = Type.Object({ run_id: Str, at: Str, value: Num, peak: Num, drawdown_pct: Num, reason: Str });
const Reset = Type.Object({ at: Str, who: Str, reason: Str, value: Num, new_peak: Num, reducing_runs: NonNegInt });
const Adjustment = Type.Object({
  id: Id,
  kind: Type.Union(["position", "cash", "order"].map((k) => Type.Literal(k))),
  symbol: Type.Optional(Id),
  quantity_delta: Type.Optional(Num),
  basis_minor: Type.Optional(Minor),
  amount_minor: Type.Optional(Minor),
  client_order_id: Type.Optional(Id),
  difference: Str,
  reason: Type.String({ minLength: 1 }),
  by: Str,
  at: Str,
});
const Note = Type.Object({
  id: Id,
  kind: Str,
  text: Str,
  status: Type.Union([Type.Literal("live"), Type.Literal("superseded")]),
  run_id: Str,
  created_at: Str,
  evidence_ids: Type.Optional(Type.Array(Str)),
});

/** One schema per event type `t`; `seq` is checked by the reader (it must count up from 1). */
const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });
const Price = Type.Number({ exclusiveMinimum: 0, maximum: 1e15 });
const Reasons = Type.Array(Type.Object({ code: Str, message: Str }));

const WatchItem = Type.Object({
  id: Id,
  symbol: Id,
  reason: Str,
  run_id: Id,
  added_day: Day,
  added_at: Str,
  price_at_add: Nullable(Price),
  ttl_trading_days: Positive,
  expires_on: Day,
  alert_above: Type.Optional(Price),
  alert_below: Type.Optional(Price),
  status: Type.Union([Type.Literal("live"), Type.Literal("removed")]),
  removed_at: Type.Optional(Str),
  removed_by_run: Type.Optional(Str),
  removed_reason: Type.Optional(Str),
});
const WatchEvent = Type.Union([
  Type.Object({ kind: Type.Literal("add"), item: WatchItem }),
  Type.Object({ kind: Type.Literal("remove"), id: Id, run_id: Id, at: Str, reason: Str }),
]);

const StandingType = Type.Union(["stop_loss", "take_profit", "buy_limit_below"].map((k) => Type.Literal(k)));
const Fired = Type.Object({
  run_id: Id,
  trading_day: Day,
  reference_price: Price,
  at: Str,
  client_order_id: Type.Optional(Id),
  reasons: Type.Optional(Reasons),
});
const StandingOrder = Type.Object({
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
  expires_on: Day,
  binding_hash: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  status: Type.Union(["proposed", "active", "rejected", "cancelled", "expired", "placed", "blocked"].map((k) => Type.Literal(k))),
  approval: Type.Optional(Type.Object({ by: Str, at: Str, binding_hash: Str, note: Type.Optional(Str) })),
  end: Type.Optional(Type.Object({ at: Str, by: Str, reason: Str })),
  fired: Type.Optional(Fired),
});
const StandingEvent = Type.Union([
  Type.Object({ kind: Type.Literal("propose"), order: StandingOrder }),
  Type.Object({ kind: Type.Literal("approve"), id: Id, by: Str, at: Str, binding_hash: Str, note: Type.Optional(Str) }),
  Type.Object({ kind: Type.Literal("end"), id: Id, status: Type.Union(["rejected", "cancelled", "expired"].map((k) => Type.Literal(k))), by: Str, at: Str, reason: Str }),
  Type.Object({ kind: Type.Literal("fire"), id: Id, placed: Type.Boolean(), fired: Fired }),
]);

const EVENT_BODIES: Record<string, TSchema> = {
  init: Type.Object({ currency: Type.String({ pattern: "^[A-Z]{3}$" }), capital_minor: Positive, at: Str }),
  deposit: Type.Object({ amount_minor: Positive, at: Str, note: Type.Optional(Str) }),
  run_start: Type.Object({ run: Run }),
  run_abort: Type.Object({ run_id: Id, at: Str, message: Str }),
  run_finish: Type.Object({
    run_id: Id,
    status: Str,
    outcome: Nullable(Str),
    exit_code: Nullable(Type.Integer()),
    message: Str,
    at: Str,
    could_trade: Type.Optional(Type.Boolean()),
    artifacts: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String({ pattern: "^[0-9a-f]{64}$" }))),
  }),
  valuation: Type.Object({ run_id: Id, value_minor: Minor, at: Str }),
  trip: Type.Object({ trip: Trip }),
  reset: Type.Object({ reset: Reset, value_minor: Minor }),
  usage: Type.Object({ record: Type.Object({ run_id: Id, model: Str, usage: Usage, cost_micros: NonNegInt, at: Str }) }),
  proposal: Type.Object({ record: Type.Object({ run_id: Id, orders: Type.Array(ProposedOrder), summary: Str, decisions: Type.Array(Decision), at: Str }) }),
  approval: Type.Object({ record: Type.Object({ run_id: Id, decision: Str, by: Str, orders_hash: Str, at: Str }) }),
  final_gate: Type.Object({ run_id: Id, decisions: Type.Array(Decision), at: Str }),
  order_intent: Type.Object({ order: Order }),
  order_update: Type.Object({ client_order_id: Id, entry: StatusEntry }),
  fill: Type.Object({ fill: Fill }),
  note: Type.Object({ note: Note }),
  watch: Type.Object({ record: WatchEvent }),
  standing: Type.Object({ record: StandingEvent }),
  adjustment: Type.Object({ adjustment: Adjustment }),
  import_ledger: Type.Object({ kind: LedgerKind, amount_minor: Minor, at: Str, note: Type.Optional(Str), symbol: Type.Optional(Str) }),
  import_run: Type.Object({ run: Run }),
  import_order: Type.Object({ order: Order }),
  import_state: Type.Object({
    peak_minor: Nullable(Minor),
    last_first_value_minor: Nullable(Minor),
    trading_state: TradingState,
    reducing_runs_left: NonNegInt,
    trips: Type.Array(Trip),
    resets: Type.Array(Reset),
  }),
};

export const JOURNAL_EVENT_TYPES: readonly string[] = Object.keys(EVENT_BODIES);

const checkers = new Map(Object.entries(EVENT_BODIES).map(([t, schema]) => [t, schemaChecker(schema)]));

const Hash = Type.String({ pattern: "^[0-9a-f]{64}$" });
const Holding = Type.Object({ quantity: Type.String({ pattern: "^-?\\d+(\\.\\d+)?$" }), cost_basis_minor: Type.String({ pattern: "^-?\\d+(\\.\\d+)?$" }), currency: Str });
const checkHead = schemaChecker(
  Type.Object({
    format: Type.Literal("tradewarden-journal"),
    schema_version: Type.Integer({ minimum: 1 }),
    created_at: Str,
    updated_at: Str,
    log: Type.Object({ file: Str, committed_bytes: NonNegInt, last_seq: NonNegInt, last_hash: Type.Optional(Hash) }),
    checkpoint: Type.Object({
      initialised: Type.Boolean(),
      base_currency: Nullable(Type.String({ pattern: "^[A-Z]{3}$" })),
      cash_minor: Minor,
      holdings: Type.Record(Type.String(), Holding),
      peak_minor: Nullable(Minor),
      trading_state: TradingState,
      ledger_entries: NonNegInt,
      fills: NonNegInt,
    }),
  }),
);

const listed = (issues: { path: string; rule: string }[]) =>
  issues
    .slice(0, 3)
    .map((i) => `${i.path || "(root)"}: ${i.rule}`)
    .join("; ") + (issues.length > 3 ? `; and ${issues.length - 3} more` : "");

/** Why the head document is not valid, or null when it is. */
export function headIssue(head: unknown): string | null {
  const issues = checkHead(head);
  return issues.length > 0 ? `the head document is not valid: ${listed(issues)}` : null;
}

/** Why a log line's event is not valid (unknown type, wrong fields), or null when it is. */
export function eventIssue(line: number, ev: Record<string, unknown>): string | null {
  const t = ev.t;
  const check = typeof t === "string" ? checkers.get(t) : undefined;
  if (!check) return `event log line ${line}: unknown event type ${JSON.stringify(t ?? null)}`;
  const issues = check(ev);
  return issues.length > 0 ? `event log line ${line} (${t}): ${listed(issues)}` : null;
}
