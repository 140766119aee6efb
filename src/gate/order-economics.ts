/**
 * The per-order economic checks, run once an order's inputs passed; reasons accumulate: price band
 * → monthly quota → commission cap → max order notional → SELL: no shorting (open sells count) /
 * BUY: cash (sells in the batch are not counted, open buys are) and position limit. Amounts are in
 * the base currency; every comparison allows the 1e-9 tolerance. Pure: no I/O.
 */
import type { BlockReason, GateOrder, Limits } from "../core/gate-types.js";
import { findHoldingKey, type Prepared, type Sim } from "./batch.js";
import { commissionOf, type EvaluateOptions } from "./commission.js";
import { fmtLimitPct, fmtNum, fmtPct, fmtQty } from "./format.js";
import { block, EPS } from "./normalize.js";
import type { CheckedOrder } from "./order-inputs.js";

/** What the checks worked out, for the decision and the fill. */
export interface Economics {
  commission: number;
  commissionKnown: boolean;
  holdingKey: string | undefined;
  /** Quantity held before this order (in the simulated portfolio). */
  held: number;
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
  const { side, sym, inst, quote, qty, limitPrice, ref, fx, notional } = checked;
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

  const { commission, known: commissionKnown } = commissionOf(order, notional, quote, options);
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
  return { commission, commissionKnown, holdingKey, held };
}
