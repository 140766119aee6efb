/**
 * The gate behind the `check_orders` tool (and the verdicts of the `submit_orders` bounce): the real
 * gate on a copy of the run's state. It places nothing and changes nothing. The tool's adapter is
 * src/tools/handlers/check-orders.ts.
 */
import type { Instrument } from "../core/domain.js";
import { type EvaluateOptions, evaluate } from "./evaluate.js";
import type { BlockReason, GateMarket, GateOrder, GateResult, GateState, Limits } from "../core/gate-types.js";

export interface GateInputs {
  state: GateState;
  market: GateMarket;
  limits: Limits;
  universe: Instrument[];
  commission?: EvaluateOptions["commission"];
}

export interface OrderVerdict {
  symbol: string;
  side: string;
  quantity: number;
  limit_price: number;
  approved: boolean;
  reasons: BlockReason[];
  notional: number;
  /** null when the commission is unknown (counted as infinite: the order is blocked). */
  commission: number | null;
}

/**
 * The model-facing result of check_orders (tw-tools/1 and /2 serialise exactly this: decisions in
 * evaluated order, with no index, so recorded results replay unchanged).
 */
export interface OrderVerdicts {
  all_approved: boolean;
  decisions: OrderVerdict[];
  portfolio_after: { cash: number; orders_this_month: number };
}

const round = (n: number): number => Number(n.toFixed(9));

/** The gate on a copy of the inputs (it changes nothing). */
export function dryRun(orders: GateOrder[], inputs: GateInputs): GateResult {
  const copy = structuredClone({ orders, state: inputs.state, market: inputs.market });
  const options: EvaluateOptions = inputs.commission ? { commission: inputs.commission } : {};
  return evaluate(copy.orders, copy.state, copy.market, inputs.limits, inputs.universe, options);
}

/** The gate's verdicts for a batch, shaped for the model (decisions in evaluated order: sells first). */
export function gateVerdicts(orders: GateOrder[], inputs: GateInputs): OrderVerdicts {
  return modelVerdicts(dryRun(orders, inputs));
}

/** A gate result as the model is shown it. */
export function modelVerdicts(r: GateResult): OrderVerdicts {
  return {
    all_approved: r.decisions.every((d) => d.approved),
    decisions: r.decisions.map((d) => ({
      symbol: String(d.order.symbol),
      side: String(d.order.side),
      quantity: d.order.quantity,
      limit_price: d.order.limit_price,
      approved: d.approved,
      reasons: d.reasons,
      notional: round(d.notional),
      commission: Number.isFinite(d.commission) ? round(d.commission) : null,
    })),
    portfolio_after: { cash: round(r.portfolio_after.cash), orders_this_month: r.portfolio_after.orders_this_month },
  };
}
