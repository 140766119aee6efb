/**
 * Value: point-in-time reference prices for the trading day, the account's value by the one exact
 * valuation, and the peak by the two-run rule (the journal's).
 */
import { fxToBaseOf } from "../../config/fx.js";
import { EXIT } from "../../core/exit-codes.js";
import { drawdownPct } from "../../gate/evaluate.js";
import { portfolioView } from "../portfolio.js";
import { accountValue } from "../valuation.js";
import { type Phase, type Reconciled, type RunContext, Stop, type Valued } from "./context.js";

/** A `valuation` event with the journal's current cash, state and quota. */
export function emitValuation(ctx: RunContext, value: number, peak: number, first: boolean): void {
  const { journal, config, sink } = ctx.deps;
  const used = journal.ordersThisMonth(ctx.sessionNow());
  sink.emit({
    type: "valuation",
    value,
    cash: journal.cash(),
    peak,
    drawdown_pct: drawdownPct(value, peak),
    max_drawdown_pct: config.limits.max_drawdown_pct,
    trading_state: journal.tradingState(),
    orders_used: used,
    orders_left: Math.max(0, config.limits.max_orders_per_month - used),
    first_of_run: first,
    portfolio: portfolioView(journal, ctx.prices, { currency: config.account.base_currency, ...(first ? { currentRunId: ctx.runId } : {}) }),
  });
}

export const valuePhase: Phase<Reconciled, Valued> = {
  name: "value",
  async run(ctx) {
    const { journal, config, market, universe } = ctx.deps;
    const prices = market.asOf(ctx.tradingDay, { universe, baseCurrency: config.account.base_currency, fxToBase: fxToBaseOf(config) });
    const { value, unpriced } = accountValue(journal, prices);
    if (unpriced.length > 0) {
      return new Stop("data_unavailable", EXIT.BROKER_OR_DATA_UNAVAILABLE, `no reference price before ${ctx.tradingDay} for held ${unpriced.join(", ")}`);
    }
    // Only a session that can trade confirms the peak: a closed-market run values, never records.
    const { peak } = ctx.session.isOpen ? await journal.observeFirstValuation(ctx.runId, value, ctx.now()) : { peak: journal.peak() ?? value };
    const valued: Valued = { ...ctx, prices, value, peak };
    emitValuation(valued, value, peak, true);
    return valued;
  },
};
