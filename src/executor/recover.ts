/**
 * Order recovery: before anything is reconciled, every journal order whose outcome is not final
 * (`intent`, `uncertain`, still working, `working_after_cancel`, or final at the broker with fills
 * not yet booked) is looked up at the broker by its client order id — written to the journal before
 * the send, so a run that died anywhere left it behind.
 *
 * - Found: an order still working is cancelled (the run that watched it is gone; a DAY order is not
 *   left unsupervised), its fills are booked idempotently (by fill id), its status settled. A send
 *   that reached the broker counts toward the monthly quota (the journal's quota rule).
 * - Not found: the send may still be in flight until the executor's wait has passed after the
 *   intent; until then the order stays `uncertain` (never declared rejected early). After it, the
 *   order never reached the broker: settled as not received (not counted, never re-sent).
 * - A lookup that fails leaves the order as it was: unresolved, and reconciliation stops on it.
 */
import type { Broker, BrokerFill, BrokerOrder } from "../broker/types.js";
import { isWorking } from "../broker/types.js";
import type { OrderStatus, Side } from "../core/domain.js";
import type { RunEventBody } from "../core/events.js";
import { defaultSleep, toOrderStatus } from "./steps/context.js";
import type { ExecutorJournal } from "./types.js";

/** What recovery needs to know of a journal order. */
interface RecoverableOrder {
  run_id: string;
  client_order_id: string;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  status: OrderStatus;
  filled_quantity: number;
  broker_order_id: string | null;
  created_at: string;
  /** Instrument currency → base currency for booking fills (default 1). */
  fx_to_base?: number;
}

interface RecoveryJournal extends ExecutorJournal {
  /** Orders whose outcome is not final: not in a final state, or final with fewer fills booked than the broker reported. */
  unsettledOrders(): RecoverableOrder[];
  /** Fill quantity booked for an order. */
  bookedQuantity(client_order_id: string): number;
}

