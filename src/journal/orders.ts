/**
 * The executor's side of the journal (pure over the folded state): the events that record an
 * order's intent before the send, its status changes, and its fills. A fill is booked in the base
 * currency at the order's rate: gross = quantity × price × fx_to_base, and a commission in the
 * instrument's currency is converted at the same rate (one rounding each, half-even, to minor units).
 */
import type { OrderStatus, Side } from "../core/domain.js";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { productToMinor, toMinor } from "../core/money.js";
import { transition } from "../core/order-lifecycle.js";
import type { FillBooking } from "../core/order.js";
import type { State } from "./state.js";
import type { FillRecord, JournalEventBody, OrderRecord } from "./types.js";

const usage = (code: string, message: string) => new TwError(code, message, EXIT.USAGE_OR_CONFIG);

export function positive(n: number, what: string, allowZero = false): void {
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw usage("invalid_amount", `${what} must be a ${allowZero ? "non-negative" : "positive"} finite number (got ${String(n)})`);
  }
}

export interface IntentArgs {
  run_id: string;
  client_order_id: string;
  index: number;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  at: string;
  /** The instrument's currency (default: the base currency). */
  currency?: string;
  /** The rate to base the order was approved at (default 1 for the base currency). */
  fx_to_base?: number;
  liquidation?: boolean;
}

export function intentEvent(s: State, base: string, args: IntentArgs): JournalEventBody {
  if (s.orders.has(args.client_order_id)) throw usage("duplicate_order", `client order id ${args.client_order_id} is already in the journal`);
  if (args.side !== "BUY" && args.side !== "SELL") throw usage("invalid_side", `side must be BUY or SELL (got ${String(args.side)})`);
  positive(args.quantity, "quantity");
  positive(args.limit_price, "limit_price");
  const currency = (args.currency ?? base).toUpperCase();
  if (args.fx_to_base !== undefined) positive(args.fx_to_base, "fx_to_base");
  else if (currency !== base) throw usage("fx_required", `order ${args.client_order_id} is in ${currency}, not ${base}: it needs its rate to ${base}`);
  const order: OrderRecord = {
    run_id: args.run_id,
    client_order_id: args.client_order_id,
    index: args.index,
    symbol: args.symbol,
    side: args.side,
    quantity: args.quantity,
    limit_price: args.limit_price,
    liquidation: args.liquidation ?? false,
    currency,
    fx_to_base: args.fx_to_base ?? 1,
    broker_order_id: null,
    status: "intent",
    filled_quantity: 0,
    history: [{ status: "intent", at: args.at }],
    created_at: args.at,
    counted_at: null,
  };
  return { t: "order_intent", order };
}

export interface UpdateArgs {
  status: OrderStatus;
  broker_order_id?: string;
  filled_quantity?: number;
  message?: string;
  at: string;
}

/** The status change as an event; none when it repeats the current state; an illegal step (core/order-lifecycle.ts) is refused. */
export function updateEvents(s: State, client_order_id: string, args: UpdateArgs): JournalEventBody[] {
  const o = s.orders.get(client_order_id);
  if (!o) throw new TwError("unknown_order", `order ${client_order_id} is not in the journal (record the intent before sending)`);
  const last = o.history.at(-1);
  const entry = { status: args.status, at: args.at, ...pick(args) };
  const repeat =
    last !== undefined &&
    last.status === args.status &&
    (args.broker_order_id === undefined || args.broker_order_id === o.broker_order_id) &&
    (args.filled_quantity === undefined || args.filled_quantity === o.filled_quantity) &&
    (args.message === undefined || args.message === last.message);
  if (repeat) return [];
  const step = transition(client_order_id, o.status, args.status);
  if (!step.ok) throw step.error;
  return [{ t: "order_update", client_order_id, entry }];
}

/** A fill to book; the commission currency defaults to the base currency. */
export type FillArgs = Omit<FillBooking, "commission_currency"> & { commission_currency?: string };

/** The fill as an event; none when the same fill is already booked (a different one under its id is refused). */
export function fillEvents(s: State, base: string, client_order_id: string, args: FillArgs): JournalEventBody[] {
  const o = s.orders.get(client_order_id);
  if (!o) throw new TwError("unknown_order", `fill ${args.fill_id} names order ${client_order_id}, which is not in the journal`);
  if (o.symbol !== args.symbol || o.side !== args.side) {
    throw new TwError("fill_mismatch", `fill ${args.fill_id} is ${args.side} ${args.symbol} but order ${client_order_id} is ${o.side} ${o.symbol}`);
  }
  positive(args.quantity, "fill quantity");
  positive(args.price, "fill price");
  positive(args.commission, "commission", true);
  positive(args.fx_to_base, "fx_to_base");
  if (o.fx_to_base !== undefined && o.fx_to_base !== args.fx_to_base) {
    throw new TwError("fill_mismatch", `fill ${args.fill_id} comes at rate ${args.fx_to_base} but order ${client_order_id} was placed at ${o.fx_to_base}`);
  }
  const fill: FillRecord = {
    fill_id: args.fill_id,
    client_order_id,
    run_id: o.run_id,
    symbol: args.symbol,
    side: args.side,
    quantity: args.quantity,
    price: args.price,
    fx_to_base: args.fx_to_base,
    gross_minor: productToMinor(args.quantity, args.price, args.fx_to_base, base),
    commission_minor: commissionMinor(args, o.currency, base),
    at: args.at,
    ledger: true,
  };
  const existing = s.fills.get(args.fill_id);
  if (existing) {
    const same = (["client_order_id", "symbol", "side", "quantity", "price", "fx_to_base", "gross_minor", "commission_minor"] as const).every(
      (k) => existing[k] === fill[k],
    );
    if (!same) throw new TwError("fill_conflict", `fill ${args.fill_id} is already booked with different details`);
    return [];
  }
  return [{ t: "fill", fill }];
}

/** The commission in base-currency minor units: converted at the fill's rate when in the instrument's currency. */
function commissionMinor(args: FillArgs, instrumentCurrency: string, base: string): number {
  const cur = (args.commission_currency ?? base).toUpperCase();
  if (args.commission === 0 || cur === base) return toMinor(args.commission, base);
  if (cur === instrumentCurrency.toUpperCase()) return productToMinor(1, args.commission, args.fx_to_base, base);
  throw new TwError(
    "commission_currency",
    `fill ${args.fill_id}: commission in ${cur} is neither the instrument's currency (${instrumentCurrency}) nor the base (${base}); no rate to book it`,
  );
}

function pick(args: { broker_order_id?: string; filled_quantity?: number; message?: string }) {
  const o: { broker_order_id?: string; filled_quantity?: number; message?: string } = {};
  if (args.broker_order_id !== undefined) o.broker_order_id = args.broker_order_id;
  if (args.filled_quantity !== undefined) o.filled_quantity = args.filled_quantity;
  if (args.message !== undefined) o.message = args.message;
  return o;
}
