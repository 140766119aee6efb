/**
 * Step 5, settle: waits (bounded by `settle_s`) for the fills to add up to the filled quantity and
 * books them, once each by fill id. Only fills the broker reports are booked.
 */
import type { BrokerFill } from "../../broker/types.js";
import { Dec } from "../../core/money.js";
import { faultPoint } from "../../util/test-fault.js";
import { type ExecContext, note, type OrderEntry } from "./context.js";

/** Fill quantity booked for the order in this run. */
export const bookedQty = (e: OrderEntry): number => e.res.fills.reduce((s, f) => s.add(f.quantity), new Dec(0)).toNumber();

const needsFills = (e: OrderEntry) => e.broker !== undefined && (e.broker.filled_quantity > 0 || e.res.status === "working_after_cancel");

/** Books the fills not booked yet; a journal that cannot book one is a problem, the next run recovers it. */
export async function book(ctx: ExecContext, e: OrderEntry, fills: readonly BrokerFill[]): Promise<void> {
  for (const f of fills) {
    if (e.bookedIds.has(f.fill_id)) continue;
    try {
      await ctx.journal.bookFill(e.res.client_order_id, {
        fill_id: f.fill_id,
        symbol: e.res.symbol,
        side: e.res.side,
        quantity: f.quantity,
        price: f.price,
        commission: f.commission,
        commission_currency: f.commission_currency,
        fx_to_base: e.order.fx_to_base,
        at: f.at,
      });
      e.bookedIds.add(f.fill_id);
      e.res.fills.push({
        fill_id: f.fill_id,
        quantity: f.quantity,
        price: f.price,
        commission: f.commission,
        commission_currency: f.commission_currency,
        at: f.at,
      });
      faultPoint("executor.after_fill");
    } catch (err) {
      ctx.journalErrors.push(`fill ${f.fill_id} of ${e.res.client_order_id}: ${(err as Error).message}`);
      note(ctx, `journal could not book fill ${f.fill_id} of ${e.res.client_order_id}: ${(err as Error).message}`);
    }
  }
}

export async function settleFills(ctx: ExecContext, entries: readonly OrderEntry[]): Promise<void> {
  const settleDeadline = ctx.now() + ctx.settleMs;
  let pending = entries.filter(needsFills);
  for (;;) {
    for (const e of pending) {
      try {
        await book(ctx, e, await ctx.broker.fills(e.broker!.broker_order_id));
      } catch {
        // retry until the deadline
      }
    }
    pending = pending.filter((e) => bookedQty(e) < e.broker!.filled_quantity);
    if (pending.length === 0 || ctx.now() >= settleDeadline) break;
    await ctx.sleep(ctx.pollMs, undefined);
  }
}
