/**
 * The risk gate: pure and deterministic. `evaluate` never mutates its input, never throws on bad
 * numbers (it blocks them) and does no I/O.
 *
 * Order of evaluation (guardrail-trader semantics, extended):
 * 1. Global blocks first: HALTED (or an unknown trading state), an unvaluable portfolio, and
 *    drawdown ≥ limit block every order; no per-order checks run.
 * 2. Sells first, stable within each side; every decision carries the input `index` of its order. Each approved order is applied to a simulated portfolio
 *    (cash, holdings, quota, running value) so a batch cannot jointly break a limit; a blocked
 *    order changes nothing and uses no quota. Buys are funded from the cash held before the batch; a
 *    buy beyond it that the approved sells' unspent proceeds (at their limits, less commission)
 *    cover is approved *funded by this batch's sells* (`funded_by_sells`, with the amount): it is
 *    placed only after those sells have filled and re-gated on the cash actually received
 *    (src/run/phases/second-wave.ts), so no buy is ever paid by margin through an unfilled sell.
 * 3. Per order: side (alone) → REDUCING → allowlist / exchange → duplicate → non-finite numbers
 *    (replace every other reason) → quantity > 0 → whole shares → limit price → reference price
 *    (present, > 0, FX usable, fresh). If anything failed so far, stop. Then: price band →
 *    monthly quota → commission cap → max order notional → SELL: no shorting / BUY: cash, position.
 *    Reasons accumulate within each group.
 *
 * Money: notional and cost use the limit price; the position share uses the reference price; all
 * amounts compared are in the base currency (instrument amounts × `fx_to_base`), in whole minor
 * units rounded half-even as the journal books a fill, and compared exactly (exact.ts): an order
 * exactly at a limit passes, one minor unit over does not. The scenario JSON reports major units.
 *
 * The parts live in their own modules: normalize.ts (shared vocabulary), valuation.ts (portfolio
 * value, drawdown, kill switch), global-blocks.ts (1), batch.ts (2: ordering, open-order
 * reservations, the simulated portfolio), order-inputs.ts and order-economics.ts (3),
 * commission.ts, and order-decision.ts (one order's decision). This module is the entry point.
 */
import type { Instrument } from "../core/domain.js";
import type { GateDecision, GateMarket, GateOrder, GateResult, GateState, Limits } from "../core/gate-types.js";
import { evaluationOrder, prepare, startSim } from "./batch.js";
import type { EvaluateOptions } from "./commission.js";
import { globalBlocks, globallyBlocked } from "./global-blocks.js";
import { drawdownReached, minorOf } from "./exact.js";
import { isNum } from "./normalize.js";
import { evaluateOne } from "./order-decision.js";
import { drawdownPct, portfolioValue } from "./valuation.js";

export type { EvaluateOptions } from "./commission.js";
export { normSide, normSymbol } from "./normalize.js";
export { drawdownPct, killSwitchTriggered, portfolioValue } from "./valuation.js";

export function evaluate(
  orders: GateOrder[],
  state: GateState,
  market: GateMarket,
  limits: Limits,
  universe: Instrument[],
  options: EvaluateOptions = {},
): GateResult {
  const ordered = evaluationOrder(orders ?? []);
  const base = limits.base_currency;
  const value0 = portfolioValue(state, market, base);
  const dd = drawdownPct(value0, state.peak);
  const tripped =
    isNum(dd) && isNum(limits.max_drawdown_pct) && drawdownReached(minorOf(value0, base), minorOf(Math.max(state.peak, value0), base), limits.max_drawdown_pct);
  const sim = startSim(state, value0, base);

  const result = (decisions: GateDecision[]): GateResult => ({
    decisions,
    portfolio_after: {
      cash: sim.cash.toNumber(),
      holdings: Object.fromEntries(sim.holdings),
      orders_this_month: sim.orders,
    },
    drawdown_pct: dd,
    kill_switch: tripped,
    cash_after_minor: sim.cashMinor.toNumber(),
  });

  // Each decision names the input position of the order it answers (decisions are in evaluated order).
  const global = globalBlocks(state, market, limits, value0, dd, tripped);
  if (global.length > 0) return result(ordered.map(({ order, index }) => ({ index, ...globallyBlocked(order, global, market) })));

  const prep = prepare(state, market, universe, base);
  const seen = new Set<string>();
  const decisions: GateDecision[] = [];
  for (const { order, index } of ordered) {
    decisions.push({ index, ...evaluateOne(order, state, limits, prep, sim, seen, options) });
  }
  return result(decisions);
}
