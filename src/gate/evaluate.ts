/**
 * The risk gate: pure and deterministic. `evaluate` never mutates its input, never throws on bad
 * numbers (it blocks them) and does no I/O.
 *
 * Order of evaluation (guardrail-trader semantics, extended):
 * 1. Global blocks first: HALTED (or an unknown trading state), an unvaluable portfolio, and
 *    drawdown ≥ limit block every order; no per-order checks run.
 * 2. Sells first, stable within each side. Each approved order is applied to a simulated portfolio
 *    (cash, holdings, quota, running value) so a batch cannot jointly break a limit; a blocked
 *    order changes nothing and uses no quota. Buys are funded from the cash held before the batch:
 *    a sell's proceeds are never credited to a buy in the same batch (no margin through an
 *    unfilled sell).
 * 3. Per order: side (alone) → REDUCING → allowlist / exchange → duplicate → non-finite numbers
 *    (replace every other reason) → quantity > 0 → whole shares → limit price → reference price
 *    (present, > 0, FX usable, fresh). If anything failed so far, stop. Then: price band →
 *    monthly quota → commission cap → max order notional → SELL: no shorting / BUY: cash, position.
 *    Reasons accumulate within each group.
 *
 * Money: notional and cost use the limit price; the position share uses the reference price; all
 * amounts compared are in the base currency (instrument amounts × `fx_to_base`). Comparisons
 * allow a tolerance of 1e-9, so an order exactly at a limit passes.
 */
import type { Instrument } from "../core/domain.js";
import type { Order } from "../core/order.js";
import { accountValue } from "../core/valuation.js";
import { fmtLimitPct, fmtNum, fmtPct, fmtQty, fmtValue } from "./format.js";
import { limitRangeIssues, nonFinite, onTick, orderRangeIssues, portfolioRangeIssues } from "./input-checks.js";
import type {
  BlockCode,
  BlockReason,
  GateDecision,
  GateHolding,
  GateMarket,
  GateOrder,
  GateResult,
  GateState,
  Limits,
  MarketQuote,
} from "../core/gate-types.js";

export const EPS = 1e-9;

export interface EvaluateOptions {
  /**
   * Commission estimate in the base currency for an order of this notional (base currency); used by
   * the live run, where commission depends on quantity. When given it overrides the quote's fixed
   * `commission`; returning `undefined` (or a non-finite or negative number) means unknown, which
   * counts as infinite and blocks the order (commission_cap). Without it, the quote's `commission`
   * is used, defaulting to 0 when the quote has none.
   */
  commission?: (order: GateOrder, notionalBase: number) => number | undefined;
}

const HALT_MESSAGE = "trading halted by kill switch – manual reset required";

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Upper-cased, trimmed symbol; "" when the symbol is not a string. */
export function normSymbol(s: unknown): string {
  return typeof s === "string" ? s.trim().toUpperCase() : "";
}

export function normSide(s: unknown): "BUY" | "SELL" | null {
  if (typeof s !== "string") return null;
  const u = s.trim().toUpperCase();
  return u === "BUY" || u === "SELL" ? u : null;
}

/** FX rate of a quote (default 1); NaN when present but unusable. */
function fxOf(q: MarketQuote | undefined): number {
  if (q === undefined || q.fx_to_base === undefined) return 1;
  return isNum(q.fx_to_base) && q.fx_to_base > 0 ? q.fx_to_base : Number.NaN;
}

/** The price a holding is valued at (instrument currency): its own price, else the market's. */
function valuationPrice(h: GateHolding | undefined, q: MarketQuote | undefined): number {
  if (h !== undefined && h.price !== undefined) return h.price;
  return q === undefined ? Number.NaN : q.price;
}

