/** Quota and budget: the model is not called when the monthly order quota or LLM spend cap is used up. */
import { EXIT } from "../../core/exit-codes.js";
import { usd } from "../../core/format.js";
import { usdToMicros } from "../../core/money.js";
import { type Affordable, type Open, type Phase, Stop } from "./context.js";

export const budgetPhase: Phase<Open, Affordable> = {
  name: "budget",
  async run(ctx) {
    const { journal, config } = ctx.deps;
    const used = journal.ordersThisMonth(ctx.sessionNow());
    if (used >= config.limits.max_orders_per_month) {
      return new Stop(
        "quota_exhausted",
        EXIT.OK,
        `the monthly order quota is used up (${used} of ${config.limits.max_orders_per_month}); the model was not called`,
      );
    }
    const spent = journal.spendThisMonth(ctx.now());
    if (usdToMicros(spent) >= usdToMicros(config.model.monthly_budget_usd)) {
      return new Stop(
        "spend_cap_reached",
        EXIT.OK,
        `this month's LLM spend ${usd(spent)} reached the cap of ${usd(config.model.monthly_budget_usd)}; the model was not called`,
      );
    }
    // From here the run could have traded.
    ctx.progress.couldTrade = true;
    return { ...ctx, couldTrade: true };
  },
};
