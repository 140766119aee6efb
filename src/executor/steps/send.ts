/**
 * Step 2, send: the order goes to the broker once. An uncertain send (timeout, dropped connection)
 * is resolved by looking the client id up; a duplicate-id refusal means "already sent": look it up.
 * Never re-sent.
 */
import { isBrokerError, isUncertainSendError } from "../../broker/errors.js";
import { TwError } from "../../core/errors.js";
import { faultPoint } from "../../util/test-fault.js";
import { adopt, base, type ExecContext, note, type OrderEntry, record, rejected } from "./context.js";

export async function send(ctx: ExecContext, e: OrderEntry): Promise<void> {
  try {
    const o = await ctx.broker.placeLimitDayOrder({
      client_order_id: e.res.client_order_id,
      symbol: e.res.symbol,
      side: e.res.side,
      quantity: e.res.quantity,
      limit_price: e.res.limit_price,
    });
    faultPoint("executor.after_send");
    await adopt(ctx, e, o);
  } catch (err) {
    if (isBrokerError(err, "duplicate_client_order_id")) {
      await resolveByLookup(ctx, e, "the broker already has this client order id (already sent)");
    } else if (isUncertainSendError(err)) {
      const why = `send outcome unknown (${err instanceof TwError ? err.code : "error"}: ${(err as Error).message})`;
      // The send failed: if the lookup proves the broker never got it, the run names that cause
      // (exit 4), not "nothing to trade" (exit 0). An order found at the broker counts as sent.
      e.res.error_code = err instanceof TwError ? err.code : "broker_unreachable";
      await record(ctx, e, "uncertain", why);
      ctx.emit({ type: "order.uncertain", ...base(e), message: `${why}; looking it up by client order id` });
      await resolveByLookup(ctx, e, why);
    } else {
      if (err instanceof TwError) e.res.error_code = err.code;
      await rejected(ctx, e, (err as Error).message);
    }
  }
}

/**
 * Resolves an order whose send outcome is unknown by looking its client id up. Never re-sends.
 * "Not found" is not final while the send may still be on its way: only after the executor's
 * wait does a broker that keeps answering "no such order" prove it was never received.
 */
async function resolveByLookup(ctx: ExecContext, e: OrderEntry, why: string): Promise<void> {
  const deadline = ctx.now() + Math.max(ctx.waitMs, ctx.pollMs);
  let lastError = "";
  for (;;) {
    let notFound = false;
    try {
      const o = await ctx.broker.orderByClientId(e.res.client_order_id);
      if (o) return adopt(ctx, e, o, `${why}; found at the broker by client order id`);
      notFound = true;
      lastError = "";
    } catch (err) {
      lastError = (err as Error).message;
    }
    if (ctx.now() >= deadline) {
      if (notFound)
        return rejected(ctx, e, `${why}; the broker has no order ${e.res.client_order_id} after the executor's wait: it was not received (not re-sent)`);
      break;
    }
    if (ctx.signal?.aborted) break;
    await ctx.sleep(ctx.pollMs, ctx.signal);
  }
  const message = `${why}; the order's state is unknown (lookup failed: ${lastError || "no answer"}); the next run's reconciliation must resolve it`;
  await record(ctx, e, "uncertain", message);
  e.done = true;
  note(ctx, `${e.res.client_order_id} (${e.res.side} ${e.res.quantity} ${e.res.symbol}) is uncertain: ${message}`);
}
