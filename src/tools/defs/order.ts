/**
 * The order item of check_orders and submit_orders. The schema is the domain's order intent
 * (src/core/order-intent.ts), defined once there; the tool contracts render it as it is.
 */
export { EvidenceIds, OrderIntentSchema as OrderSchema, SymbolField } from "../../core/order-intent.js";
import type { ProposedOrder } from "../../core/order-intent.js";

/** The valid order the order tools' examples show (one source, so their examples cannot drift apart). */
export const EXAMPLE_ORDER: ProposedOrder = {
  symbol: "ALFA",
  side: "BUY",
  quantity: 10,
  limit_price: 101.5,
  reason: "Momentum up, above SMA50.",
  evidence_ids: ["price:ALFA:2008-03-14"],
};
