/**
 * The simulated broker's commission schedule: per share, with a minimum per order, capped at a
 * percentage of the order's value. Also the estimate the gate can use before sending.
 */
import type { SimBrokerConfig } from "../config/types.js";
import { Dec, roundMajor } from "../core/money.js";

export type CommissionSchedule = Pick<SimBrokerConfig, "commission_per_share" | "commission_min" | "commission_max_pct">;

/**
 * Commission for `quantity` shares worth `value` in total (both in the instrument's `currency`):
 * max(min, per_share × qty), at most max_pct% of value; exact, rounded half-even to the currency's
 * minor unit (the one money rounding, core/money.ts).
 */
export function commissionFor(schedule: CommissionSchedule, quantity: number, value: number | Dec, currency = "USD"): number {
  const v = new Dec(value);
  if (!(quantity > 0) || !v.gt(0)) return 0;
  const raw = Dec.max(schedule.commission_min, new Dec(schedule.commission_per_share).mul(quantity));
  const cap = new Dec(schedule.commission_max_pct).div(100).mul(v);
  return roundMajor(Dec.min(raw, cap), currency);
}

/** The commission of an order of `quantity` at `price` (e.g. the gate's estimate at the limit price). */
export function estimateCommission(schedule: CommissionSchedule, quantity: number, price: number, currency = "USD"): number {
  return commissionFor(schedule, quantity, new Dec(quantity).mul(price), currency);
}
