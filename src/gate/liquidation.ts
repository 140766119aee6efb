/**
 * The kill switch's sell-everything orders. Pure. These orders are placed outside the gate and the
 * monthly quota (guardrail-trader semantics); the run pipeline records them as liquidation orders.
 */
import { Decimal } from "decimal.js";
import type { Instrument } from "../core/domain.js";
import { normSide, normSymbol } from "./evaluate.js";
import { fmtNum, fmtQty } from "./format.js";
import type { GateMarket, GateState } from "../core/gate-types.js";
import type { Order } from "../core/order.js";

/** A kill-switch sell, ready to place: the same typed order a proposal's placement is, flagged. */
export interface LiquidationOrder extends Order {
  side: "SELL";
  liquidation: true;
  reason: string;
}

const DEFAULT_TICK = 0.01;

/** Round a price DOWN to the tick grid (exact decimal arithmetic, so 9.9 stays 9.9). */
export function floorToTick(price: number, tick: number = DEFAULT_TICK): number {
  const t = Number.isFinite(tick) && tick > 0 ? tick : DEFAULT_TICK;
  const d = new Decimal(price);
  const td = new Decimal(t);
  return d.div(td).floor().mul(td).toNumber();
}

/** The liquidation limit: reference × (1 − discount%), rounded down to the tick (at least one tick). */
export function liquidationLimit(reference: number, discountPct: number, tick: number = DEFAULT_TICK): number {
  const t = Number.isFinite(tick) && tick > 0 ? tick : DEFAULT_TICK;
  const raw = new Decimal(reference).mul(new Decimal(100).minus(discountPct)).div(100).toNumber();
  const floored = floorToTick(raw, t);
  return floored > 0 ? floored : t;
}

/**
 * One SELL per holding that is in the universe and has a usable reference price: the whole
 * quantity held, less what open sell orders already cover; limit = reference × (1 − discount%)
 * rounded down to the instrument's tick (default 0.01). Sorted by symbol. Holdings without a price
 * (or a usable FX rate) or outside the universe are left out (the caller reports them as unsold).
 */
export function liquidation(state: GateState, market: GateMarket, universe: Instrument[], discountPct: number): LiquidationOrder[] {
  const uni = new Map<string, Instrument>();
  for (const inst of universe) uni.set(normSymbol(inst.symbol), inst);
  const pendingSell = new Map<string, number>();
  for (const o of state.open_orders ?? []) {
    if (normSide(o.side) === "SELL" && Number.isFinite(o.quantity) && o.quantity > 0) {
      const s = normSymbol(o.symbol);
      pendingSell.set(s, (pendingSell.get(s) ?? 0) + o.quantity);
    }
  }
  const discount = Number.isFinite(discountPct) && discountPct >= 0 && discountPct < 100 ? discountPct : 1;
  const out: LiquidationOrder[] = [];
  for (const sym of Object.keys(state.holdings).sort()) {
    const h = state.holdings[sym];
    const s = normSymbol(sym);
    const inst = uni.get(s);
    const quote = Object.hasOwn(market, sym) ? market[sym] : undefined;
    if (h === undefined || inst === undefined || quote === undefined) continue;
    if (!Number.isFinite(quote.price) || quote.price <= 0) continue;
    if (!Number.isFinite(h.quantity)) continue;
    const fx = quote.fx_to_base ?? 1;
    if (!Number.isFinite(fx) || fx <= 0) continue;
    const qty = h.quantity - (pendingSell.get(s) ?? 0);
    if (!(qty > 0)) continue;
    const limit = liquidationLimit(quote.price, discount, inst.tick);
    const order: LiquidationOrder = {
      symbol: s,
      side: "SELL",
      quantity: qty,
      limit_price: limit,
      currency: inst.currency.toUpperCase(),
      fx_to_base: fx,
      liquidation: true,
      reason: `kill switch: liquidate ${fmtQty(qty)} ${s} at ${fmtNum(limit)} (reference ${fmtNum(quote.price)} less ${discount}%, rounded down to the tick)`,
    };
    if (inst.exchange !== undefined && inst.exchange !== "") order.exchange = inst.exchange;
    out.push(order);
  }
  return out;
}
