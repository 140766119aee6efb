/** submit_orders narrows its (contract-validated) arguments to their types instead of casting them. */
import { describe, expect, test } from "vitest";
import { makeSubmitHandler } from "../../src/agent/submit.js";
import type { ToolCallContext } from "../../src/core/tool-handler.js";

const ctx: ToolCallContext = { runId: "r", tradingDay: "2024-05-06", seenEvidence: new Set(), pending: [] };
const ORDER = { symbol: "ALFA", side: "BUY", quantity: 1, limit_price: 10, reason: "r", evidence_ids: ["price:ALFA:2024-05-03"] };

describe("submit_orders arguments", () => {
  test("order intents are accepted as they are; abandoned codes are the strings given", async () => {
    const submit = makeSubmitHandler({ evaluateOrders: () => [] });
    const r = await submit({ orders: [ORDER], summary: "s", abandon_error_codes: ["x"], abandon_explanation: "why" }, ctx);
    expect(r.ok).toBe(true);
    expect(submit.state.accepted?.orders).toEqual([ORDER]);
    expect(submit.state.accepted?.abandoned).toEqual(["x"]);
  });

  test("an item that is not an order intent is refused, never passed on", async () => {
    const submit = makeSubmitHandler({ evaluateOrders: () => [] });
    const r = await submit({ orders: [{ ...ORDER, side: "HOLD" }], summary: "s" }, ctx);
    expect(r).toMatchObject({ ok: false, code: "invalid_tool_arguments" });
    expect(submit.state.accepted).toBeNull();
  });

  test("no orders is a hold", async () => {
    const submit = makeSubmitHandler({ evaluateOrders: () => [] });
    expect(await submit({ summary: "s" }, ctx)).toMatchObject({ ok: true, data: { hold: true } });
  });
});
