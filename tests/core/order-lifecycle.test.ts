/**
 * The order lifecycle table (core/order-lifecycle.ts) as data: terminal statuses lead nowhere,
 * every status is reachable from an intent, and an illegal step is an error value naming the
 * order, the status it had and the one it was asked to take.
 */
import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import {
  ILLEGAL_ORDER_TRANSITION,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  OrderStatusSchema,
  type OrderStatus,
  TERMINAL_ORDER_STATUSES,
  isTerminalStatus,
  transition,
} from "../../src/core/order-lifecycle.js";
import { WORKING_BROKER_STATUSES } from "../../src/broker/types.js";

describe("order lifecycle table", () => {
  it("lists the nine statuses once, as the schema's literals", () => {
    expect([...ORDER_STATUSES].sort()).toEqual(
      ["accepted", "cancelled", "expired", "filled", "intent", "partially_filled", "rejected", "uncertain", "working_after_cancel"].sort(),
    );
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort());
    for (const s of ORDER_STATUSES) expect(Value.Check(OrderStatusSchema, s)).toBe(true);
    expect(Value.Check(OrderStatusSchema, "pending_cancel")).toBe(false);
  });

  it("every terminal status has no outgoing transition (to any other status)", () => {
    expect([...TERMINAL_ORDER_STATUSES].sort()).toEqual(["cancelled", "expired", "filled", "rejected"]);
    for (const t of TERMINAL_ORDER_STATUSES) {
      expect(ORDER_TRANSITIONS[t], t).toEqual([]);
      for (const to of ORDER_STATUSES) {
        const r = transition("o1", t, to);
        expect(r.ok, `${t} → ${to}`).toBe(to === t); // a repeat is a restatement, not a step
      }
    }
  });

  it("every status is reachable from intent, and every non-terminal status can still end", () => {
    const reached = new Set<OrderStatus>(["intent"]);
    const queue: OrderStatus[] = ["intent"];
    while (queue.length > 0) {
      for (const next of ORDER_TRANSITIONS[queue.shift() as OrderStatus]) {
        if (!reached.has(next)) {
          reached.add(next);
          queue.push(next);
        }
      }
    }
    expect([...reached].sort()).toEqual([...ORDER_STATUSES].sort());
    for (const s of ORDER_STATUSES) {
      if (!TERMINAL_ORDER_STATUSES.has(s))
        expect(
          ORDER_TRANSITIONS[s].some((t) => TERMINAL_ORDER_STATUSES.has(t)),
          s,
        ).toBe(true);
    }
  });

  it("nothing leads back to intent, and a fill never goes back to none", () => {
    for (const s of ORDER_STATUSES) expect(ORDER_TRANSITIONS[s]).not.toContain("intent");
    expect(transition("o1", "intent", "intent").ok).toBe(false);
    expect(ORDER_TRANSITIONS.partially_filled).not.toContain("accepted");
    expect(ORDER_TRANSITIONS.accepted).not.toContain("uncertain");
  });

  it("an illegal step is an error value with a stable code naming the order, from and to", () => {
    const r = transition("tw-r1-0", "filled", "accepted");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(ILLEGAL_ORDER_TRANSITION);
    expect(r.error.message).toBe("order tw-r1-0 cannot go from filled to accepted: filled is terminal (the broker has finished with it)");
    expect(r.error.details).toEqual({ order: "tw-r1-0", from: "filled", to: "accepted" });
    const skip = transition("tw-r1-1", "partially_filled", "accepted");
    expect(skip).toMatchObject({ ok: false, error: { code: ILLEGAL_ORDER_TRANSITION } });
    const bogus = transition("tw-r1-2", "accepted", "done");
    expect(bogus).toMatchObject({ ok: false, error: { message: "order tw-r1-2 cannot go from accepted to done: done is not an order status" } });
  });

  it("the paths the executor and recovery take are legal", () => {
    const paths: OrderStatus[][] = [
      ["intent", "accepted", "partially_filled", "cancelled"], // a partial fill, the rest cancelled
      ["intent", "filled"], // filled on the send
      ["intent", "rejected"], // refused on the send
      ["intent", "uncertain", "rejected"], // a send the broker never received
      ["intent", "uncertain", "accepted", "filled"], // a send found by its client order id
      ["intent", "accepted", "working_after_cancel", "filled"], // fills arriving after the cancel, settled next run
      ["intent", "working_after_cancel", "cancelled"], // recovery of an intent found working at the broker
      ["uncertain", "working_after_cancel"],
      ["accepted", "expired"],
    ];
    for (const p of paths) for (let i = 1; i < p.length; i++) expect(transition("o", p[i - 1] as string, p[i] as string).ok, p.join(" → ")).toBe(true);
  });

  it("an operator's adoption settles any status as rejected, and only as rejected", () => {
    expect(transition("o", "filled", "rejected", "adoption").ok).toBe(true);
    expect(transition("o", "working_after_cancel", "rejected", "adoption").ok).toBe(true);
    expect(transition("o", "filled", "cancelled", "adoption").ok).toBe(false);
    expect(transition("o", "filled", "rejected").ok).toBe(false);
  });

  it("the broker's working statuses are exactly its non-terminal ones (one terminal set)", () => {
    expect([...WORKING_BROKER_STATUSES].sort()).toEqual(["accepted", "partially_filled", "pending_cancel"]);
    expect(isTerminalStatus("pending_cancel")).toBe(false);
    expect(isTerminalStatus("expired")).toBe(true);
  });
});
