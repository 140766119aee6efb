/**
 * The executor's ports and results. `ExecutorJournal` is implemented by the journal (src/journal);
 * tests use an in-memory fake.
 */
import type { ExecutorConfig } from "../config/types.js";
import type { OrderStatus, Side } from "../core/domain.js";
import type { Broker } from "../broker/types.js";
import type { RunEventBody } from "../core/events.js";

export interface ExecutorJournal {
  recordOrderIntent(i: {
    run_id: string;
    client_order_id: string;
    index: number;
    symbol: string;
    side: Side;
    quantity: number;
    limit_price: number;
    at: string;
  }): void | Promise<void>;
  recordOrderUpdate(
    client_order_id: string,
    u: { status: OrderStatus; broker_order_id?: string; filled_quantity?: number; message?: string; at: string },
  ): void | Promise<void>;
  bookFill(
    client_order_id: string,
    f: { fill_id: string; symbol: string; side: Side; quantity: number; price: number; commission: number; fx_to_base: number; at: string },
  ): void | Promise<void>; // idempotent by fill_id
}

/** An order approved by the final gate (and the operator). ProposedOrder fits. */
export interface ExecOrder {
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  /** Instrument currency → base currency, for booking fills (default 1). */
  fx_to_base?: number;
}

export interface ExecuteOptions {
  runId: string;
  /** Final-gate-approved orders, in any order; index i gets client order id `tw-<runId>-<i>`. */
  orders: readonly ExecOrder[];
  broker: Broker;
  journal: ExecutorJournal;
  config: ExecutorConfig;
  emit: (event: RunEventBody) => void;
  /** Aborting stops sending, skips the wait, cancels what is working and books what filled. */
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** Kill-switch liquidation orders: client ids `tw-<runId>-L<index>` (distinct from the run's own orders). */
  liquidation?: boolean;
}

/** `not_sent`: never reached the broker (interrupted, or the journal could not record the intent). */
export type ExecutionStatus = OrderStatus | "not_sent";

export interface BookedFill {
  fill_id: string;
  quantity: number;
  price: number;
  commission: number;
  at: string;
}

export interface OrderExecution {
  index: number;
  client_order_id: string;
  broker_order_id?: string;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  status: ExecutionStatus;
  /** The broker's filled quantity (what the journal was told). */
  filled_quantity: number;
  /** Volume-weighted price of the booked fills; null when nothing was booked. */
  avg_price: number | null;
  commission: number;
  fills: BookedFill[];
  message?: string;
  /** Set when the broker's filled quantity and the booked fills disagree after settling. */
  discrepancy?: string;
}

export interface ExecuteResult {
  results: OrderExecution[];
  /** Differences and failures a person should see (also emitted as run.note warnings). */
  problems: string[];
}
