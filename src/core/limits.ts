/**
 * The limits the gate enforces, as a TypeBox schema: `Limits` is `Static<>` of it. Each key carries
 * its range, default and description, so the config's `[limits]` table and a scenario's `limits`
 * reuse them rather than restate them. Nullable keys are `{ type: [T, "null"] }` (the JSON the
 * `--set` editor reads), typed with `Type.Unsafe`. Pure data: no I/O.
 */
import { type Static, Type } from "@sinclair/typebox";

/**
 * Upper bound of a configured amount: keeps every amount exact in integer minor units (2^53); a
 * value beyond it is a typo, refused naming the key rather than failing later.
 */
export const MAX_AMOUNT = 1e12;
export const CURRENCY_PATTERN = "^[A-Z]{3}$";

const pct = (def: number, description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 100, default: def, description });

export const LimitsSchema = Type.Object({
  base_currency: Type.String({ pattern: CURRENCY_PATTERN, format: "iso-4217", default: "USD", description: "ISO 4217 code of the base currency." }),
  max_position_pct: pct(25, "Max position in one instrument, percent of portfolio value (at the reference price)."),
  max_orders_per_month: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 10,
    description: "Orders sent to the broker per calendar month (0: nothing trades).",
  }),
  max_drawdown_pct: pct(25, "Kill switch: drawdown from the confirmed peak, percent, that halts trading."),
  max_price_deviation_pct: Type.Number({
    exclusiveMinimum: 0,
    maximum: 20,
    default: 2,
    description: "Limit price within this percent of the reference price (fat-finger band).",
  }),
  max_commission_pct: pct(10, "Commission at most this percent of the order's notional."),
  allow_fractional: Type.Boolean({ default: false, description: "Allow fractional share quantities." }),
  max_order_notional: Type.Unsafe<number | null>({
    type: ["number", "null"],
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    default: null,
    description: "Max notional per order in the base currency; leave out for none.",
  }),
  /** Null: no price-age check (a scenario's default; the config's `[limits]` requires one). */
  max_price_age_days: Type.Unsafe<number | null>({ type: ["integer", "null"], minimum: 1, default: null }),
});

/** The limits the gate enforces (the `[limits]` table of the config; scenario `limits`). */
export type Limits = Static<typeof LimitsSchema>;

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
