/**
 * Step 4, cancel: what is still working after the wait is cancelled; a cancel that finds the order
 * filled returns the filled state. Then, bounded by `settle_s`, the cancels are polled to their end.
 */
import { isWorking } from "../../broker/types.js";
import { type ExecContext, observe, type OrderEntry, working } from "./context.js";
import { poll } from "./wait.js";

export async function cancelWorking(ctx: ExecContext, entries: readonly OrderEntry[]): Promise<void> {
  for (const e of working(entries)) {
    try {
      await observe(ctx, e, await ctx.broker.cancel(e.broker!.broker_order_id));
    } catch (err) {
      try {
        const o = await ctx.broker.orderByClientId(e.res.client_order_id);
        if (o) await observe(ctx, e, o);
      } catch {
        // unknown: still working as far as we know
      }
      if (isWorking(e.broker!.status)) e.res.message = `cancel failed: ${(err as Error).message}`;
    }
  }
  const cancelDeadline = ctx.now() + ctx.settleMs;
  for (let list = working(entries); list.length > 0 && ctx.now() < cancelDeadline; list = working(entries)) {
    await ctx.sleep(ctx.pollMs, undefined);
    await poll(ctx, list);
  }
}
