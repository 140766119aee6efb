/** Execute: the final gate's orders go to the paper broker through the one placement path. */
import { EXIT } from "../../core/exit-codes.js";
import { type Phase, Stop } from "./context.js";
import { placeOrders } from "./place.js";

export const executePhase: Phase = {
  name: "execute",
  async run(ctx) {
    const orders = ctx.toPlace ?? [];
    await placeOrders(ctx, orders);
    if (ctx.deps.signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted during execution; what was sent was booked");
    return new Stop("executed", EXIT.OK, `${orders.length} order(s) sent to the paper broker`);
  },
};
