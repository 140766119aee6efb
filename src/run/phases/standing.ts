/**
 * Standing orders: before the quota check and the model, every approved standing order is checked
 * against the reference price (src/run/standing-orders.ts). What fires goes through the final gate
 * on fresh state and is placed through the one placement path with client ids `tw-<run>-S<i>`; the
 * fired orders count toward the monthly quota the budget phase then checks.
 */
import { fireStandingOrders } from "../standing-orders.js";
import type { Open, Phase } from "./context.js";
import { evaluateOrders, readOpenOrders } from "./gate.js";
import { placeOrders } from "./place.js";

export const standingPhase: Phase<Open, Open> = {
  name: "standing orders",
  async run(ctx) {
    const { deps } = ctx;
    const { prices } = ctx;
    // What fires is placed, and the broker's open orders re-read, before the next trigger is gated.
    let now = ctx;
    await fireStandingOrders({
      runId: ctx.runId,
      tradingDay: ctx.tradingDay,
      mode: deps.mode,
      journal: deps.journal,
      referencePrice: (symbol) => prices.referencePrice(symbol)?.price,
      finalGate: (orders) => evaluateOrders(now, orders),
      place: async (orders) => {
        await placeOrders(now, orders, { standing: true });
        now = { ...now, openOrders: await readOpenOrders(deps.broker) };
      },
      emit: (e) => deps.sink.emit(e),
      now: ctx.now,
    });
    return now;
  },
};
