/**
 * The order intent: one order as the model proposes it (an item of `orders` in check_orders and
 * submit_orders), as the operator approves it, and as the journal records the proposal. Defined
 * once, here, as a TypeBox schema; its TypeScript type is `Static<>` of it. The tool contracts
 * (src/tools/defs/order.ts) render this schema; the domain never imports the tools layer.
 *
 * The schema bounds what the model may send; the gate, not the schema, enforces limits and whole
 * shares. Where an intent sits in its batch is its input index (`GateDecision.index`), never a
 * field of the intent itself.
 */
import { type Static, Type } from "@sinclair/typebox";

/** Symbol: what list_universe returns (letters, digits, dot, dash), 1–15 characters. */
export const SymbolField = Type.String({
  minLength: 1,
  maxLength: 15,
  pattern: "^[A-Za-z0-9][A-Za-z0-9.\\-]*$",
  description: "Instrument symbol (list_universe).",
});

export const EvidenceIds = Type.Array(Type.String({ minLength: 1, maxLength: 100, description: "An evidence id." }), {
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
  description: "Evidence ids from this run's results that support it.",
});

export const SideSchema = Type.Union([Type.Literal("BUY"), Type.Literal("SELL")], { description: "BUY or SELL." });
export type Side = Static<typeof SideSchema>;

/** One order as the model proposes it. The gate, not the schema, enforces limits and whole shares. */
export const OrderIntentSchema = Type.Object(
  {
    symbol: SymbolField,
    side: SideSchema,
    quantity: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description: "Shares.",
    }),
    limit_price: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description: "DAY limit price, instrument currency.",
    }),
    reason: Type.String({ minLength: 1, maxLength: 500, description: "Why, in a sentence or two." }),
    evidence_ids: EvidenceIds,
  },
  { additionalProperties: false, description: "One DAY limit order." },
);

/** An order intent: one order as the model proposes it (its type is the schema's). */
export type ProposedOrder = Static<typeof OrderIntentSchema>;

/**
 * Whether a value has the order intent's type (field types only, not the schema's bounds): how a
 * handler behind the tool contract narrows arguments the contract already validated, after entity
 * unmasking may have changed their text and scale (so the bounds are not re-checked here).
 */
export function hasOrderIntentType(v: unknown): v is ProposedOrder {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o: { [key: string]: unknown } = { ...v };
  return (
    typeof o.symbol === "string" &&
    (o.side === "BUY" || o.side === "SELL") &&
    typeof o.quantity === "number" &&
    typeof o.limit_price === "number" &&
    typeof o.reason === "string" &&
    Array.isArray(o.evidence_ids) &&
    o.evidence_ids.every((id) => typeof id === "string")
  );
}
