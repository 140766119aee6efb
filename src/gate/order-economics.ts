/**
 * The per-order economic checks, run once an order's inputs passed; reasons accumulate: price band
 * → monthly quota → commission cap → max order notional → SELL: no shorting (open sells count) /
 * BUY: cash (open buys are counted; beyond the cash held, a buy the batch's approved sells' proceeds cover is
 * *funded by this batch's sells*, placed only after they fill) and position limit. Amounts are in
 * the base currency and compared exactly, with no tolerance (./exact.ts): an order exactly at a
 * limit passes. Cash is checked both unrounded and as the journal books the fills (each amount
 * rounded half-even once to the minor unit), so booking an approved batch never leaves cash below
 * zero by a single minor unit. Pure: no I/O.
 */
import type { BlockReason, GateOrder, Limits } from "../core/gate-types.js";
import { Dec } from "../core/money.js";
import { findHoldingKey, type Prepared, type Sim } from "./batch.js";
import { commissionOf, type EvaluateOptions } from "./commission.js";
import { baseDigits, majorOf, minorOf, withinPct } from "./exact.js";
import { fmtLimitPct, fmtMoney, fmtNum, fmtPct, fmtQty } from "./format.js";
import { block } from "./normalize.js";
import type { CheckedOrder } from "./order-inputs.js";

/** What the checks worked out, for the decision and the fill. */
export interface Economics {
  /** The commission as given (base currency); infinite when unknown. */
  commission: number;
  commissionKnown: boolean;
  /** Commission and notional as the journal books them (minor units; commission 0 when unknown). */
  commissionMinor: Dec;
  notionalMinor: Dec;
  holdingKey: string | undefined;
  /** Quantity held before this order (in the simulated portfolio). */
  held: number;
  /** A buy beyond the cash held that this batch's sells' proceeds pay for (placed after they fill). */
  funded?: Funding;
}

/** Runs the economic checks on one order against the simulated portfolio, pushing each failure onto `reasons`. */
export function checkEconomics(
  order: GateOrder,
  checked: CheckedOrder,
  limits: Limits,
  prep: Prepared,
  sim: Sim,
  options: EvaluateOptions,
  reasons: BlockReason[],
): Economics {
  const { side, sym, qty, notional } = checked;
  checkBandAndQuota(checked, limits, sim, reasons);
  const base = sim.base;
  const digits = baseDigits(base);
  const fm = (n: number) => fmtMoney(n, digits);
  const notionalMinor = minorOf(checked.notionalExact, base);
  const { commission, known: commissionKnown } = commissionOf(order, notional, checked.quote, options);
  // An unknown commission already blocks (commission_cap); the cash and position checks then use 0
  // so they do not repeat it as noise.
  const commissionMinor = commissionKnown ? minorOf(commission, base) : new Dec(0);
  if (!commissionKnown) {
    reasons.push(
      block(
        "commission_cap",
        `commission for ${sym} is unknown (counted as infinite; max ${fmtLimitPct(limits.max_commission_pct)} of notional ${fm(notional)} ${base})`,
      ),
    );
  } else if (!withinPct(new Dec(commission), limits.max_commission_pct, checked.notionalExact)) {
    reasons.push(
      block(
        "commission_cap",
        `commission ${fm(commission)} ${base} is ${fmtPct((commission / notional) * 100)} of notional ${fm(notional)} ${base} (max ${fmtLimitPct(limits.max_commission_pct)})`,
      ),
    );
  }
  const maxNotional = limits.max_order_notional;
  if (maxNotional !== null && maxNotional !== undefined && checked.notionalExact.gt(maxNotional)) {
    reasons.push(block("max_order_notional", `notional ${fm(notional)} ${base} exceeds the per-order maximum ${fm(maxNotional)} ${base}`));
  }

  const holdingKey = findHoldingKey(sim.holdings, sym);
  const held = holdingKey === undefined ? 0 : (sim.holdings.get(holdingKey)?.quantity ?? 0);
  let funded: Funding | undefined;
  if (side === "SELL") checkSell(sym, qty, held, prep, reasons);
  else
    funded = checkBuy(
      checked,
      held,
      { notionalMinor, commissionMinor, commission: commissionKnown ? new Dec(commission) : new Dec(0) },
      prep,
      sim,
      limits,
      reasons,
    );
  return { commission, commissionKnown, commissionMinor, notionalMinor, holdingKey, held, ...(funded ? { funded } : {}) };
}

/** Price band (|limit − reference| ≤ max% of the reference, exactly) and the monthly quota. */
function checkBandAndQuota(checked: CheckedOrder, limits: Limits, sim: Sim, reasons: BlockReason[]): void {
  const { limitPrice, ref } = checked;
  if (!withinPct(new Dec(limitPrice).sub(ref).abs(), limits.max_price_deviation_pct, new Dec(ref))) {
    const deviation = (Math.abs(limitPrice - ref) / ref) * 100;
    reasons.push(
      block("price_band", `limit ${fmtNum(limitPrice)} is ${fmtPct(deviation)} from price ${fmtNum(ref)} (max ${fmtLimitPct(limits.max_price_deviation_pct)})`),
    );
  }
  if (sim.orders + 1 > limits.max_orders_per_month) {
    reasons.push(
      block("monthly_order_limit", `monthly order limit reached: ${fmtQty(sim.orders)} of ${fmtQty(limits.max_orders_per_month)} orders used this month`),
    );
  }
}

