/**
 * The one placement path: proposals approved by the final gate and kill-switch liquidations are the
 * same typed `Order`, handed to the executor as they are. After the orders the account is valued
 * again (a `valuation` event).
 */
import type { RunEventBody } from "../../core/events.js";
import type { Order } from "../../core/order.js";
import { execute } from "../../executor/execute.js";
import type { ExecuteResult } from "../../executor/types.js";
import { accountValue } from "../valuation.js";
import type { RunContext } from "./context.js";
import { emitValuation } from "./value.js";

export async function placeOrders(ctx: RunContext, orders: readonly Order[], opts: { standing?: boolean; firstIndex?: number } = {}): Promise<ExecuteResult> {
  const { deps } = ctx;
  const result = await execute({
    runId: ctx.runId,
    orders,
    broker: deps.broker,
    journal: deps.journal,
    config: deps.config.executor,
    emit: (e: RunEventBody) => deps.sink.emit(e),
    signal: deps.signal,
    ...(opts.standing ? { standing: true } : {}),
    ...(opts.firstIndex ? { firstIndex: opts.firstIndex } : {}),
    now: () => ctx.sessionNow().getTime(),
    ...(deps.executorSleep ? { sleep: deps.executorSleep } : {}),
  });
  const after = accountValue(deps.journal, ctx.prices).value;
  emitValuation(ctx, after, deps.journal.peak() ?? ctx.peak, false);
  return result;
}
