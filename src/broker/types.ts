/**
 * The broker port. Shaped to fit a real paper broker (Alpaca REST v2: clock, account, positions,
 * open orders, POST a limit DAY order with a client order id, order by client id, cancel, fill
 * activities) and the simulated paper broker alike. Quantities are shares; prices in the
 * instrument's currency; every method may throw a `BrokerError`.
 */
import type { Side } from "../core/domain.js";
import { isTerminalStatus } from "../core/order-lifecycle.js";

/** Where an order is at the broker. `pending_cancel` is still working. */
export type BrokerOrderStatus = "accepted" | "partially_filled" | "pending_cancel" | "filled" | "cancelled" | "expired" | "rejected";

const BROKER_ORDER_STATUSES: readonly BrokerOrderStatus[] = ["accepted", "partially_filled", "pending_cancel", "filled", "cancelled", "expired", "rejected"];

/** Every broker status that is not one of the order lifecycle's terminal statuses (core/order-lifecycle.ts). */
export const WORKING_BROKER_STATUSES: ReadonlySet<BrokerOrderStatus> = new Set(BROKER_ORDER_STATUSES.filter((s) => !isTerminalStatus(s)));

export function isWorking(status: BrokerOrderStatus): boolean {
  return WORKING_BROKER_STATUSES.has(status);
}

export interface BrokerClock {
  /** The session the broker would trade an order in now (YYYY-MM-DD). */
  tradingDay: string;
  isOpen: boolean;
  /** The broker's notion of now (ISO 8601). */
  now: string;
  nextOpen?: string;
  nextClose?: string;
}

export interface BrokerAccount {
  account_id: string;
  /** Must be true: the guard refuses anything else. */
  paper: boolean;
  cash: number;
  currency: string;
  status: string;
  trading_blocked: boolean;
  /**
   * Set only by a broker whose book is the account's own (the simulated broker): the cash it
   * started with, so reconciliation can compare the cash moved by trading with the journal's.
   */
  starting_cash?: number;
}

export interface BrokerPosition {
  symbol: string;
  quantity: number;
  /** Average cost per share including commissions, if the broker reports it. */
  avg_cost?: number;
}

export interface PlaceOrderRequest {
  /** ≤ 128 characters; unique per order, forever. */
  client_order_id: string;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
}

export interface BrokerOrder {
  broker_order_id: string;
  client_order_id: string;
  symbol: string;
  side: Side;
  quantity: number;
  limit_price: number;
  status: BrokerOrderStatus;
  filled_quantity: number;
  /** Volume-weighted fill price, null before any fill. */
  avg_fill_price: number | null;
  submitted_at: string;
  updated_at: string;
  /** The session the order belongs to (YYYY-MM-DD). */
  trading_day?: string;
  reject_reason?: string;
}

export interface BrokerFill {
  fill_id: string;
  broker_order_id: string;
  symbol: string;
  side: Side;
  quantity: number;
  price: number;
  /** The commission charged for this fill, in `commission_currency`. */
  commission: number;
  /** ISO 4217: the instrument's currency or the account's; the journal books it in the base currency at the fill's rate. */
  commission_currency: string;
  at: string;
}

export interface BrokerEndpoint {
  kind: "sim" | "alpaca";
  url: string;
  paper: boolean;
}

export interface Broker {
  endpoint(): BrokerEndpoint;
  clock(): Promise<BrokerClock>;
  account(): Promise<BrokerAccount>;
  positions(): Promise<BrokerPosition[]>;
  /** Orders still working (accepted, partially filled, pending cancel). */
  openOrders(): Promise<BrokerOrder[]>;
  /**
   * Sends a limit DAY order. Never retried by callers: on `timeout` / `broker_unreachable` the
   * order may exist — look it up by client id. A reused client id throws `duplicate_client_order_id`.
   */
  placeLimitDayOrder(req: PlaceOrderRequest): Promise<BrokerOrder>;
  orderByClientId(clientOrderId: string): Promise<BrokerOrder | undefined>;
  /** Requests a cancel and returns the order's state after it (a filled order stays filled). */
  cancel(brokerOrderId: string): Promise<BrokerOrder>;
  /** Executions of one order so far (may lag the order's filled quantity briefly). */
  fills(brokerOrderId: string): Promise<BrokerFill[]>;
}
