/**
 * What every executor step shares: the run's ports and clock (`ExecContext`), one order's working
 * state (`OrderEntry`), and the small acts each step is made of — record a status in the journal
 * (only changes), observe the broker's view of the order, reject, adopt a broker order. Never
 * throws into the lifecycle: a journal write that fails and a listener that throws are problems.
 */
import type { BrokerOrder, BrokerOrderStatus } from "../../broker/types.js";
import { isWorking } from "../../broker/types.js";
import type { OrderStatus } from "../../core/domain.js";
import type { OrderEventBase, RunEventBody } from "../../core/events.js";
import type { Order } from "../../core/order.js";
import type { Broker } from "../../broker/types.js";
import type { ExecuteOptions, ExecutorJournal, OrderExecution } from "../types.js";

export interface ExecContext {
  broker: Broker;
  journal: ExecutorJournal;
  signal?: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch. */
  now: () => number;
  waitMs: number;
  settleMs: number;
  pollMs: number;
  /** Differences and failures a person should see. */
  problems: string[];
  /** Journal writes that failed after the broker had the order. */
  journalErrors: string[];
  /** The run's listener; one that throws is a problem to report, never an exception in the lifecycle. */
  emit: (event: RunEventBody) => void;
}

export interface OrderEntry {
  order: Order & { client_order_id: string };
  res: OrderExecution;
  broker?: BrokerOrder;
  /** Last status/filled written to the journal, to write only changes. */
  recorded?: { status: OrderStatus; filled: number };
  bookedIds: Set<string>;
  /** Outcome event already emitted (rejected / uncertain-unresolved). */
  done: boolean;
  announcedFilled: number;
}

export const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/** A broker status as the journal's OrderStatus (pending_cancel is still working). */
export function toOrderStatus(o: Pick<BrokerOrder, "status" | "filled_quantity">): OrderStatus {
  const s: BrokerOrderStatus = o.status;
  if (s === "pending_cancel") return o.filled_quantity > 0 ? "partially_filled" : "accepted";
  return s;
}

export function executionContext(opts: ExecuteOptions): ExecContext {
  const problems: string[] = [];
  return {
    broker: opts.broker,
    journal: opts.journal,
    ...(opts.signal ? { signal: opts.signal } : {}),
    sleep: opts.sleep ?? defaultSleep,
    now: opts.now ?? Date.now,
    waitMs: Math.max(0, opts.config.wait_s * 1000),
    settleMs: Math.max(0, opts.config.settle_s * 1000),
    pollMs: Math.max(0, opts.config.poll_ms),
    problems,
    journalErrors: [],
    emit: (event) => {
      try {
        opts.emit(event);
      } catch (err) {
        problems.push(`an event listener failed on ${event.type}: ${(err as Error).message}`);
      }
    },
  };
}

/** A new order's entry: not sent yet, with its client order id. */
export function newEntry(placed: Order, index: number, clientOrderId: string): OrderEntry {
  const order = { ...placed, symbol: placed.symbol.toUpperCase(), client_order_id: clientOrderId };
  return {
    order,
    bookedIds: new Set<string>(),
    done: false,
    announcedFilled: 0,
    res: {
      index,
      client_order_id: order.client_order_id,
      order,
      symbol: order.symbol,
      side: order.side,
      quantity: order.quantity,
      limit_price: order.limit_price,
      status: "not_sent",
      filled_quantity: 0,
      avg_price: null,
      commission: 0,
      fills: [],
    },
  };
}

/** Sells first (stable): they free cash and shares for the buys. */
export function sellsFirst(entries: readonly OrderEntry[]): OrderEntry[] {
  return [...entries].sort((a, b) => (a.order.side === b.order.side ? a.res.index - b.res.index : a.order.side === "SELL" ? -1 : 1));
}

/** The orders still working at the broker as far as the executor knows. */
export function working(entries: readonly OrderEntry[]): OrderEntry[] {
  return entries.filter((e) => !e.done && e.broker && isWorking(e.broker.status));
}

export const iso = (ctx: ExecContext): string => new Date(ctx.now()).toISOString();

export function base(e: OrderEntry): OrderEventBase {
  return {
    client_order_id: e.res.client_order_id,
    ...(e.res.broker_order_id ? { broker_order_id: e.res.broker_order_id } : {}),
    symbol: e.res.symbol,
    side: e.res.side,
    quantity: e.res.quantity,
    limit_price: e.res.limit_price,
  };
}

export function note(ctx: ExecContext, message: string): void {
  ctx.problems.push(message);
  ctx.emit({ type: "run.note", level: "warn", message });
}

/** Writes the status to the journal when it (or the filled quantity, or a message) changed. */
export async function record(ctx: ExecContext, e: OrderEntry, status: OrderStatus, message?: string): Promise<void> {
  const filled = e.broker?.filled_quantity ?? 0;
  if (e.recorded && e.recorded.status === status && e.recorded.filled === filled && message === undefined) return;
  e.res.status = status;
  e.res.filled_quantity = filled;
  if (message !== undefined) e.res.message = message;
  try {
    await ctx.journal.recordOrderUpdate(e.res.client_order_id, {
      status,
      ...(e.res.broker_order_id ? { broker_order_id: e.res.broker_order_id } : {}),
      filled_quantity: filled,
      ...(message !== undefined ? { message } : {}),
      at: iso(ctx),
    });
    e.recorded = { status, filled };
  } catch (err) {
    ctx.journalErrors.push(`${e.res.client_order_id}: ${(err as Error).message}`);
    note(ctx, `journal could not record ${status} for ${e.res.client_order_id}: ${(err as Error).message}`);
  }
}

/** The broker's view of the order: recorded when it changed, a growing partial fill announced. */
export async function observe(ctx: ExecContext, e: OrderEntry, o: BrokerOrder): Promise<void> {
  e.broker = o;
  e.res.broker_order_id = o.broker_order_id;
  const status = toOrderStatus(o);
  if (!(e.recorded && e.recorded.status === status && e.recorded.filled === o.filled_quantity)) await record(ctx, e, status);
  if (isWorking(o.status) && o.filled_quantity > e.announcedFilled) {
    e.announcedFilled = o.filled_quantity;
    ctx.emit({ type: "order.partially_filled", ...base(e), filled_quantity: o.filled_quantity, avg_price: o.avg_fill_price ?? 0 });
  }
}

export async function rejected(ctx: ExecContext, e: OrderEntry, message: string): Promise<void> {
  await record(ctx, e, "rejected", message);
  e.done = true;
  ctx.emit({ type: "order.rejected", ...base(e), message });
}

/** The order the broker has (from the send or a lookup): placed and observed, or rejected. */
export async function adopt(ctx: ExecContext, e: OrderEntry, o: BrokerOrder, how?: string): Promise<void> {
  if (o.status === "rejected") {
    e.broker = o;
    e.res.broker_order_id = o.broker_order_id;
    return rejected(ctx, e, o.reject_reason ?? "rejected by the broker");
  }
  e.broker = o;
  e.res.broker_order_id = o.broker_order_id;
  ctx.emit({ type: "order.placed", ...base(e) });
  await observe(ctx, e, o);
  if (how) e.res.message = how;
}
