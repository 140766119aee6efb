/**
 * The simulated broker's commission schedule: per share, with a minimum per order, capped at a
 * percentage of the order's value. Also the estimate the gate can use before sending.
 */
import type { SimBrokerConfig } from "../config/types.js";

export type CommissionSchedule = Pick<SimBrokerConfig, "commission_per_share" | "commission_min" | "commission_max_pct">;

const cents = (x: number) => Math.round(x * 100 + Number.EPSILON * 100) / 100;

/** Commission for `quantity` shares worth `value` in total: max(min, per_share × qty), at most max_pct% of value; cents. */
export function commissionFor(schedule: CommissionSchedule, quantity: number, value: number): number {
  if (!(quantity > 0) || !(value > 0)) return 0;
  const raw = Math.max(schedule.commission_min, schedule.commission_per_share * quantity);
  const cap = (schedule.commission_max_pct / 100) * value;
  return cents(Math.min(raw, cap));
}

/** The commission of an order of `quantity` at `price` (e.g. the gate's estimate at the limit price). */
export function estimateCommission(schedule: CommissionSchedule, quantity: number, price: number): number {
  return commissionFor(schedule, quantity, quantity * price);
}
