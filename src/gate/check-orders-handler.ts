/**
 * The gate behind the `check_orders` tool (and the verdicts of the `submit_orders` bounce): the real
 * gate on a copy of the run's state. It places nothing and changes nothing. The tool's adapter is
 * src/tools/handlers/check-orders.ts.
 */
import type { Instrument } from "../core/domain.js";
import { type EvaluateOptions, evaluate } from "./evaluate.js";
import { type Static, Type } from "@sinclair/typebox";
import { fromMinor } from "../core/money.js";
import { fundedBySellsText } from "./format.js";
import { BlockReasonSchema, type FundedBySells, type GateMarket, type GateOrder, type GateResult, type GateState, type Limits } from "../core/gate-types.js";

export interface GateInputs {
  state: GateState;
  market: GateMarket;
  limits: Limits;
  universe: Instrument[];
  commission?: EvaluateOptions["commission"];
}

/** One decision as the model is shown it (no index: tw-tools/1 and /2 results replay unchanged). */
const OrderVerdictSchema = Type.Object({
  symbol: Type.String(),
  side: Type.String(),
  quantity: Type.Number(),
  limit_price: Type.Number(),
  approved: Type.Boolean(),
  reasons: Type.Array(BlockReasonSchema),
  notional: Type.Number(),
  /** null when the commission is unknown (counted as infinite: the order is blocked). */
  commission: Type.Union([Type.Number(), Type.Null()], { description: "null when the commission is unknown (counted as infinite: the order is blocked)." }),
  /** Only on an approved buy the cash held does not cover but this batch's sells do: placed after they fill. */
  funded_by_sells: Type.Optional(
    Type.Object({
      amount: Type.Number(),
      currency: Type.String(),
      placed_after_sells_fill: Type.Literal(true),
      note: Type.String(),
    }),
  ),
});

/**
 * The model-facing result of check_orders (tw-tools/1 and /2 serialise exactly this: decisions in
 * evaluated order, with no index, so recorded results replay unchanged).
 */
const OrderVerdictsSchema = Type.Object({
  all_approved: Type.Boolean(),
  decisions: Type.Array(OrderVerdictSchema),
  portfolio_after: Type.Object({ cash: Type.Number(), orders_this_month: Type.Number() }),
});
export type OrderVerdicts = Static<typeof OrderVerdictsSchema>;

const round = (n: number): number => Number(n.toFixed(9));

/** A funded buy as the model is told it: the amount, and that it waits for the sells (shrunk or dropped if they fall short). */
function fundedForModel(f: FundedBySells): { amount: number; currency: string; placed_after_sells_fill: true; note: string } {
  return {
    amount: fromMinor(f.amount_minor, f.currency),
    currency: f.currency,
    placed_after_sells_fill: true,
    note: `${fundedBySellsText(f)}; if they fill short or not at all, the buy is shrunk to the cash received or dropped`,
  };
}

/** The gate on a copy of the inputs (it changes nothing). */
export function dryRun(orders: GateOrder[], inputs: GateInputs): GateResult {
  const copy = structuredClone({ orders, state: inputs.state, market: inputs.market });
  const options: EvaluateOptions = inputs.commission ? { commission: inputs.commission } : {};
  return evaluate(copy.orders, copy.state, copy.market, inputs.limits, inputs.universe, options);
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
      ...(d.funded_by_sells ? { funded_by_sells: fundedForModel(d.funded_by_sells) } : {}),
    })),
    portfolio_after: { cash: round(r.portfolio_after.cash), orders_this_month: r.portfolio_after.orders_this_month },
  };
}
