/**
 * tw-tools/3's check_id: check_orders names the orders it checked, and submit_orders takes that
 * name instead of the orders (exactly one of the two) — the proposal is the checked orders, as if
 * they had been sent. An id this run never returned is refused with a stable code and a
 * correction; tw-tools/2 (frozen) has no check ids at all.
 */
import { describe, expect, it } from "vitest";
import { makeSubmitHandler, type SubmitHandler } from "../../src/agent/submit.js";
import { TOOL_ERROR_CODES } from "../../src/core/tool-error-codes.js";
import { checkIdOf } from "../../src/tools/checked-orders.js";
import { buildToolRuntime, type ToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";

const EVIDENCE = "price:ALFA:2008-03-14";
const ORDER = { symbol: "ALFA", side: "BUY", quantity: 10, limit_price: 101.5, reason: "Momentum up.", evidence_ids: [EVIDENCE] };

function world(contractVersion?: string): { rt: ToolRuntime; submit: SubmitHandler } {
  const submit = makeSubmitHandler({
    evaluateOrders: (orders) => orders.map((order, index) => ({ order, index, approved: true, reasons: [], notional: 0, commission: 0 })),
  });
  const handlers: Record<string, ToolHandler> = {
    get_price_history: () => ({ ok: true, data: { evidence_id: EVIDENCE, symbol: "ALFA" }, evidenceIds: [EVIDENCE] }),
    check_orders: () => ({ ok: true, data: { all_approved: true, decisions: [], portfolio_after: { cash: 0, orders_this_month: 1 } } }),
    submit_orders: submit,
  };
  const rt = buildToolRuntime(handlers, {
    runId: "run-1",
    tradingDay: "2008-03-17",
    offered: Object.keys(handlers),
    ...(contractVersion ? { contractVersion } : {}),
  });
  return { rt, submit };
}

async function checkedWorld(orders: unknown[] = [ORDER]) {
  const w = world();
  await w.rt.dispatch("get_price_history", { symbol: "ALFA" });
  const check = await w.rt.dispatch("check_orders", { orders });
  expect(check.success).toBe(true);
  return { ...w, checkId: String(check.envelope.check_id) };
}

describe("check_orders' check_id and submit_orders", () => {
  it("check_orders answers a check_id; submit_orders with it alone submits exactly the checked orders", async () => {
    const { rt, submit, checkId } = await checkedWorld();
    expect(checkId).toMatch(/^check:[0-9a-f]{10}$/);
    const out = await rt.dispatch("submit_orders", { check_id: checkId, summary: "Buy ALFA." });
    expect(out.success).toBe(true);
    expect(out.envelope).toMatchObject({ accepted_orders: 1, hold: false });
    expect(submit.state.accepted?.orders).toEqual([ORDER]);
    // What the run records as the call's arguments holds the orders themselves, not only their name.
    expect(out.arguments).toEqual({ summary: "Buy ALFA.", orders: [ORDER] });
  });

  it("the id is a hash of the orders: the same orders in another key order share it, other orders do not", () => {
    const reordered = Object.fromEntries(Object.entries(ORDER).reverse());
    expect(checkIdOf([reordered])).toBe(checkIdOf([ORDER]));
    expect(checkIdOf([{ ...ORDER, quantity: 11 }])).not.toBe(checkIdOf([ORDER]));
  });

  it("an id no check of this run returned (made up, or another run's) is refused with unknown_check_id and a correction; nothing is submitted", async () => {
    const earlier = await checkedWorld([{ ...ORDER, quantity: 5 }]);
    const { rt, submit, checkId } = await checkedWorld();
    for (const id of ["check:0000000000", earlier.checkId]) {
      const out = await rt.dispatch("submit_orders", { check_id: id, summary: "Buy." });
      expect(out).toMatchObject({ success: false, stage: "grounding", errorCode: "unknown_check_id", retryable: TOOL_ERROR_CODES.unknown_check_id.retryable });
      const correction = out.envelope.correction as Record<string, unknown>;
      expect(correction.instruction).toBe(TOOL_ERROR_CODES.unknown_check_id.instruction);
      expect(correction.known_check_ids).toEqual([checkId]);
    }
    expect(submit.state.accepted).toBeNull();
  });

  it("exactly one of orders and check_id: both, or neither, is an invalid call", async () => {
    const { rt, submit, checkId } = await checkedWorld();
    const both = await rt.dispatch("submit_orders", { orders: [ORDER], check_id: checkId, summary: "Buy." });
    expect(both).toMatchObject({ success: false, stage: "validation", errorCode: "invalid_tool_arguments" });
    expect(both.error).toMatch(/either orders or check_id, not both/);
    const neither = await rt.dispatch("submit_orders", { summary: "Buy." });
    expect(neither).toMatchObject({ success: false, stage: "validation", errorCode: "invalid_tool_arguments" });
    const malformed = await rt.dispatch("submit_orders", { check_id: "check:XYZ", summary: "Buy." });
    expect(malformed).toMatchObject({ success: false, stage: "validation" });
    expect(submit.state.accepted).toBeNull();
    // Sending the orders themselves still works.
    expect((await rt.dispatch("submit_orders", { orders: [ORDER], summary: "Buy." })).success).toBe(true);
  });

  it("tw-tools/2 is unchanged: no check_id in a check's result, and submit_orders refuses one", async () => {
    const { rt, submit } = world("tw-tools/2");
    await rt.dispatch("get_price_history", { symbol: "ALFA" });
    const check = await rt.dispatch("check_orders", { orders: [ORDER] });
    expect(check.success).toBe(true);
    expect(check.envelope).not.toHaveProperty("check_id");
    const out = await rt.dispatch("submit_orders", { check_id: checkIdOf([ORDER]), summary: "Buy." });
    expect(out).toMatchObject({ success: false, stage: "validation", errorCode: "invalid_tool_arguments" });
    expect(submit.state.accepted).toBeNull();
  });
});
