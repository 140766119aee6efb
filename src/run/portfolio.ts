/**
 * What the operator sees of the account: holdings with quantity, price, value, weight and
 * unrealised P&L, cash now and after a proposal, and the previous run's fills. Pure over the
 * journal's records and a price source; the pipeline puts it in the `valuation` event and the
 * approval request, and `approve` builds it the same way, so screens only draw it.
 */
import type { FillView, HoldingView, PortfolioView, PriceSource, Side } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";
import { fromMinor, productToMinor, toMinor } from "../core/money.js";
import { valueAccount } from "../core/valuation.js";

export type { PortfolioView } from "../core/domain.js";

export interface PortfolioSource {
  /** Ledger cash in whole minor units of the base currency. */
  cashMinor(): number;
  holdings(): Record<string, { quantity: number; cost_basis: number; currency: string }>;
  /** The most recent run other than `exceptRunId` that has fills (in the journal's run order). */
  lastRunWithFills(exceptRunId?: string): { run_id: string; trading_day: string } | undefined;
  fills(run_id?: string): Array<{ at: string; run_id: string; symbol: string; side: Side; quantity: number; price: number }>;
}

/**
 * The operator's portfolio: the one valuation (core/valuation.ts `valueAccount`, the same the
 * model's get_portfolio is made from), in the base currency's own decimals (JPY 0, KWD 3).
 */
export function portfolioView(src: PortfolioSource, prices: PriceSource, opts: { currency: string; currentRunId?: string }): PortfolioView {
  const cur = opts.currency;
  const held = src.holdings();
  const v = valueAccount(src.cashMinor(), held, (s) => prices.referencePrice(s), cur);
  const value = fromMinor(v.valueMinor, cur);
  const rows: HoldingView[] = v.holdings.map((r) => {
    const mv = r.valueMinor === null ? null : fromMinor(r.valueMinor, cur);
    const h = held[r.symbol] as (typeof held)[string];
    return {
      symbol: r.symbol,
      quantity: r.quantity,
      price: r.price,
      value: mv,
      weight: mv === null || value <= 0 ? null : mv / value,
      cost_basis: h.cost_basis,
      unrealised_pnl: r.pnlMinor === null ? null : fromMinor(r.pnlMinor, cur),
      currency: h.currency,
    };
  });
  rows.sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.symbol.localeCompare(b.symbol));
  return { currency: cur, cash: fromMinor(v.cashMinor, cur), value, holdings: rows, last_fills: lastRunFills(src, opts.currentRunId) };
}

/** The fills of the most recent run (other than `currentRunId`) that had fills. */
function lastRunFills(src: PortfolioSource, currentRunId?: string): FillView[] {
  const run = src.lastRunWithFills(currentRunId);
  if (!run) return [];
  return src.fills(run.run_id).map((f) => ({
    at: f.at,
    run_id: f.run_id,
    trading_day: run.trading_day,
    symbol: f.symbol,
    side: f.side,
    quantity: f.quantity,
    price: f.price,
  }));
}

/**
 * Cash after the approvable orders fill at their limits, as the journal would book them (buys pay
 * notional + commission, sells receive notional − commission, each rounded half-even once to the
 * currency's minor unit).
 */
export function cashAfter(cash: number, decisions: readonly GateDecision[], currency: string): number {
  let c = toMinor(cash, currency);
  for (const d of decisions) {
    if (!d.approved) continue;
    const p = d.placement;
    const notional = p ? productToMinor(p.quantity, p.limit_price, p.fx_to_base, currency) : toMinor(d.notional, currency);
    const commission = toMinor(d.commission, currency);
    c += String(d.order.side).toUpperCase() === "SELL" ? notional - commission : -(notional + commission);
  }
  return fromMinor(c, currency);
}
