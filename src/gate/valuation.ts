/**
 * Portfolio valuation for the gate: FX rates and valuation prices, the portfolio value in the base
 * currency, drawdown from the peak and the kill-switch test. Pure: no I/O.
 */
import type { GateHolding, GateMarket, GateState, MarketQuote } from "../core/gate-types.js";
import { accountValue } from "../core/valuation.js";
import { drawdownReached } from "./exact.js";
import { isNum, lookup } from "./normalize.js";

/** FX rate of a quote (default 1); NaN when present but unusable. */
export function fxOf(q: MarketQuote | undefined): number {
  if (q === undefined || q.fx_to_base === undefined) return 1;
  return isNum(q.fx_to_base) && q.fx_to_base > 0 ? q.fx_to_base : Number.NaN;
}

/** The price a holding is valued at (instrument currency): its own price, else the market's. */
export function valuationPrice(h: GateHolding | undefined, q: MarketQuote | undefined): number {
  if (h !== undefined && h.price !== undefined) return h.price;
  return q === undefined ? Number.NaN : q.price;
}

/** Symbols held (quantity ≠ 0) that have no usable valuation price or FX rate. */
export function unpricedHoldings(state: GateState, market: GateMarket): string[] {
  const out: string[] = [];
  for (const [sym, h] of Object.entries(state.holdings ?? {})) {
    if (h === undefined || h.quantity === 0) continue;
    const q = lookup(market, sym);
    const p = valuationPrice(h, q);
    if (!isNum(p) || p <= 0 || !isNum(fxOf(q))) out.push(sym);
  }
  return out.sort();
}

/**
 * Portfolio value in the base currency: cash + Σ quantity × price × fx_to_base, where price is the
 * holding's own price if given, else the market price. NaN when it cannot be valued (a non-finite
 * number, or a held instrument without a price).
 */
export function portfolioValue(state: GateState, market: GateMarket, baseCurrency?: string): number {
  const value = state.cash;
  if (!isNum(value)) return Number.NaN;
  const positions: { quantity: number; price: number; fx_to_base: number }[] = [];
  for (const [sym, h] of Object.entries(state.holdings ?? {})) {
    if (h === undefined || !isNum(h.quantity)) return Number.NaN;
    if (h.quantity === 0) continue;
    const q = lookup(market, sym);
    const p = valuationPrice(h, q);
    const fx = fxOf(q);
    if (!isNum(p) || p <= 0 || !isNum(fx)) return Number.NaN;
    positions.push({ quantity: h.quantity, price: p, fx_to_base: fx });
  }
  // The one exact valuation (minor units of the base currency) when the currency is known.
  if (baseCurrency !== undefined && /^[A-Za-z]{3}$/.test(baseCurrency)) {
    try {
      return accountValue(value, positions, baseCurrency);
    } catch {
      return Number.NaN;
    }
  }
  return positions.reduce((v, p) => v + p.quantity * p.price * p.fx_to_base, value);
}

/** Drawdown in percent, measured from max(peak, value). 0 when neither is positive. */
export function drawdownPct(value: number, peak: number): number {
  if (!Number.isFinite(value) || Number.isNaN(peak)) return Number.NaN;
  const hi = Math.max(peak, value);
  if (!(hi > 0)) return 0;
  return ((hi - value) / hi) * 100;
}

/** Drawdown ≥ the limit, compared exactly; true when the value is unknown (fail closed). */
export function killSwitchTriggered(value: number, peak: number, maxDrawdownPct: number): boolean {
  const dd = drawdownPct(value, peak);
  if (!Number.isFinite(dd) || !Number.isFinite(maxDrawdownPct)) return true;
  return drawdownReached(value, Math.max(peak, value), maxDrawdownPct);
}