function lookup<T>(rec: Record<string, T> | undefined, key: string): T | undefined {
  return rec !== undefined && Object.hasOwn(rec, key) ? rec[key] : undefined;
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

/** Drawdown ≥ the limit (with the 1e-9 tolerance); true when the value is unknown (fail closed). */
export function killSwitchTriggered(value: number, peak: number, maxDrawdownPct: number): boolean {
  const dd = drawdownPct(value, peak);
  if (!Number.isFinite(dd)) return true;
  return dd + EPS >= maxDrawdownPct;
}

interface Sim {
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

interface Prepared {
  universe: Map<string, Instrument>;
  market: Map<string, MarketQuote>;
  openBuyReserve: number;
  openBuyQty: Map<string, number>;
  openSellQty: Map<string, number>;
}

function prepare(state: GateState, market: GateMarket, universe: Instrument[]): Prepared {
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

function copyOrder(order: GateOrder): GateOrder {
  if (order === null || typeof order !== "object") return order;
  const copy = { ...order };
  for (const [k, v] of Object.entries(copy)) {
    if (Array.isArray(v)) copy[k] = [...v];
  }
  return copy;
}

function block(code: BlockCode, message: string): BlockReason {
  return { code, message };
}

/** Days between two YYYY-MM-DD dates (b − a); NaN when either does not parse. */
function daysBetween(a: string, b: string): number {
  const re = /^\d{4}-\d{2}-\d{2}$/;
  if (!re.test(a) || !re.test(b)) return Number.NaN;
  const ta = Date.parse(`${a}T00:00:00Z`);
  const tb = Date.parse(`${b}T00:00:00Z`);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return Number.NaN;
  return Math.round((tb - ta) / 86_400_000);
}

/** Sells first, stable within each side; anything that is not a SELL keeps its place after them. */
export function evaluationOrder(orders: readonly GateOrder[]): GateOrder[] {
  const sells: GateOrder[] = [];
  const rest: GateOrder[] = [];
  for (const o of orders) (normSide(o?.side) === "SELL" ? sells : rest).push(o);
  return [...sells, ...rest];
}

export function evaluate(
  orders: GateOrder[],
  state: GateState,
  market: GateMarket,
  limits: Limits,
  universe: Instrument[],
  options: EvaluateOptions = {},
): GateResult {
  const ordered = evaluationOrder(orders ?? []);
  const value0 = portfolioValue(state, market, limits.base_currency);
  const peak = state.peak;
  const dd = drawdownPct(value0, peak);
  const tripped = isNum(dd) && isNum(limits.max_drawdown_pct) && dd + EPS >= limits.max_drawdown_pct;

  const holdings = new Map<string, GateHolding>();
  for (const [k, h] of Object.entries(state.holdings ?? {})) {
    if (h !== undefined) holdings.set(k, { ...h });
  }
  const sim: Sim = { cash: state.cash, spendable: state.cash, holdings, orders: state.orders_this_month, value: value0 };

  const result = (decisions: GateDecision[]): GateResult => ({
    decisions,
    portfolio_after: {
      cash: sim.cash,
      holdings: Object.fromEntries(sim.holdings),
      orders_this_month: sim.orders,
    },
    drawdown_pct: dd,
    kill_switch: tripped,
  });

  // ---- Global blocks -------------------------------------------------------------------------
  const global: BlockReason[] = [];
  const ts = state.trading_state;
  if (ts === "HALTED") global.push(block("trading_halted", HALT_MESSAGE));
  else if (ts !== "ACTIVE" && ts !== "REDUCING") {
    global.push(block("trading_halted", `unknown trading state ${fmtValue(ts)}; treated as halted`));
  }
  const badState: string[] = [];
  if (!isNum(state.cash)) badState.push(`cash ${fmtValue(state.cash)}`);
  if (typeof peak !== "number" || Number.isNaN(peak)) badState.push(`peak ${fmtValue(peak)}`);
  if (!isNum(state.orders_this_month)) badState.push(`orders_this_month ${fmtValue(state.orders_this_month)}`);
  for (const [k, h] of Object.entries(state.holdings ?? {})) {
    if (!isNum(h?.quantity)) badState.push(`holdings.${k}.quantity ${fmtValue(h?.quantity)}`);
  }
  const badLimits = (
    ["max_position_pct", "max_orders_per_month", "max_drawdown_pct", "max_price_deviation_pct", "max_commission_pct"] as const
  ).filter((k) => !isNum(limits[k]));
  const outOfRange = badState.length > 0 ? [] : portfolioRangeIssues(state, market);
  const badLimitRanges = badLimits.length > 0 ? [] : limitRangeIssues(limits);
  if (badState.length > 0) {
    global.push(block("non_finite_number", `the portfolio has non-finite numbers: ${badState.join(", ")}`));
  } else if (badLimits.length > 0) {
    global.push(block("non_finite_number", `limits are not finite numbers: ${badLimits.join(", ")}`));
  } else if (outOfRange.length > 0 || badLimitRanges.length > 0) {
    const what = [...outOfRange, ...badLimitRanges.map((l) => `limits.${l}`)];
    global.push(block("number_out_of_range", `inputs out of range, nothing is computed with them: ${what.join(", ")}`));
  } else {
    const unpriced = unpricedHoldings(state, market);
    if (unpriced.length > 0) {
      global.push(
        block("no_reference_price", `the portfolio cannot be valued: no usable price for held ${unpriced.join(", ")}`),
      );
    } else if (!isNum(value0) || !isNum(dd)) {
      global.push(block("non_finite_result", `the portfolio value (${String(value0)}) or drawdown (${String(dd)}) is not finite`));
    } else if (tripped) {
      global.push(
        block(
          "drawdown_kill_switch",
          `drawdown ${fmtPct(dd)} (value ${fmtNum(value0)} vs peak ${fmtNum(Math.max(peak, value0))}) reaches the kill-switch limit ${fmtLimitPct(limits.max_drawdown_pct)}`,
        ),
      );
    }
  }
  if (global.length > 0) {
    return result(
      ordered.map((o) => ({
        order: copyOrder(o),
        approved: false,
        reasons: global.map((r) => ({ ...r })),
        notional: notionalOf(o, prepareFx(market, o)),
        commission: 0,
        placement: null,
      })),
    );
  }

  // ---- Per order -----------------------------------------------------------------------------
  const prep = prepare(state, market, universe);
  const seen = new Set<string>();
  const decisions: GateDecision[] = [];
  for (const order of ordered) {
    decisions.push(evaluateOne(order, state, limits, prep, sim, seen, options));
  }
  return result(decisions);
}

function prepareFx(market: GateMarket, o: GateOrder): number {
  const fx = fxOf(lookup(market, normSymbol(o?.symbol)));
  return isNum(fx) ? fx : 1;
}

function notionalOf(o: GateOrder, fx: number): number {
  const n = o?.quantity * o?.limit_price * fx;
  return isNum(n) ? n : 0;
}

function evaluateOne(
  order: GateOrder,
  state: GateState,
  limits: Limits,
  prep: Prepared,
  sim: Sim,
  seen: Set<string>,
  options: EvaluateOptions,
): GateDecision {
  const reasons: BlockReason[] = [];
  let placement: Order | null = null;
  const out = (notional = 0, commission = 0): GateDecision => ({
    order: copyOrder(order),
    approved: reasons.length === 0,
    reasons,
    notional,
    commission,
    placement: reasons.length === 0 ? placement : null,
  });

  const side = normSide(order?.side);
  if (side === null) {
    reasons.push(block("invalid_side", `side ${fmtValue(order?.side)} is not BUY or SELL`));
    return out();
  }
  const sym = normSymbol(order.symbol);
  const label = sym === "" ? fmtValue(order.symbol) : sym;

  if (side === "BUY" && state.trading_state === "REDUCING") {
    reasons.push(block("reducing_only", `trading state is REDUCING: only sells are allowed, not a BUY of ${label}`));
  }
  const inst = sym === "" ? undefined : prep.universe.get(sym);
  if (inst === undefined) {
    reasons.push(block("not_allowlisted", `${label} is not in the allowlisted universe`));
  } else if (order.exchange !== undefined && order.exchange !== null && order.exchange !== "") {
    const want = typeof order.exchange === "string" ? order.exchange.trim().toUpperCase() : fmtValue(order.exchange);
    const have = inst.exchange?.trim().toUpperCase();
    if (have !== undefined && have !== "" && want !== have) {
      reasons.push(block("wrong_exchange", `${sym} trades on ${have}, not ${want}`));
    }
  }
  const key = `${sym}|${side}`;
  if (seen.has(key)) {
    reasons.push(block("duplicate_order", `a ${side} order for ${label} is already in this batch (one per symbol and side)`));
  }
  seen.add(key);

  const qty = order.quantity;
  const lim = order.limit_price as unknown;
  const limitMissing = lim === undefined || lim === null;
  const badNums: string[] = [];
  if (!isNum(qty)) badNums.push(`quantity ${fmtValue(qty)}`);
  if (!limitMissing && !isNum(lim)) badNums.push(`limit price ${fmtValue(lim)}`);
  if (badNums.length > 0) {
    reasons.length = 0;
    reasons.push(block("non_finite_number", `${label}: ${badNums.join(" and ")} is not a finite number`));
    return out();
  }
  const tooBig = orderRangeIssues(qty, limitMissing ? null : (lim as number));
  if (tooBig.length > 0) {
    reasons.length = 0;
    reasons.push(block("number_out_of_range", `${label}: ${tooBig.join(" and ")}`));
    return out();
  }

  if (qty <= 0) reasons.push(block("non_positive_quantity", `quantity ${fmtQty(qty)} must be greater than 0`));
  else if (!limits.allow_fractional && !Number.isInteger(qty)) {
    // Exactly as the brokers check it: no slack, 10.0000000001 is not a whole number of shares.
    reasons.push(block("fractional_quantity", `quantity ${String(qty)} is not a whole number of shares`));
  }
  if (limitMissing) {
    reasons.push(block("limit_price_required", `${label}: a limit price is required (limit orders only)`));
  } else if ((lim as number) <= 0) {
    reasons.push(block("non_positive_limit_price", `${label}: limit price ${fmtNum(lim as number)} must be greater than 0`));
  } else if (inst !== undefined) {
    const tick = onTick(lim as number, inst.tick);
    if (!tick.ok) reasons.push(block("tick_size", `${label}: limit price ${String(lim)} is not a multiple of the tick ${String(tick.tick)}`));
  }
  const limitPrice = limitMissing ? Number.NaN : (lim as number);

  const quote = sym === "" ? undefined : prep.market.get(sym);
  const ref = quote?.price;
  const fx = fxOf(quote);
  if (inst !== undefined) {
    if (quote === undefined || ref === undefined) {
      reasons.push(block("no_reference_price", `${sym} has no reference price`));
    } else if (!isNum(ref) || ref <= 0) {
      reasons.push(block("no_reference_price", `${sym} has no usable reference price (${fmtValue(ref)})`));
    } else if (!isNum(fx)) {
      reasons.push(
        block("no_reference_price", `${sym} has no usable FX rate to ${limits.base_currency} (${fmtValue(quote.fx_to_base)})`),
      );
    } else if (limits.max_price_age_days !== null && limits.max_price_age_days !== undefined) {
      const stale = staleness(quote, state, limits.max_price_age_days);
      if (stale !== null) reasons.push(block("stale_reference_price", `${sym}: ${stale}`));
    }
  }
  const notional = isNum(qty * limitPrice * fx) ? qty * limitPrice * fx : 0;
  if (reasons.length > 0 || inst === undefined || quote === undefined || !isNum(ref) || !isNum(fx)) {
    return out(notional);
  }

  // ---- Economic checks (reasons accumulate) --------------------------------------------------
  const cur = inst.currency;
  const deviation = (Math.abs(limitPrice - ref) / ref) * 100;
  if (deviation > limits.max_price_deviation_pct + EPS) {
    reasons.push(
      block(
        "price_band",
        `limit ${fmtNum(limitPrice)} is ${fmtPct(deviation)} from price ${fmtNum(ref)} (max ${fmtLimitPct(limits.max_price_deviation_pct)})`,
      ),
    );
  }
  if (sim.orders + 1 > limits.max_orders_per_month + EPS) {
    reasons.push(
      block(
        "monthly_order_limit",
        `monthly order limit reached: ${fmtQty(sim.orders)} of ${fmtQty(limits.max_orders_per_month)} orders used this month`,
      ),
    );
  }

  let commission: number;
  let commissionKnown: boolean;
  if (options.commission !== undefined) {
    let c: number | undefined;
    try {
      c = options.commission(order, notional);
    } catch {
      c = undefined;
    }
    commissionKnown = isNum(c) && c >= 0;
    commission = commissionKnown ? (c as number) : Number.POSITIVE_INFINITY;
  } else if (quote.commission === undefined) {
    commissionKnown = true;
    commission = 0;
  } else {
    commissionKnown = isNum(quote.commission) && quote.commission >= 0;
    commission = commissionKnown ? quote.commission : Number.POSITIVE_INFINITY;
  }
  const base = limits.base_currency;
  if (!commissionKnown) {
    reasons.push(
      block(
        "commission_cap",
        `commission for ${sym} is unknown (counted as infinite; max ${fmtLimitPct(limits.max_commission_pct)} of notional ${fmtNum(notional)} ${base})`,
      ),
    );
  } else if (commission > (limits.max_commission_pct / 100) * notional + EPS) {
    reasons.push(
      block(
        "commission_cap",
        `commission ${fmtNum(commission)} ${base} is ${fmtPct((commission / notional) * 100)} of notional ${fmtNum(notional)} ${base} (max ${fmtLimitPct(limits.max_commission_pct)})`,
      ),
    );
  }
  const maxNotional = limits.max_order_notional;
  if (maxNotional !== null && maxNotional !== undefined && notional > maxNotional + EPS) {
    reasons.push(
      block(
        "max_order_notional",
        `notional ${fmtNum(notional)} ${base} exceeds the per-order maximum ${fmtNum(maxNotional)} ${base}`,
      ),
    );
  }

  const holdingKey = findHoldingKey(sim.holdings, sym);
  const held = holdingKey === undefined ? 0 : (sim.holdings.get(holdingKey)?.quantity ?? 0);
  if (side === "SELL") {
    const pending = prep.openSellQty.get(sym) ?? 0;
    const sellable = held - pending;
    if (qty > sellable + EPS) {
      reasons.push(
        block(
          "no_shorting",
          pending > 0
            ? `sell ${fmtQty(qty)} ${sym} exceeds the sellable ${fmtQty(Math.max(0, sellable))} (held ${fmtQty(held)}, ${fmtQty(pending)} in open sell orders)`
            : `sell ${fmtQty(qty)} ${sym} exceeds the ${fmtQty(held)} held (no shorting)`,
        ),
      );
    }
  } else {
    // An unknown commission already blocks (commission_cap); the cash and position checks then
    // use 0 so they do not repeat it as noise.
    const c = commissionKnown ? commission : 0;
    const cost = notional + c;
    const available = sim.spendable - prep.openBuyReserve;
    if (!(cost <= available + EPS)) {
      const unfunded = sim.cash > sim.spendable ? ` (proceeds of sells in this batch are not counted until they fill)` : "";
      reasons.push(
        block(
          "insufficient_cash",
          prep.openBuyReserve > 0
            ? `cost ${fmtNum(cost)} ${base} (notional ${fmtNum(notional)} + commission ${fmtNum(c)}) exceeds available cash ${fmtNum(available)} ${base} (cash ${fmtNum(sim.spendable)} less ${fmtNum(prep.openBuyReserve)} in open buy orders)${unfunded}`
            : `cost ${fmtNum(cost)} ${base} (notional ${fmtNum(notional)} + commission ${fmtNum(c)}) exceeds cash ${fmtNum(sim.spendable)} ${base}${unfunded}`,
        ),
      );
    }
    const pendingBuy = prep.openBuyQty.get(sym) ?? 0;
    const after = held + pendingBuy + qty;
    const positionValue = after * ref * fx;
    const cap = (limits.max_position_pct / 100) * (sim.value - c);
    if (!(positionValue <= cap + EPS)) {
      const denom = sim.value - c;
      const share = denom > 0 ? (positionValue / denom) * 100 : Number.POSITIVE_INFINITY;
      reasons.push(
        block(
          "position_limit",
          `${sym} position after the buy would be ${fmtQty(after)} × ${fmtNum(ref)} ${cur} = ${fmtNum(positionValue)} ${base}, ${fmtPct(share)} of portfolio value ${fmtNum(denom)} ${base} (max ${fmtLimitPct(limits.max_position_pct)})`,
        ),
      );
    }
  }

  const unusable = nonFinite({ notional, commission: commissionKnown ? commission : 0, value: sim.value, cash: sim.cash });
  if (unusable.length > 0) {
    reasons.length = 0;
    reasons.push(block("non_finite_result", `${sym}: ${unusable.join(", ")} is not finite; nothing is compared with it`));
  }
  if (reasons.length > 0) return out(isNum(notional) ? notional : 0, commission);

  // ---- Apply to the simulated portfolio ------------------------------------------------------
  const hKey = holdingKey ?? sym;
  const prev = sim.holdings.get(hKey);
  const vp = valuationPrice(prev, quote);
  const valuePerShare = vp * fx;
  if (side === "BUY") {
    sim.cash -= notional + commission;
    sim.spendable -= notional + commission;
    sim.value += qty * valuePerShare - notional - commission;
    sim.holdings.set(hKey, { ...(prev ?? {}), quantity: held + qty });
  } else {
    sim.cash += notional - commission;
    sim.value += notional - commission - qty * valuePerShare;
    const left = held - qty;
    if (Math.abs(left) <= EPS) sim.holdings.delete(hKey);
    else sim.holdings.set(hKey, { ...(prev ?? {}), quantity: left });
  }
  sim.orders += 1;
  placement = { symbol: sym, side, quantity: qty, limit_price: limitPrice, currency: cur.toUpperCase(), fx_to_base: fx, liquidation: false };
  if (inst.exchange !== undefined && inst.exchange !== "") placement.exchange = inst.exchange;
  return out(notional, commission);
}

/** Holdings are keyed by (upper-case) symbol. */
function findHoldingKey(holdings: Map<string, GateHolding>, sym: string): string | undefined {
  return holdings.has(sym) ? sym : undefined;
}

function staleness(quote: MarketQuote, state: GateState, maxDays: number): string | null {
  if (quote.as_of === undefined) {
    return `the reference price has no date (prices must be at most ${maxDays} days old)`;
  }
  if (state.as_of === undefined) {
    return `the evaluation day is unknown, so the price from ${quote.as_of} cannot be checked for freshness (max ${maxDays} days)`;
  }
  const age = daysBetween(quote.as_of, state.as_of);
  if (Number.isNaN(age)) return `price date ${fmtValue(quote.as_of)} or evaluation day ${fmtValue(state.as_of)} is not a date`;
  if (age > maxDays + EPS) {
    return `reference price from ${quote.as_of} is ${age} days old on ${state.as_of} (max ${maxDays} days)`;
  }
  return null;
}
