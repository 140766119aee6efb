/**
 * The order intent is defined once (src/core/order-intent.ts): the order item of check_orders and
 * submit_orders is that schema, and it renders to the model exactly as the frozen tw-tools/1
 * snapshot recorded it.
 */
import { describe, expect, it } from "vitest";
import { OrderIntentSchema } from "../../src/core/order-intent.js";
import { contractOf } from "../../src/tools/catalogue.js";
import { plainSchema } from "../../src/tools/render.js";
import { contractSet } from "../../src/tools/versions.js";

const itemsOf = (schema: unknown) => (schema as { properties: { orders: { items: unknown } } }).properties.orders.items;

describe("the order intent schema", () => {
  it("is the order item of check_orders and submit_orders (one object, not a copy)", () => {
    expect(itemsOf(contractOf("check_orders")?.input)).toBe(OrderIntentSchema);
    expect(itemsOf(contractOf("submit_orders")?.input)).toBe(OrderIntentSchema);
  });

  it("renders as tw-tools/1 recorded it", () => {
    const v1 = contractSet("tw-tools/1");
    for (const name of ["check_orders", "submit_orders"]) {
      const frozen = v1.contracts.find((t) => t.name === name);
      expect(plainSchema(itemsOf(contractOf(name)?.input)), name).toEqual(itemsOf(frozen?.input));
    }
  });
});
