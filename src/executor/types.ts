/**
 * The executor's ports and results. `ExecutorJournal` is implemented by the journal (src/journal);
 * tests use an in-memory fake. The executor receives the typed `Order` the final gate (or the kill
 * switch) produced and hands the same order, with its client order id, to the journal.
 */
import type { ExecutorConfig } from "../config/types.js";
import type { OrderStatus, Side } from "../core/domain.js";

import type { FillBooking, Order } from "../core/order.js";
import type { Broker } from "../broker/types.js";
import type { RunEventBody } from "../core/events.js";

/** The order as the journal records it before the send: the placed order, its client id, its run. */
type OrderIntent = Order & { client_order_id: string; run_id: string; index: number; at: string };

export interface ExecutorJournal {
  recordOrderIntent(i: OrderIntent): void | Promise<void>;
  recordOrderUpdate(
    client_order_id: string,
    u: { status: OrderStatus; broker_order_id?: string; filled_quantity?: number; message?: string; at: string },
  ): void | Promise<void>;
  /** Idempotent by fill_id. */
  bookFill(client_order_id: string, f: FillBooking): void | Promise<void>;
}

export interface ExecuteOptions {
  runId: string;
  /**
   * Orders to place, in any order (sells are sent first). Index i gets client order id
   * `tw-<runId>-<i>`, or `tw-<runId>-L<i>` for a kill-switch liquidation order.
   */
  orders: readonly Order[];
  broker: Broker;
  journal: ExecutorJournal;
  config: ExecutorConfig;
  /** Event listener; a listener that throws is reported as a problem, never into the executor. */
  emit: (event: RunEventBody) => void;
  /** Aborting stops sending, skips the wait, cancels what is working and books what filled. */
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** Orders fired by standing orders: client ids `tw-<runId>-S<index>` (they count toward the quota). */
  standing?: boolean;
  /**
   * The index of the first order (default 0): a run's second wave (buys funded by the first wave's
   * sells) continues the first wave's numbering, so no client order id is used twice.
   */
  firstIndex?: number;
}

/** `not_sent`: never reached the broker (interrupted, or the journal could not record the intent). */
type ExecutionStatus = OrderStatus | "not_sent";

interface BookedFill {
  fill_id: string;
  quantity: number;
  price: number;
  commission: number;
  commission_currency: string;
  at: string;
}

export interface OrderExecution {
  index: number;
  client_order_id: string;
  broker_order_id?: string;
  /** The order as placed (with its client order id). */
  order: Order & { client_order_id: string };
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  status: ExecutionStatus;
  /** The broker's filled quantity (what the journal was told). */
  filled_quantity: number;
  /** Volume-weighted price of the booked fills; null when nothing was booked. */
  avg_price: number | null;
  /** Sum of the booked fills' commissions, in the broker's commission currency. */
  commission: number;
  fills: BookedFill[];
  message?: string;
  /** The stable code of the error that kept the order from the broker (a refused or failed send). */
  error_code?: string;
  /** Set when the broker's filled quantity and the booked fills disagree after settling. */
  discrepancy?: string;
}

export interface ExecuteResult {
  results: OrderExecution[];
  /** Differences and failures a person should see (also emitted as run.note warnings). */
  problems: string[];
  /** Journal writes that failed after the broker had the order (the next run recovers them by client order id). */
  journal_errors?: string[];
}
