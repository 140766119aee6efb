/** When an order's outcome is final: one rule for recovery, `journal verify` and the journal's queries. */
import type { OrderStatus } from "../core/domain.js";
import { TERMINAL_ORDER_STATUSES } from "../core/order-lifecycle.js";
import type { OrderRecord } from "./types.js";
import type { State } from "./state.js";

/** Not in a final state, or final with fewer fills booked than the broker reported (a filled order without its fills). */
export function isUnsettled(o: { status: OrderStatus; quantity: number; filled_quantity: number }, booked: number): boolean {
  if (!TERMINAL_ORDER_STATUSES.has(o.status)) return true;
  const expected = o.status === "filled" ? Math.max(o.quantity, o.filled_quantity) : o.filled_quantity;
  return booked + 1e-9 < expected;
}

/** Fill quantity booked for an order. */
export function bookedQuantity(s: State, client_order_id: string): number {
  return s.booked.get(client_order_id)?.toNumber() ?? 0;
}

/**
 * Orders whose outcome is not final, as copies, in the journal's order (recovery looks each up at
 * the broker by its client order id): from the index `apply` keeps (indexes.ts), not a scan of every order.
 */
export function unsettledOrders(s: State): OrderRecord[] {
  const pos = s.idx.orderPos;
  const ids = [...s.idx.unsettled].sort((a, b) => (pos.get(a) as number) - (pos.get(b) as number));
  return ids.map((id) => {
    const o = s.orders.get(id) as OrderRecord;
    return { ...o, history: [...o.history] };
  });
}
