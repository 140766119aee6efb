/**
 * Kill switch: a halted account sells what it still holds (when it can trade) and stops; a
 * drawdown at or past the limit trips it now. Liquidation orders are typed orders flagged
 * `liquidation` (outside the gate's approval and the monthly quota) and go through the one
 * placement path.
 */
import { EXIT } from "../../core/exit-codes.js";
import { money, pct } from "../../core/format.js";
import { drawdownPct, killSwitchTriggered, portfolioValue } from "../../gate/evaluate.js";
import { liquidation } from "../../gate/liquidation.js";
import { type Open, type Phase, type RunContext, Stop, type Valued } from "./context.js";
import { gateInputs } from "./gate.js";
import { placeOrders } from "./place.js";

function liquidationOrders(ctx: RunContext) {
  const g = gateInputs(ctx);
  return { g, orders: liquidation(g.state, g.market, g.universe, ctx.deps.config.limits.liquidation_discount_pct) };
}

/** Sells what is held (paper mode, open market); notes what is left unsold otherwise. */
async function liquidate(ctx: RunContext, note: string, sell: boolean): Promise<void> {
  const { orders } = liquidationOrders(ctx);
  if (orders.length === 0) return;
  if (sell && ctx.deps.mode === "paper") {
    ctx.deps.sink.emit({ type: "run.note", level: "warn", message: `${note}: ${orders.length} sell order(s)` });
    await placeOrders(ctx, orders);
  } else {
    ctx.deps.sink.emit({
      type: "run.note",
      level: "warn",
      message: `observe mode or closed market: ${orders.length} liquidation order(s) not placed; the next run that can trade sells them`,
    });
  }
}

/** Halts trading (journal), announces the liquidation it implies, and places it when the run can trade. */
export async function trip(ctx: RunContext, reason: string, sell: boolean, by: "drawdown" | "operator" = "drawdown"): Promise<void> {
  const { journal, sink, config } = ctx.deps;
  const { g, orders } = liquidationOrders(ctx);
  const v = portfolioValue(g.state, g.market, g.limits.base_currency);
  const p = g.state.peak;
  // The journal keeps who tripped it in the reason; the event carries `by` and the operator's own words.
  await journal.trip({
    run_id: ctx.runId,
    at: ctx.now(),
    value: v,
    peak: p,
    drawdown_pct: drawdownPct(v, p),
    reason: by === "operator" ? `operator tripped the kill switch: ${reason}` : reason,
  });
  sink.emit({
    type: "killswitch.tripped",
    value: v,
    peak: p,
    drawdown_pct: drawdownPct(v, p),
    limit_pct: config.limits.max_drawdown_pct,
    reason,
    liquidation: orders.map((o) => ({ symbol: o.symbol, side: "SELL", quantity: o.quantity, limit_price: o.limit_price, reason: o.reason, evidence_ids: [] })),
    by,
  });
  await liquidate(ctx, "kill switch liquidation", sell);
}

export const killSwitchPhase: Phase<Valued, Open> = {
  name: "kill switch",
  async run(ctx) {
    const { journal, config, mode } = ctx.deps;
    const { session } = ctx;
    const canTrade = mode === "paper" && session.isOpen;
    if (journal.tradingState() === "HALTED") {
      if (canTrade) await liquidate(ctx, "trading is halted: selling what is still held", true);
      return new Stop("halted", EXIT.HALTED_OR_TRIPPED, "trading is halted by the kill switch; reset it with `tradewarden killswitch`");
    }
    const maxDd = config.limits.max_drawdown_pct;
    if (killSwitchTriggered(ctx.value, ctx.peak, maxDd)) {
      const dd = drawdownPct(ctx.value, ctx.peak);
      const cur = config.account.base_currency;
      const reason = `drawdown ${pct(dd)} from peak ${money(ctx.peak, cur)} reached the ${maxDd}% limit (value ${money(ctx.value, cur)})`;
      await trip(ctx, reason, canTrade);
      return new Stop("tripped", EXIT.HALTED_OR_TRIPPED, `kill switch tripped: ${reason}`);
    }
    if (!session.isOpen) {
      return new Stop(
        "no_trades",
        EXIT.OK,
        `the market is closed for ${ctx.tradingDay}; a DAY order now would queue for the next session, so nothing is proposed`,
      );
    }
    return { ...ctx, session: { ...session, isOpen: true } };
  },
};
