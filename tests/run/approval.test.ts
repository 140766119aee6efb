import { expect, test } from "vitest";
import type { ProposedOrder } from "../../src/core/domain.js";
import { approvalOutsideProposal, AutoApprover } from "../../src/run/approval.js";
import type { GateDecision } from "../../src/core/gate-types.js";

const order = (symbol: string, side: "BUY" | "SELL", quantity: number, limit_price = 10): ProposedOrder => ({
  symbol,
  side,
  quantity,
  limit_price,
  reason: "r",
  evidence_ids: ["e"],
});
const proposed = [order("AAA", "BUY", 10), order("BBB", "SELL", 5)];

test("an operator may drop orders, shrink quantities and move limits, nothing more", () => {
  expect(approvalOutsideProposal(proposed, [])).toBeNull();
  expect(approvalOutsideProposal(proposed, [order("AAA", "BUY", 4, 10.1)])).toBeNull();
  expect(approvalOutsideProposal(proposed, proposed)).toBeNull();
  expect(approvalOutsideProposal(proposed, [order("AAA", "BUY", 11)])).toMatch(/more than the 10 proposed/);
  expect(approvalOutsideProposal(proposed, [order("CCC", "BUY", 1)])).toMatch(/CCC was not proposed/);
  expect(approvalOutsideProposal(proposed, [order("BBB", "BUY", 1)])).toMatch(/BUY BBB was not proposed/);
  expect(approvalOutsideProposal(proposed, [order("AAA", "BUY", 5), order("AAA", "BUY", 5)])).toMatch(/AAA was not proposed/);
});

test("--yes approves exactly the gate-approved orders and cannot supply the hash (the pipeline computes it)", async () => {
  const decisions = proposed.map((o, i): GateDecision => ({ index: i, order: o, approved: i === 0, reasons: [], notional: 0, commission: 0 }));
  const d = await new AutoApprover().decide({ runId: "r", summary: "s", orders: proposed, decisions, regate: () => decisions });
  expect(d).toMatchObject({ kind: "approve", by: "auto", orders: [proposed[0]] });
  expect(Object.keys(d)).not.toContain("orders_hash");
});
