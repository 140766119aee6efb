/**
 * One simulated day as the report needs it (a line of `days.jsonl`): the day's close-of-day
 * value, cash and index price, the gate's own drawdown, what was sent, filled and blocked, the
 * model's cost, trips and resets. `dayFacts` folds a run's events into the event-derived part. Pure.
 */
import type { RunEvent, RunOutcome } from "../core/events.js";

interface DayFill {
  symbol: string;
  side: "BUY" | "SELL";
  quantity: number;
  /** Price in the base currency. */
  price: number;
  /** Commission in the base currency. */
  commission: number;
}

export interface DayRecord {
  day: string;
  run_id: string;
  outcome: RunOutcome;
  exit_code: number;
  /** Account value at the day's closing prices (base currency). */
  value: number;
  cash: number;
  /** The index's close that day. */
  index: number;
  /** The confirmed peak after the run (the kill switch's reference). */
  peak: number;
  /** The drawdown the kill switch judged at the start of the run (fraction of the peak). */
  gate_drawdown: number;
  trading_state: string;
  orders: number;
  fills: DayFill[];
  blocked: Record<string, number>;
  cost_usd: number;
  trip?: { drawdown: number; reason: string };
  reset?: { reason: string; value: number };
  message: string;
}

export interface DayFacts {
  orders: number;
  blocked: Record<string, number>;
  gateDrawdown: number;
  trip?: { drawdown: number; reason: string };
}

/** The event-derived part of a day: orders sent, gate blocks per rule (proposal and final gate), the start-of-run drawdown, a trip. */
export function dayFacts(events: readonly RunEvent[]): DayFacts {
  const blocked: Record<string, number> = {};
  let orders = 0;
  let gateDrawdown = 0;
  let seenValuation = false;
  let trip: DayFacts["trip"];
  const count = (decisions: readonly { approved: boolean; reasons: readonly { code: string }[] }[]) => {
    for (const d of decisions) {
      if (d.approved) continue;
      for (const code of new Set(d.reasons.map((r) => r.code))) blocked[code] = (blocked[code] ?? 0) + 1;
    }
  };
  for (const e of events) {
    if (e.type === "order.placed") orders++;
    else if (e.type === "proposal" || e.type === "gate.final") count(e.decisions);
    else if (e.type === "valuation" && !seenValuation) {
      seenValuation = true;
      gateDrawdown = e.drawdown_pct / 100;
    } else if (e.type === "killswitch.tripped") trip = { drawdown: e.drawdown_pct / 100, reason: e.reason };
  }
  return { orders, blocked, gateDrawdown, ...(trip ? { trip } : {}) };
}
