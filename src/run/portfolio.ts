/**
 * What the operator sees of the account: holdings with quantity, price, value, weight and
 * unrealised P&L, cash now and after a proposal, and the previous run's fills. Pure over the
 * journal's records and a price source; the pipeline puts it in the `valuation` event and the
 * approval request, and `approve` builds it the same way, so screens only draw it.
 */
import type { FillView, HoldingView, PortfolioView, PriceSource, Side } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";

export type { FillView, HoldingView, PortfolioView } from "../core/domain.js";

export interface PortfolioSource {
  cash(): number;
  holdings(): Record<string, { quantity: number; cost_basis: number; currency: string }>;
  runs(): Array<{ run_id: string; trading_day: string }>;
  fills(run_id?: string): Array<{ at: string; run_id: string; symbol: string; side: Side; quantity: number; price: number }>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function portfolioView(src: PortfolioSource, prices: PriceSource, opts: { currency: string; currentRunId?: string }): PortfolioView {
  const cash = src.cash();
  const rows: HoldingView[] = [];
  let value = cash;
  for (const [symbol, h] of Object.entries(src.holdings())) {
    if (!(h.quantity > 0)) continue;
    const p = prices.referencePrice(symbol);
    const v = p ? round2(h.quantity * p.price * p.fx_to_base) : null;
    if (v !== null) value += v;
    rows.push({ symbol, quantity: h.quantity, price: p ? p.price : null, value: v, weight: null, cost_basis: h.cost_basis, unrealised_pnl: v === null ? null : round2(v - h.cost_basis), currency: h.currency });
  }
  value = round2(value);
  for (const r of rows) r.weight = r.value === null || value <= 0 ? null : r.value / value;
  rows.sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.symbol.localeCompare(b.symbol));
  return { currency: opts.currency, cash: round2(cash), value, holdings: rows, last_fills: lastRunFills(src, opts.currentRunId) };
}

/** The fills of the most recent run (other than `currentRunId`) that had fills. */
export function lastRunFills(src: PortfolioSource, currentRunId?: string): FillView[] {
  const runs = src.runs();
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i];
    if (!run || run.run_id === currentRunId) continue;
    const fills = src.fills(run.run_id);
    if (fills.length > 0) return fills.map((f) => ({ at: f.at, run_id: f.run_id, trading_day: run.trading_day, symbol: f.symbol, side: f.side, quantity: f.quantity, price: f.price }));
  }
  return [];
}

/** Cash after the approvable orders fill at their limits (buys pay notional + commission; sells receive notional − commission). */
export function cashAfter(cash: number, decisions: readonly GateDecision[]): number {
  let c = cash;
  for (const d of decisions) {
    if (!d.approved) continue;
    c += String(d.order.side).toUpperCase() === "SELL" ? d.notional - d.commission : -(d.notional + d.commission);
  }
  return round2(c);
}
