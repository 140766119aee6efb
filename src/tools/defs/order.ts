import { Type } from "@sinclair/typebox";

/** Symbol: what list_universe returns (letters, digits, dot, dash), 1–15 characters. */
export const SymbolField = Type.String({
  minLength: 1,
  maxLength: 15,
  pattern: "^[A-Za-z0-9][A-Za-z0-9.\\-]*$",
  description: "Instrument symbol exactly as list_universe returns it, e.g. \"ALFA\".",
});

export const EvidenceIds = Type.Array(Type.String({ minLength: 1, maxLength: 100, description: "An evidence id." }), {
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
  description:
    "Ids of results returned earlier in this run that support the order (the `evidence_id` of get_portfolio or get_price_history results). Unseen ids are refused.",
});

/** One order as the model proposes it. The gate, not the schema, enforces limits and whole shares. */
export const OrderSchema = Type.Object(
  {
    symbol: SymbolField,
    side: Type.Union([Type.Literal("BUY"), Type.Literal("SELL")], { description: "BUY or SELL (upper case)." }),
    quantity: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description: "Number of shares, > 0. Whole shares unless the account allows fractional quantities.",
    }),
    limit_price: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description:
        "Limit price in the instrument's currency. Orders are DAY limit orders; the limit must lie within the configured band around the reference price.",
    }),
    reason: Type.String({ minLength: 1, maxLength: 500, description: "Why this order, in one or two sentences." }),
    evidence_ids: EvidenceIds,
  },
  { additionalProperties: false, description: "One DAY limit order." },
);

/** The valid order the order tools' examples show (one source, so their examples cannot drift apart). */
export const EXAMPLE_ORDER = {
  symbol: "ALFA",
  side: "BUY",
  quantity: 10,
  limit_price: 101.5,
  reason: "Three-month momentum positive and price above SMA50.",
  evidence_ids: ["price:ALFA:2008-03-14"],
};
