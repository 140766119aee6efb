/**
 * Step 3, wait: up to `wait_s` for the working orders to end (polling every `poll_ms`). One
 * open-orders call per poll; an order missing from it is looked up by client id (it ended).
 */
import type { BrokerOrder } from "../../broker/types.js";
import { type ExecContext, observe, type OrderEntry, working } from "./context.js";

/** Observes each order of `list` once: from the open orders, or by its client id. */
export async function poll(ctx: ExecContext, list: readonly OrderEntry[]): Promise<void> {
  let open: Map<string, BrokerOrder> | undefined;
  try {
    open = new Map((await ctx.broker.openOrders()).map((o) => [o.client_order_id, o]));
  } catch {
    open = undefined;
  }
  for (const e of list) {
    const seen = open?.get(e.res.client_order_id);
    if (seen) {
      await observe(ctx, e, seen);
      continue;
    }
    try {
      const o = await ctx.broker.orderByClientId(e.res.client_order_id);
      if (o) await observe(ctx, e, o);
    } catch {
      // transient: keep the last known state; the cancel settles it
    }
  }
}

/** Polls until nothing is working, the wait is over, or the run is interrupted. */
export async function waitForEnd(ctx: ExecContext, entries: readonly OrderEntry[]): Promise<void> {
  const waitDeadline = ctx.now() + ctx.waitMs;
  for (let list = working(entries); list.length > 0 && !ctx.signal?.aborted; list = working(entries)) {
    await poll(ctx, list);
    if (ctx.now() >= waitDeadline || ctx.signal?.aborted || working(entries).length === 0) break;
    await ctx.sleep(ctx.pollMs, ctx.signal);
  }
}
