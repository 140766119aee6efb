/**
 * The batch a gate call evaluates: its evaluation order (sells first), what the open orders already
 * reserve, and the simulated portfolio each approved order is applied to (cash, spendable cash,
 * holdings, monthly quota, running value) so a batch cannot jointly break a limit. Pure: no I/O.
 */
import type { Instrument } from "../core/domain.js";
import type { GateHolding, GateMarket, GateOrder, GateState, MarketQuote } from "../core/gate-types.js";
import { EPS, isNum, normSide, normSymbol } from "./normalize.js";
import { fxOf, valuationPrice } from "./valuation.js";

export interface Sim {
  /** Projected cash once the approved orders fill (portfolio_after.cash). */
  cash: number;
  /**
   * Cash buys may use: the starting cash less approved buys. Proceeds of sells in the same batch
   * are not counted — the sell may not fill while the buy does, and a margin account would lend
   * the difference.
   */
  spendable: number;
  holdings: Map<string, GateHolding>;
  orders: number;
  value: number;
}

export interface Prepared {
  universe: Map<string, Instrument>;
  market: Map<string, MarketQuote>;
  openBuyReserve: number;
  openBuyQty: Map<string, number>;
  openSellQty: Map<string, number>;
}

/** An order of the batch with its position in the input. */
export interface IndexedOrder {
  order: GateOrder;
  index: number;
}

/** Sells first, stable within each side; anything that is not a SELL keeps its place after them. Each keeps its input index. */
export function evaluationOrder(orders: readonly GateOrder[]): IndexedOrder[] {
  const sells: IndexedOrder[] = [];
  const rest: IndexedOrder[] = [];
  orders.forEach((order, index) => {
    (normSide(order?.side) === "SELL" ? sells : rest).push({ order, index });
  });
  return [...sells, ...rest];
}

/** The simulated portfolio before any order of the batch: a copy of the state's. */
export function startSim(state: GateState, value: number): Sim {
  const holdings = new Map<string, GateHolding>();
  for (const [k, h] of Object.entries(state.holdings ?? {})) {
    if (h !== undefined) holdings.set(k, { ...h });
  }
  return { cash: state.cash, spendable: state.cash, holdings, orders: state.orders_this_month, value };
}

/** The universe and market keyed by normalised symbol, and what the open orders reserve. */
export function prepare(state: GateState, market: GateMarket, universe: Instrument[]): Prepared {
  const uni = new Map<string, Instrument>();
  for (const inst of universe ?? []) {
    const s = normSymbol(inst?.symbol);
    if (s !== "" && !uni.has(s)) uni.set(s, inst);
  }
  const mkt = new Map<string, MarketQuote>();
  for (const [k, v] of Object.entries(market ?? {})) {
    const s = normSymbol(k);
    if (v !== undefined && !mkt.has(s)) mkt.set(s, v);
  }
  let openBuyReserve = 0;
  const openBuyQty = new Map<string, number>();
  const openSellQty = new Map<string, number>();
  for (const o of state.open_orders ?? []) {
    const s = normSymbol(o?.symbol);
    const side = normSide(o?.side);
    // Fail closed: a malformed open order reserves everything on its side.
    const qty = isNum(o?.quantity) && o.quantity > 0 ? o.quantity : Number.POSITIVE_INFINITY;
    if (side === "SELL") {
      openSellQty.set(s, (openSellQty.get(s) ?? 0) + qty);
    } else {
      const fx = fxOf(mkt.get(s));
      const px = isNum(o?.limit_price) && o.limit_price > 0 ? o.limit_price : Number.POSITIVE_INFINITY;
      const cost = qty * px * (isNum(fx) ? fx : Number.POSITIVE_INFINITY);
      openBuyReserve += cost;
      openBuyQty.set(s, (openBuyQty.get(s) ?? 0) + qty);
    }
  }
  return { universe: uni, market: mkt, openBuyReserve, openBuyQty, openSellQty };
}

/** Holdings are keyed by (upper-case) symbol. */
export function findHoldingKey(holdings: Map<string, GateHolding>, sym: string): string | undefined {
  return holdings.has(sym) ? sym : undefined;
}

/** An approved order, as it changes the simulated portfolio once it fills. */
export interface Fill {
  side: "BUY" | "SELL";
  sym: string;
  holdingKey: string | undefined;
  held: number;
  qty: number;
  notional: number;
  commission: number;
  quote: MarketQuote;
  fx: number;
}

/** Applies an approved order to the simulated portfolio: cash, holdings, value and one order of quota. */
export function applyFill(sim: Sim, f: Fill): void {
  const hKey = f.holdingKey ?? f.sym;
  const prev = sim.holdings.get(hKey);
  const vp = valuationPrice(prev, f.quote);
  const valuePerShare = vp * f.fx;
  if (f.side === "BUY") {
    sim.cash -= f.notional + f.commission;
    sim.spendable -= f.notional + f.commission;
    sim.value += f.qty * valuePerShare - f.notional - f.commission;
    sim.holdings.set(hKey, { ...(prev ?? {}), quantity: f.held + f.qty });
  } else {
    sim.cash += f.notional - f.commission;
    sim.value += f.notional - f.commission - f.qty * valuePerShare;
    const left = f.held - f.qty;
    if (Math.abs(left) <= EPS) sim.holdings.delete(hKey);
    else sim.holdings.set(hKey, { ...(prev ?? {}), quantity: left });
  }
  sim.orders += 1;
}
