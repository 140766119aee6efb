/**
 * The order intent is defined once (src/core/order-intent.ts): the order item of check_orders and
 * submit_orders is that schema. It validates exactly as the frozen tw-tools/1 snapshot recorded it:
 * tw-tools/3 only shortened its descriptions (issue #26), and v1 still serves its own.
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

  it("validates as tw-tools/1 recorded it: the same schema but for shorter descriptions", () => {
    const v1 = contractSet("tw-tools/1");
    const undescribed = (s: unknown): unknown => JSON.parse(JSON.stringify(s), (k, v: unknown) => (k === "description" ? undefined : v));
    for (const name of ["check_orders", "submit_orders"]) {
      const frozen = v1.contracts.find((t) => t.name === name);
      expect(undescribed(plainSchema(itemsOf(contractOf(name)?.input))), name).toEqual(undescribed(itemsOf(frozen?.input)));
      expect(JSON.stringify(itemsOf(frozen?.input))).toContain("Instrument symbol exactly as list_universe returns it");
    }
  });
});
