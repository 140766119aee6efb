/**
 * The broker port. Shaped to fit a real paper broker (Alpaca REST v2: clock, account, positions,
 * open orders, POST a limit DAY order with a client order id, order by client id, cancel, fill
 * activities) and the simulated paper broker alike. Quantities are shares; prices in the
 * instrument's currency; every method may throw a `BrokerError`. The records it passes are
 * TypeBox schemas and their `Static<>` types (records.ts).
 */
import { isTerminalStatus } from "../core/order-lifecycle.js";
import {
  type BrokerAccount,
  type BrokerClock,
  type BrokerEndpoint,
  type BrokerFill,
  type BrokerOrder,
  type BrokerOrderStatus,
  BrokerOrderStatusSchema,
  type BrokerPosition,
  type PlaceOrderRequest,
} from "./records.js";

export type { BrokerAccount, BrokerClock, BrokerEndpoint, BrokerFill, BrokerOrder, BrokerOrderStatus, BrokerPosition, PlaceOrderRequest } from "./records.js";

const BROKER_ORDER_STATUSES: readonly BrokerOrderStatus[] = BrokerOrderStatusSchema.anyOf.map((s) => s.const);

/** Every broker status that is not one of the order lifecycle's terminal statuses (core/order-lifecycle.ts). */
export const WORKING_BROKER_STATUSES: ReadonlySet<BrokerOrderStatus> = new Set(BROKER_ORDER_STATUSES.filter((s) => !isTerminalStatus(s)));

export function isWorking(status: BrokerOrderStatus): boolean {
  return WORKING_BROKER_STATUSES.has(status);
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
