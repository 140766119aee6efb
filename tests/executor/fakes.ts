import type { Broker, BrokerOrder, PlaceOrderRequest } from "../../src/broker/types.js";
import type { OrderStatus, Side } from "../../src/core/domain.js";
import { transition } from "../../src/core/order-lifecycle.js";
import type { ExecutorJournal } from "../../src/executor/types.js";

export interface FakeOrderRow {
  client_order_id: string;
  symbol: string;
  side: Side;
  quantity: number;
  status: OrderStatus;
  broker_order_id?: string;
  filled_quantity?: number;
  message?: string;
}

/** In-memory ExecutorJournal: orders by client id, fills idempotent by fill_id, a shared log. */
export class FakeJournal implements ExecutorJournal {
  orders = new Map<string, FakeOrderRow>();
  fills = new Map<string, { client_order_id: string; symbol: string; side: Side; quantity: number; price: number; commission: number }>();
  updates: { client_order_id: string; status: OrderStatus }[] = [];
  /** Status changes refused as illegal steps of the order lifecycle. */
  illegal: string[] = [];
  failIntent = false;
  constructor(readonly log: string[] = []) {}

  recordOrderIntent(i: Parameters<ExecutorJournal["recordOrderIntent"]>[0]): void {
    if (this.failIntent) throw new Error("disk full");
    if (this.orders.has(i.client_order_id)) throw new Error(`intent ${i.client_order_id} recorded twice`);
    this.log.push(`intent ${i.client_order_id}`);
    this.orders.set(i.client_order_id, { client_order_id: i.client_order_id, symbol: i.symbol, side: i.side, quantity: i.quantity, status: "intent" });
  }
  recordOrderUpdate(id: string, u: Parameters<ExecutorJournal["recordOrderUpdate"]>[1]): void {
    const row = this.orders.get(id);
    if (!row) throw new Error(`update for unknown order ${id}`);
    // The real journal refuses a step the order lifecycle does not have: so does the fake (and says so).
    const step = transition(id, row.status, u.status);
    if (!step.ok) {
      this.illegal.push(step.error.message);
      throw step.error;
    }
    Object.assign(row, u);
    this.updates.push({ client_order_id: id, status: u.status });
  }
  bookFill(id: string, f: Parameters<ExecutorJournal["bookFill"]>[1]): void {
    if (!this.orders.has(id)) throw new Error(`fill for unknown order ${id}`);
    if (this.fills.has(f.fill_id)) return;
    this.fills.set(f.fill_id, { client_order_id: id, ...f });
  }
  positions(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const f of this.fills.values()) out[f.symbol] = (out[f.symbol] ?? 0) + (f.side === "BUY" ? f.quantity : -f.quantity);
    for (const k of Object.keys(out)) if (out[k] === 0) delete out[k];
    return out;
  }
}

/** Counts sends per client id and logs them after the journal's intents. */
export class SpyBroker implements Broker {
  sends = new Map<string, number>();
  constructor(
    readonly inner: Broker,
    readonly log: string[],
  ) {}
  endpoint() {
    return this.inner.endpoint();
  }
  clock() {
    return this.inner.clock();
  }
  account() {
    return this.inner.account();
  }
  positions() {
    return this.inner.positions();
  }
  openOrders() {
    return this.inner.openOrders();
  }
  placeLimitDayOrder(req: PlaceOrderRequest): Promise<BrokerOrder> {
    this.log.push(`send ${req.client_order_id}`);
    this.sends.set(req.client_order_id, (this.sends.get(req.client_order_id) ?? 0) + 1);
    return this.inner.placeLimitDayOrder(req);
  }
  orderByClientId(id: string) {
    return this.inner.orderByClientId(id);
  }
  cancel(id: string) {
    return this.inner.cancel(id);
  }
  fills(id: string) {
    return this.inner.fills(id);
  }
}
