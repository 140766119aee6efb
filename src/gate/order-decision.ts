/**
 * One order's decision within a batch: its input checks, then (if they pass) its economic checks,
 * then a last guard against non-finite results; an approved order is applied to the simulated
 * portfolio and gets its placement. A blocked order changes nothing and uses no quota. Pure: no I/O.
 */
import type { Order } from "../core/order.js";
import type { BlockReason, FundedBySells, GateOrder, GateState, Limits, Verdict } from "../core/gate-types.js";
import { applyFill, type Prepared, type Sim } from "./batch.js";
import type { EvaluateOptions } from "./commission.js";
import { nonFinite } from "./input-checks.js";
import { block, copyOrder, isNum } from "./normalize.js";
import { checkEconomics } from "./order-economics.js";
import { checkOrderInputs } from "./order-inputs.js";

export function evaluateOne(
  order: GateOrder,
  state: GateState,
  limits: Limits,
  prep: Prepared,
  sim: Sim,
  seen: Set<string>,
  options: EvaluateOptions,
): Verdict {
  const reasons: BlockReason[] = [];
  let placement: Order | null = null;
  let funded: FundedBySells | undefined;
  const out = (notional = 0, commission = 0): Verdict => ({
    order: copyOrder(order),
    approved: reasons.length === 0,
    reasons,
    notional,
    commission,
    placement: reasons.length === 0 ? placement : null,
    ...(reasons.length === 0 && funded ? { funded_by_sells: funded } : {}),
  });

  const inputs = checkOrderInputs(order, state, limits, prep, seen, reasons);
  if (!inputs.ok) return out(inputs.notional);
  const checked = inputs.order;
  const { side, sym, inst, quote, qty, limitPrice, fx, notional } = checked;

  const economics = checkEconomics(order, checked, limits, prep, sim, options, reasons);
  const { commission, commissionKnown, holdingKey, held } = economics;

  const unusable = nonFinite({ notional, commission: commissionKnown ? commission : 0, value: sim.valueMinor.toNumber(), cash: sim.cash.toNumber() });
  if (unusable.length > 0) {
    reasons.length = 0;
    reasons.push(block("non_finite_result", `${sym}: ${unusable.join(", ")} is not finite; nothing is compared with it`));
  }
  if (reasons.length > 0) return out(isNum(notional) ? notional : 0, commission);

  const { notionalMinor, commissionMinor } = economics;
  const fill = { side, sym, holdingKey, held, qty, notional: checked.notionalExact, commission, notionalMinor, commissionMinor, quote, fx };
  applyFill(sim, economics.funded ? { ...fill, funded: economics.funded } : fill);
  if (economics.funded) funded = { amount_minor: economics.funded.minor.toNumber(), currency: sim.base };
  placement = { symbol: sym, side, quantity: qty, limit_price: limitPrice, currency: inst.currency.toUpperCase(), fx_to_base: fx, liquidation: false };
  if (inst.exchange !== undefined && inst.exchange !== "") placement.exchange = inst.exchange;
  return out(notional, commission);
}
