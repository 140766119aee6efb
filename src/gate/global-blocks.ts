/**
 * The gate's global blocks, checked before any order: HALTED (or an unknown trading state), a
 * portfolio or limits with non-finite or out-of-range numbers, an unvaluable portfolio, and
 * drawdown at the kill-switch limit. Any of them blocks every order of the batch. Pure: no I/O.
 */
import type { BlockReason, GateMarket, GateOrder, GateState, Limits, Verdict } from "../core/gate-types.js";
import { fmtLimitPct, fmtNum, fmtPct, fmtValue } from "./format.js";
import { limitRangeIssues, portfolioRangeIssues } from "./input-checks.js";
import { block, copyOrder, isNum, lookup, normSymbol } from "./normalize.js";
import { fxOf, unpricedHoldings } from "./valuation.js";

const HALT_MESSAGE = "trading halted by kill switch – manual reset required";

/**
 * The reasons that block the whole batch (empty when orders are checked one by one). `value0` is
 * the portfolio value, `dd` its drawdown and `tripped` whether that drawdown reaches the limit.
 */
export function globalBlocks(state: GateState, market: GateMarket, limits: Limits, value0: number, dd: number, tripped: boolean): BlockReason[] {
  const peak = state.peak;
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
  const badLimits = (["max_position_pct", "max_orders_per_month", "max_drawdown_pct", "max_price_deviation_pct", "max_commission_pct"] as const).filter(
    (k) => !isNum(limits[k]),
  );
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
      global.push(block("no_reference_price", `the portfolio cannot be valued: no usable price for held ${unpriced.join(", ")}`));
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
  return global;
}

/** An order blocked with the global reasons (each decision gets its own copies); the caller adds its index. */
export function globallyBlocked(o: GateOrder, global: readonly BlockReason[], market: GateMarket): Verdict {
  return {
    order: copyOrder(o),
    approved: false,
    reasons: global.map((r) => ({ ...r })),
    notional: notionalOf(o, prepareFx(market, o)),
    commission: 0,
    placement: null,
  };
}

function prepareFx(market: GateMarket, o: GateOrder): number {
  const fx = fxOf(lookup(market, normSymbol(o?.symbol)));
  return isNum(fx) ? fx : 1;
}

function notionalOf(o: GateOrder, fx: number): number {
  const n = o?.quantity * o?.limit_price * fx;
  return isNum(n) ? n : 0;
}
