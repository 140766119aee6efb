/** Read views over the folded journal state (pure): holdings, spend, the trading cash flow, the last completed run. */
import { Dec, microsToUsd, minorDigits } from "../core/money.js";
import type { State } from "./state.js";
import { toMs } from "./time.js";
import type { Holding, RunRecord } from "./types.js";

export function holdingsView(s: State): Record<string, Holding> {
  const cur = s.account?.currency ?? "USD";
  const scale = new Dec(10).pow(minorDigits(cur));
  const out: Record<string, Holding> = {};
  for (const [sym, h] of s.holdings) {
    out[sym] = {
      quantity: h.qty.toNumber(),
      avg_cost: h.qty.gt(0) ? h.basis.div(h.qty).div(scale).toNumber() : 0,
      cost_basis: h.basis.toDecimalPlaces(0, Dec.ROUND_HALF_EVEN).div(scale).toNumber(),
      currency: h.currency,
    };
  }
  return out;
}

/** LLM spend (USD) of usage records inside the window (epoch ms, end exclusive). */
export function spendInMonth(s: State, w: { start: number; end: number }): number {
  let micros = 0;
  for (let i = s.usage.length - 1; i >= 0; i--) {
    const u = s.usage[i] as State["usage"][number];
    const ms = toMs(u.at);
    if (ms >= w.start && ms < w.end) micros += u.cost_micros;
  }
  return microsToUsd(micros);
}

/** Cash moved by fills and commissions since the account opened, in base minor units (deposits excluded). */
export function tradingCashFlowMinor(s: State): number {
  let sum = 0;
  for (const e of s.ledger) if (e.kind !== "deposit") sum += e.amount_minor;
  return sum;
}

/** The latest trading day of a completed run that valued the account (null: none yet). */
export function lastCompletedTradingDay(s: State): { run_id: string; trading_day: string } | null {
  let best: RunRecord | null = null;
  for (const id of s.runIds) {
    const r = s.runs.get(id) as RunRecord;
    if (r.status !== "completed" || r.first_value_minor === null) continue;
    if (!best || r.trading_day >= best.trading_day) best = r;
  }
  return best ? { run_id: best.run_id, trading_day: best.trading_day } : null;
}
