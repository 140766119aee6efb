/**
 * The gate as the run's phases use it: inputs assembled from the journal (re-read each time), the
 * broker's open orders as last read, and the run's point-in-time prices.
 */
import { isDeepStrictEqual } from "node:util";
import type { ProposedOrder } from "../../core/domain.js";
import type { GateDecision, GateOrder, GateResult, OpenOrder } from "../../core/gate-types.js";
import type { Broker } from "../../broker/types.js";
import { limitsOf } from "../../config/load.js";
import { evaluate } from "../../gate/evaluate.js";
import { buildGateInputs, type GateInputSnapshot } from "../gate-inputs.js";
import type { RunContext } from "./context.js";

const NO_COMMISSION = { commission_per_share: 0, commission_min: 0, commission_max_pct: 0 };

/** The broker's open orders as the gate sees them (what is left to fill). */
export async function readOpenOrders(broker: Broker): Promise<OpenOrder[]> {
  return (await broker.openOrders()).map((o) => ({ symbol: o.symbol, side: o.side, quantity: o.quantity - o.filled_quantity, limit_price: o.limit_price }));
}

export function gateInputs(ctx: RunContext): GateInputSnapshot {
  const { journal, config } = ctx.deps;
  if (!ctx.prices) throw new Error("gate inputs before the value phase");
  return buildGateInputs({
    facts: {
      cash: journal.cash(),
      holdings: journal.holdings(),
      peak: journal.peak() ?? ctx.value,
      ordersThisMonth: journal.ordersThisMonth(ctx.sessionNow()),
      tradingState: journal.tradingState(),
    },
    openOrders: [...ctx.openOrders],
    prices: ctx.prices,
    universe: ctx.deps.universe,
    limits: limitsOf(config),
    // The simulated broker's fee schedule; a real paper broker (Alpaca) charges none.
    schedule: config.broker.kind === "sim" ? config.broker.sim : NO_COMMISSION,
    tradingDay: ctx.tradingDay,
  });
}

/** The inputs of a run's last evaluation and its result, by the run's deps (its universe and fee schedule are theirs). */
const lastGate = new WeakMap<RunContext["deps"], { inputs: unknown; result: GateResult }>();

/**
 * The gate's whole result on the run's current state (`g`, built now unless given). The gate is
 * pure, and a day asks it the same question more than once (check_orders' dry run, submit_orders,
 * then the decision phase, on unchanged orders and state): inputs equal to the run's last
 * evaluation's are answered with a copy of its result.
 */
export function gateResult(ctx: RunContext, orders: readonly GateOrder[], g: GateInputSnapshot = gateInputs(ctx)): GateResult {
  const inputs = [orders, g.state, g.market, g.limits];
  const last = lastGate.get(ctx.deps);
  if (last && isDeepStrictEqual(last.inputs, inputs)) return structuredClone(last.result);
  const key = structuredClone(inputs);
  const result = evaluate([...orders], g.state, g.market, g.limits, g.universe, { commission: g.commission });
  lastGate.set(ctx.deps, { inputs: key, result: structuredClone(result) });
  return result;
}

/** The gate on the run's current state: one decision per order, each naming its order by input `index`. */
export function evaluateOrders(ctx: RunContext, orders: readonly ProposedOrder[]): GateDecision[] {
  return gateResult(ctx, orders).decisions;
}
