import type { Limits } from "../core/gate-types.js";

/** Exactly the gate's limit keys of a larger object (the config's `[limits]`, a scenario's `limits`). */
export function pickLimits(l: Limits): Limits {
  return {
    base_currency: l.base_currency,
    max_position_pct: l.max_position_pct,
    max_orders_per_month: l.max_orders_per_month,
    max_drawdown_pct: l.max_drawdown_pct,
    max_price_deviation_pct: l.max_price_deviation_pct,
    max_commission_pct: l.max_commission_pct,
    allow_fractional: l.allow_fractional,
    max_order_notional: l.max_order_notional,
    max_price_age_days: l.max_price_age_days,
  };
}