export interface RecoverOptions {
  journal: RecoveryJournal;
  broker: Broker;
  emit: (e: RunEventBody) => void;
  /** Wall-clock milliseconds (the in-flight window is measured on it). */
  now: () => number;
  /** The executor's wait (ms): an intent younger than this may still be on its way to the broker. */
  waitMs: number;
  /** Bounded wait for fills that lag the order's filled quantity (ms; default 0). */
  settleMs?: number;
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RecoveryResult {
  client_order_id: string;
  run_id: string;
  settled: boolean;
  status_before: OrderStatus;
  status: OrderStatus;
  message: string;
  /** The broker could not be asked (the order is left as it was). */
  lookupFailed?: boolean;
}

export async function recoverOrders(opts: RecoverOptions): Promise<RecoveryResult[]> {
  const out: RecoveryResult[] = [];
  for (const o of opts.journal.unsettledOrders()) {
    const r = await recoverOne(opts, o);
    out.push(r);
  }
  return out;
}

type Report = (status: OrderStatus, settled: boolean, message: string, b?: BrokerOrder, fillsBooked?: number, lookupFailed?: boolean) => RecoveryResult;

/** Emits `order.recovered` for the order and returns its result. */
function reporter(emit: RecoverOptions["emit"], o: RecoverableOrder): Report {
  const id = o.client_order_id;
  return (status, settled, message, b, fillsBooked = 0, lookupFailed = false) => {
    emit({
      type: "order.recovered",
      client_order_id: id,
      ...(b ? { broker_order_id: b.broker_order_id } : o.broker_order_id ? { broker_order_id: o.broker_order_id } : {}),
      from_run: o.run_id,
      symbol: o.symbol,
      side: o.side,
      quantity: o.quantity,
      limit_price: o.limit_price,
      status_before: o.status,
      status,
      filled_quantity: b?.filled_quantity ?? o.filled_quantity,
      fills_booked: fillsBooked,
      settled,
      message,
    });
    return { client_order_id: id, run_id: o.run_id, settled, status_before: o.status, status, message, ...(lookupFailed ? { lookupFailed } : {}) };
  };
}

const isoNow = (opts: RecoverOptions) => new Date(opts.now()).toISOString();

async function recoverOne(opts: RecoverOptions, o: RecoverableOrder): Promise<RecoveryResult> {
  const result = reporter(opts.emit, o);
  let found: BrokerOrder | undefined;
  try {
    found = await opts.broker.orderByClientId(o.client_order_id);
  } catch (e) {
    return result(o.status, false, `the broker could not be asked about it (${(e as Error).message}); left as it was`, undefined, 0, true);
  }
  return found ? settleFound(opts, o, found, result) : settleNotFound(opts, o, result);
}

/** Not at the broker: uncertain while the send may be in flight, then settled as never received. */
async function settleNotFound(opts: RecoverOptions, o: RecoverableOrder, result: Report): Promise<RecoveryResult> {
  const id = o.client_order_id;
  if (o.status !== "intent" && o.status !== "uncertain") {
    return result(o.status, false, `the journal says the broker had it (${o.status}), but the broker has no order with this client order id`);
  }
  const inFlightUntil = Date.parse(o.created_at) + opts.waitMs;
  if (Number.isFinite(inFlightUntil) && opts.now() < inFlightUntil) {
    const message = `not at the broker yet; the send may still be on its way until ${new Date(inFlightUntil).toISOString()} (the executor's wait), so it stays uncertain`;
    await opts.journal.recordOrderUpdate(id, { status: "uncertain", message, at: isoNow(opts) });
    return result("uncertain", false, message);
  }
  const message = "the broker has no order with this client order id after the executor's wait: it never reached the broker (not re-sent, not counted)";
  await opts.journal.recordOrderUpdate(id, { status: "rejected", message, at: isoNow(opts) });
  return result("rejected", true, message);
}

/** Found at the broker: cancel it if still working, book its fills, settle its status. */
async function settleFound(opts: RecoverOptions, o: RecoverableOrder, found: BrokerOrder, result: Report): Promise<RecoveryResult> {
  const { journal } = opts;
  const id = o.client_order_id;
  const notes: string[] = [];
  const b = await cancelIfWorking(opts.broker, id, found, notes);
  const booked = await bookBrokerFills(opts, o, b, notes);
  const status: OrderStatus = isWorking(b.status) ? "working_after_cancel" : toOrderStatus(b);
  const allBooked = journal.bookedQuantity(id) + 1e-9 >= b.filled_quantity;
  if (!allBooked) notes.push(`the broker reports ${b.filled_quantity} filled, ${journal.bookedQuantity(id)} booked`);
  const message = `found at the broker by client order id: ${b.status}, ${b.filled_quantity} of ${b.quantity} filled${notes.length ? `; ${notes.join("; ")}` : ""}`;
  await journal.recordOrderUpdate(id, { status, broker_order_id: b.broker_order_id, filled_quantity: b.filled_quantity, message, at: isoNow(opts) });
  return result(status, status !== "working_after_cancel" && allBooked, message, b, booked);
}

/** A still-working order is cancelled (the run that watched it is gone); returns the order as it now stands. */
async function cancelIfWorking(broker: Broker, id: string, b: BrokerOrder, notes: string[]): Promise<BrokerOrder> {
  if (!isWorking(b.status)) return b;
  try {
    const cancelled = await broker.cancel(b.broker_order_id);
    notes.push("it was still working and has been cancelled (the run that watched it is gone)");
    return cancelled;
  } catch (e) {
    notes.push(`it is still working and the cancel failed (${(e as Error).message})`);
    return (await broker.orderByClientId(id).catch(() => undefined)) ?? b;
  }
}

/** Books the order's fills idempotently, waiting (bounded by settleMs) for fills that lag its filled quantity; returns how many were new. */
async function bookBrokerFills(opts: RecoverOptions, o: RecoverableOrder, b: BrokerOrder, notes: string[]): Promise<number> {
  const { journal } = opts;
  const id = o.client_order_id;
  const sleep = opts.sleep ?? defaultSleep;
  let booked = 0;
  const deadline = opts.now() + (opts.settleMs ?? 0);
  for (;;) {
    let fills: BrokerFill[] = [];
    try {
      fills = await opts.broker.fills(b.broker_order_id);
    } catch (e) {
      notes.push(`its fills could not be read (${(e as Error).message})`);
      break;
    }
    for (const f of fills) {
      const before = journal.bookedQuantity(id);
      await journal.bookFill(id, {
        fill_id: f.fill_id,
        symbol: o.symbol,
        side: o.side,
        quantity: f.quantity,
        price: f.price,
        commission: f.commission,
        commission_currency: f.commission_currency,
        fx_to_base: o.fx_to_base ?? 1,
        at: f.at,
      });
      if (journal.bookedQuantity(id) > before) booked++;
    }
    if (journal.bookedQuantity(id) + 1e-9 >= b.filled_quantity || opts.now() >= deadline) break;
    await sleep(opts.pollMs ?? 200);
  }
  return booked;
}
