/**
 * The batch a gate call evaluates: its evaluation order (sells first), what the open orders already
 * reserve, and the simulated portfolio each approved order is applied to (cash, spendable cash,
 * holdings, monthly quota, running value) so a batch cannot jointly break a limit. Money the
 * checks compare is kept in whole minor units of the base currency, booked as the journal books
 * fills (./exact.ts); the projected cash the scenario JSON reports is kept exactly too. Pure: no I/O.
 */
import type { Instrument } from "../core/domain.js";
import type { GateHolding, GateMarket, GateOrder, GateState, MarketQuote } from "../core/gate-types.js";
import { Dec } from "../core/money.js";
import { minorOf, productMinor } from "./exact.js";
import { isNum, normSide, normSymbol } from "./normalize.js";
import { fxOf, valuationPrice } from "./valuation.js";

export interface Sim {
  /** The base currency every amount below is in. */
  base: string;
  /** Projected cash once the approved orders fill at their limits (portfolio_after.cash), exact. */
  cash: Dec;
  /** The same projection as the journal would book the fills: whole minor units. */
  cashMinor: Dec;
  /**
   * Cash buys may use (minor units): the starting cash less approved buys. Proceeds of sells in the
   * same batch are not in it — the sell may not fill while the buy does, and a margin account
   * would lend the difference.
   */
  spendableMinor: Dec;
  /** The same, exact (unrounded). */
  spendable: Dec;
  /**
   * Proceeds of the batch's approved sells (at their limits, less commission; minor units) not yet
   * spoken for: a buy beyond the spendable cash may be *funded by this batch's sells* from it — placed
   * only once those sells have filled, re-gated on the cash actually received (two-wave execution).
   */
  proceedsMinor: Dec;
  /** The same, exact (unrounded). */
  proceeds: Dec;
  holdings: Map<string, GateHolding>;
  orders: number;
  /** Portfolio value (minor units): the one valuation, moved by each approved order as booked. */
  valueMinor: Dec;
}

export interface Prepared {
  universe: Map<string, Instrument>;
  market: Map<string, MarketQuote>;
  /** What open buy orders may still spend (minor units, base currency); infinite when one is malformed. */
  openBuyReserveMinor: Dec;
  /** The same, exact (unrounded). */
  openBuyReserve: Dec;
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

/** The simulated portfolio before any order of the batch: a copy of the state's (`value` in major units). */
export function startSim(state: GateState, value: number, base: string): Sim {
  const holdings = new Map<string, GateHolding>();
  for (const [k, h] of Object.entries(state.holdings ?? {})) {
    if (h !== undefined) holdings.set(k, { ...h });
  }
  const cash = isNum(state.cash) ? new Dec(state.cash) : new Dec(Number.NaN);
  const cashMinor = minorOf(cash, base);
  const valueMinor = isNum(value) ? minorOf(value, base) : new Dec(Number.NaN);
  const zero = new Dec(0);
  return {
    base,
    cash,
    cashMinor,
    spendableMinor: cashMinor,
    spendable: cash,
    proceedsMinor: zero,
    proceeds: zero,
    holdings,
    orders: state.orders_this_month,
    valueMinor,
  };
}

/** The universe and market keyed by normalised symbol, and what the open orders reserve. */
export function prepare(state: GateState, market: GateMarket, universe: Instrument[], base: string): Prepared {
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
  let openBuyReserveMinor = new Dec(0);
  let openBuyReserve = new Dec(0);
  const openBuyQty = new Map<string, number>();
  const openSellQty = new Map<string, number>();
  const add = (m: Map<string, number>, s: string, q: number) => m.set(s, new Dec(m.get(s) ?? 0).add(q).toNumber());
  for (const o of state.open_orders ?? []) {
    const s = normSymbol(o?.symbol);
    const side = normSide(o?.side);
    // Fail closed: a malformed open order reserves everything on its side.
    const qty = isNum(o?.quantity) && o.quantity > 0 ? o.quantity : Number.POSITIVE_INFINITY;
    if (side === "SELL") {
      add(openSellQty, s, qty);
    } else {
      const fx = fxOf(mkt.get(s));
      const px = isNum(o?.limit_price) && o.limit_price > 0 ? o.limit_price : Number.POSITIVE_INFINITY;
      const rate = isNum(fx) ? fx : Number.POSITIVE_INFINITY;
      openBuyReserveMinor = openBuyReserveMinor.add(productMinor(qty, px, rate, base));
      openBuyReserve = openBuyReserve.add(new Dec(qty).mul(px).mul(rate));
      add(openBuyQty, s, qty);
    }
  }
  return { universe: uni, market: mkt, openBuyReserveMinor, openBuyReserve, openBuyQty, openSellQty };
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
  /** quantity × limit × fx, exact (base currency). */
  notional: Dec;
  /** The commission as given (base currency). */
  commission: number;
  /** Both as the journal books them (minor units). */
  notionalMinor: Dec;
  commissionMinor: Dec;
  quote: MarketQuote;
  fx: number;
  /** A buy funded by this batch's sells: the part of its cost the sells' proceeds pay (minor units, and exact). */
  funded?: { minor: Dec; exact: Dec };
}

/**
 * Applies an approved order to the simulated portfolio: cash (exact, and as booked), holdings,
 * value (the position revalued at its valuation price, each position rounded as the one valuation
 * rounds it) and one order of quota.
 */
export function applyFill(sim: Sim, f: Fill): void {
  const hKey = f.holdingKey ?? f.sym;
  const prev = sim.holdings.get(hKey);
  const vp = valuationPrice(prev, f.quote);
  const sign = f.side === "BUY" ? 1 : -1;
  const after = new Dec(f.held).add(new Dec(f.qty).mul(sign));
  const positionBefore = productMinor(f.held, vp, f.fx, sim.base);
  const positionAfter = productMinor(after, vp, f.fx, sim.base);
  // A buy pays notional + commission; a sell receives notional − commission.
  const cashMove = f.notional.mul(-sign).sub(f.commission);
  const cashMoveMinor = f.notionalMinor.mul(-sign).sub(f.commissionMinor);
  sim.cash = sim.cash.add(cashMove);
  sim.cashMinor = sim.cashMinor.add(cashMoveMinor);
  if (f.side === "BUY") {
    // The part the sells' proceeds pay comes out of them, the rest out of the spendable cash.
    const fundedMinor = f.funded?.minor ?? new Dec(0);
    const funded = f.funded?.exact ?? new Dec(0);
    sim.spendableMinor = sim.spendableMinor.add(cashMoveMinor).add(fundedMinor);
    sim.spendable = sim.spendable.add(cashMove).add(funded);
    sim.proceedsMinor = sim.proceedsMinor.sub(fundedMinor);
    sim.proceeds = sim.proceeds.sub(funded);
  } else {
    sim.proceedsMinor = sim.proceedsMinor.add(cashMoveMinor);
    sim.proceeds = sim.proceeds.add(cashMove);
  }
  sim.valueMinor = sim.valueMinor.add(cashMoveMinor).add(positionAfter).sub(positionBefore);
  if (after.isZero()) sim.holdings.delete(hKey);
  else sim.holdings.set(hKey, { ...(prev ?? {}), quantity: after.toNumber() });
  sim.orders += 1;
}
