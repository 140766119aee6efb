/**
 * Step 6, finish: the order's final state in the journal and its outcome event. The booked fills
 * give its average price and commission; a broker filled quantity they do not add up to is a
 * discrepancy to report. An order still working after the cancel is `working_after_cancel` (the
 * next run's reconciliation stops on it).
 */
import { isWorking } from "../../broker/types.js";
import type { OrderStatus } from "../../core/domain.js";
import { Dec } from "../../core/money.js";
import { base, type ExecContext, note, type OrderEntry, record } from "./context.js";
import { bookedQty } from "./settle.js";

export async function finish(ctx: ExecContext, e: OrderEntry): Promise<void> {
  if (e.done || !e.broker) return;
  const o = e.broker;
  const qty = bookedQty(e);
  // Exact sums: each fill's commission is already in whole minor units of its currency.
  const value = e.res.fills.reduce((s, f) => s.add(new Dec(f.quantity).mul(f.price)), new Dec(0));
  e.res.commission = e.res.fills.reduce((s, f) => s.add(f.commission), new Dec(0)).toNumber();
  e.res.avg_price = qty > 0 ? value.div(qty).toDecimalPlaces(6, Dec.ROUND_HALF_EVEN).toNumber() : null;
  if (qty !== o.filled_quantity) {
    e.res.discrepancy = `the broker reports ${o.filled_quantity} filled but its fills add up to ${qty} (booked ${qty})`;
    note(ctx, `${e.res.client_order_id} (${e.res.side} ${e.res.symbol}): ${e.res.discrepancy}`);
  }
  if (isWorking(o.status)) {
    const message = `still working at the broker after the cancel (${o.status}, ${o.filled_quantity} of ${o.quantity} filled); the next run's reconciliation will stop on it`;
    await record(ctx, e, "working_after_cancel", message);
    ctx.emit({ type: "order.uncertain", ...base(e), message });
    note(ctx, `${e.res.client_order_id} (${e.res.side} ${e.res.quantity} ${e.res.symbol}) ${message}`);
    return;
  }
  await record(ctx, e, o.status as OrderStatus, e.res.message);
  switch (o.status) {
    case "filled":
      ctx.emit({
        type: "order.filled",
        ...base(e),
        filled_quantity: o.filled_quantity,
        avg_price: e.res.avg_price ?? o.avg_fill_price ?? 0,
        commission: e.res.commission,
      });
      break;
    case "cancelled":
      ctx.emit({
        type: "order.cancelled",
        ...base(e),
        filled_quantity: o.filled_quantity,
        message: o.filled_quantity > 0 ? `${o.filled_quantity} of ${o.quantity} filled; the rest cancelled` : "not filled; cancelled",
      });
      break;
    case "expired":
      ctx.emit({ type: "order.expired", ...base(e), filled_quantity: o.filled_quantity });
      break;
    case "rejected":
      ctx.emit({ type: "order.rejected", ...base(e), message: o.reject_reason ?? "rejected by the broker" });
      break;
  }
}
