/** The monthly order quota's bookkeeping in the fold: which orders count, and the sorted times of those that do. */
import type { Dec } from "../core/money.js";
import type { State } from "./state.js";
import { lowerBound, toMs } from "./time.js";
import type { OrderRecord } from "./types.js";

const REACHED = new Set(["accepted", "partially_filled", "filled", "cancelled", "expired", "working_after_cancel"]); // the broker had the order

/** Quota rule: an order counts once the broker had it (a status in REACHED, or a booked fill), and while its send is `uncertain`
 * (it may have arrived); one rejected on send never counts, nor a kill-switch liquidation. The month is that of the intent. */
function isCounted(o: OrderRecord, booked: Dec | undefined): boolean {
  if (o.liquidation) return false;
  if (booked?.gt(0)) return true;
  if (o.status === "uncertain") return true;
  return o.history.some((h) => REACHED.has(h.status));
}

export function recount(s: State, o: OrderRecord): void {
  const should = isCounted(o, s.booked.get(o.client_order_id));
  if (should === (o.counted_at !== null)) return;
  const ms = toMs(o.created_at);
  if (should) {
    o.counted_at = o.created_at;
    s.countedMs.splice(lowerBound(s.countedMs, ms), 0, ms);
  } else {
    o.counted_at = null;
    const i = lowerBound(s.countedMs, ms);
    if (s.countedMs[i] === ms) s.countedMs.splice(i, 1);
  }
}
