/**
 * The portfolio as the model and the pipeline see it (the get_portfolio tool's adapter,
 * src/tools/handlers/journal.ts, and the run's phases call it).
 */
import type { PriceSource } from "../core/domain.js";
import type { Journal } from "./journal.js";
import { Dec, fromMinor } from "../core/money.js";
import { valueAccount } from "../core/valuation.js";

export interface JournalToolDeps {
  journal: Journal;
  prices: PriceSource;
  limits: { max_orders_per_month: number; max_drawdown_pct: number };
  now: () => Date;
  runId: string;
  tradingDay: string;
}

const round = (n: number, dp: number): number => new Dec(n).toDecimalPlaces(dp, Dec.ROUND_HALF_EVEN).toNumber();

/**
 * The portfolio as the model sees it: the one valuation (core/valuation.ts `valueAccount`, the same
 * the operator's view is made from) of ledger cash and holdings at reference prices.
 */
export function portfolioSnapshot(deps: Omit<JournalToolDeps, "now"> & { now: Date }) {
  const { journal, prices } = deps;
  const cur = journal.baseCurrency();
  const held = journal.holdings();
  const v = valueAccount(journal.cashMinor(), held, (s) => prices.referencePrice(s), cur);
  const value = fromMinor(v.valueMinor, cur);
  const peak = journal.peak() ?? value;
  const drawdown_pct = peak > 0 ? round(Math.max(0, ((peak - value) / peak) * 100), 4) : 0;
  const used = journal.ordersThisMonth(deps.now);
  return {
    as_of: deps.tradingDay,
    base_currency: cur,
    cash: fromMinor(v.cashMinor, cur),
    value,
    peak,
    drawdown_pct,
    max_drawdown_pct: deps.limits.max_drawdown_pct,
    trading_state: journal.tradingState(),
    orders_used_this_month: used,
    orders_left_this_month: Math.max(0, deps.limits.max_orders_per_month - used),
    holdings: v.holdings.map((r) => {
      const h = held[r.symbol] as (typeof held)[string];
      const mv = r.valueMinor === null ? null : fromMinor(r.valueMinor, cur);
      const pnl = r.pnlMinor === null ? null : fromMinor(r.pnlMinor, cur);
      return {
        symbol: r.symbol,
        quantity: r.quantity,
        currency: h.currency,
        reference_price: r.price,
        price_as_of: r.price_as_of,
        market_value: mv,
        weight_pct: mv === null || value <= 0 ? null : round((mv / value) * 100, 2),
        avg_cost: round(h.avg_cost, 6),
        unrealized_pnl: pnl,
        unrealized_pnl_pct: pnl === null || h.cost_basis <= 0 ? null : round((pnl / h.cost_basis) * 100, 2),
      };
    }),
  };
}