/** No shorting: a sell of at most what is held less what open sells already cover (exact quantities). */
function checkSell(sym: string, qty: number, held: number, prep: Prepared, reasons: BlockReason[]): void {
  const pending = prep.openSellQty.get(sym) ?? 0;
  const sellable = new Dec(held).sub(pending);
  if (!new Dec(qty).gt(sellable)) return;
  reasons.push(
    block(
      "no_shorting",
      pending > 0
        ? `sell ${fmtQty(qty)} ${sym} exceeds the sellable ${fmtQty(Math.max(0, sellable.toNumber()))} (held ${fmtQty(held)}, ${fmtQty(pending)} in open sell orders)`
        : `sell ${fmtQty(qty)} ${sym} exceeds the ${fmtQty(held)} held (no shorting)`,
    ),
  );
}

/** A buy's notional and commission as booked (minor units) and its commission exact (0 when unknown). */
interface BuyAmounts {
  notionalMinor: Dec;
  commissionMinor: Dec;
  commission: Dec;
}

/** A buy funded by this batch's sells: the part of its cost their proceeds pay (minor units, and exact). */
interface Funding {
  minor: Dec;
  exact: Dec;
}

/** A buy: its cost (booked and exact) within the spendable cash (or funded by the batch's sells), and the position after it within the cap. */
function checkBuy(
  checked: CheckedOrder,
  held: number,
  amounts: BuyAmounts,
  prep: Prepared,
  sim: Sim,
  limits: Limits,
  reasons: BlockReason[],
): Funding | undefined {
  const funded = checkCash(checked, amounts, prep, sim, reasons);
  checkPosition(checked, held, amounts.commission, prep, sim, limits, reasons);
  return funded;
}

/**
 * The cost within the cash held (less open buys); beyond it, funded by this batch's sells when
 * their unspent proceeds cover the rest (the buy then waits for them: two-wave execution).
 */
function checkCash(checked: CheckedOrder, amounts: BuyAmounts, prep: Prepared, sim: Sim, reasons: BlockReason[]): Funding | undefined {
  const base = sim.base;
  const digits = baseDigits(base);
  const fm = (n: Dec) => fmtMoney(n.toNumber(), digits);
  const m = (d: Dec) => fmtMoney(majorOf(d, base), digits);
  const { notionalMinor, commissionMinor, commission } = amounts;
  const costMinor = notionalMinor.add(commissionMinor);
  const availableMinor = sim.spendableMinor.sub(prep.openBuyReserveMinor);
  const cost = checked.notionalExact.add(commission);
  const available = sim.spendable.sub(prep.openBuyReserve);
  const bookedOk = costMinor.lte(availableMinor);
  if (bookedOk && cost.lte(available)) return undefined;
  if (costMinor.lte(availableMinor.add(sim.proceedsMinor)) && cost.lte(available.add(sim.proceeds))) {
    const exact = Dec.max(cost.sub(available), 0);
    return { minor: Dec.max(costMinor.sub(availableMinor), minorOf(exact, base), 1), exact };
  }
  const proceeds = sim.proceedsMinor.gt(0) ? ` plus ${m(sim.proceedsMinor)} ${base} of proceeds from this batch's sells` : "";
  // The amounts of the check that failed: as booked, else exact.
  const [c, n, k, a, s, r] = bookedOk
    ? [cost, checked.notionalExact, commission, available, sim.spendable, prep.openBuyReserve].map(fm)
    : [costMinor, notionalMinor, commissionMinor, availableMinor, sim.spendableMinor, prep.openBuyReserveMinor].map(m);
  const head = `cost ${c} ${base} (notional ${n} + commission ${k})`;
  reasons.push(
    block(
      "insufficient_cash",
      prep.openBuyReserve.gt(0)
        ? `${head} exceeds available cash ${a} ${base} (cash ${s} less ${r} in open buy orders)${proceeds}`
        : `${head} exceeds cash ${s} ${base}${proceeds}`,
    ),
  );
  return undefined;
}

/** The position at the reference price against the portfolio's value (the one valuation) less the commission, exactly. */
function checkPosition(checked: CheckedOrder, held: number, commission: Dec, prep: Prepared, sim: Sim, limits: Limits, reasons: BlockReason[]): void {
  const { sym, inst, qty, ref, fx } = checked;
  const base = sim.base;
  const fm = (n: Dec) => fmtMoney(n.toNumber(), baseDigits(base));
  const pendingBuy = prep.openBuyQty.get(sym) ?? 0;
  const after = new Dec(held).add(pendingBuy).add(qty);
  const position = after.mul(ref).mul(fx);
  const denom = new Dec(majorOf(sim.valueMinor, base)).sub(commission);
  if (!withinPct(position, limits.max_position_pct, denom)) {
    const share = denom.gt(0) ? position.div(denom).mul(100).toNumber() : Number.POSITIVE_INFINITY;
    reasons.push(
      block(
        "position_limit",
        `${sym} position after the buy would be ${fmtQty(after.toNumber())} × ${fmtNum(ref)} ${inst.currency} = ${fm(position)} ${base}, ${fmtPct(share)} of portfolio value ${fm(denom)} ${base} (max ${fmtLimitPct(limits.max_position_pct)})`,
      ),
    );
  }
}
