/**
 * The run's decision phase hands the approver each cited item's age on the run's calendar and
 * trading day, stale past research.stale_evidence_days (what the approval screen shows).
 */
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, Approver } from "../../src/run/approval.js";
import { budgetPhase } from "../../src/run/phases/budget.js";
import { decisionPhase } from "../../src/run/phases/decision.js";
import { killSwitchPhase } from "../../src/run/phases/killswitch.js";
import { preflight } from "../../src/run/phases/preflight.js";
import { reconcilePhase } from "../../src/run/phases/reconcile.js";
import { valuePhase } from "../../src/run/phases/value.js";
import { ok, phaseWorld } from "./phases/helpers.js";

describe("run: evidence ages in the approval request", () => {
  it("dates each item the transcript returned and marks those past the configured age stale", async () => {
    const seen: ApprovalRequest[] = [];
    const approver: Approver = {
      name: "capture",
      decide: async (req) => {
        seen.push(req);
        return { kind: "reject", by: "operator" };
      },
    };
    const w = await phaseWorld({ approver, config: (c) => (c.research.stale_evidence_days = 3) });
    const open = ok(await killSwitchPhase.run(ok(await valuePhase.run(ok(await reconcilePhase.run(ok(await preflight.run(w.ctx))))))));
    const affordable = ok(await budgetPhase.run(open));
    const result = JSON.stringify({
      success: true,
      results: [
        { evidence_id: "news:old", title: "AAA", published: "2019-12-24" },
        { evidence_id: "news:new", title: "AAA", published: "2020-01-03" },
      ],
    });
    const transcript = [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: result }] }];
    const order = { symbol: "AAA", side: "BUY" as const, quantity: 1, limit_price: 10, reason: "r", evidence_ids: ["news:old", "news:new"] };
    await decisionPhase.run({ ...affordable, proposal: { orders: [order], summary: "buy", transcript } });
    expect(seen[0]?.tradingDay).toBe("2020-01-06");
    expect(seen[0]?.evidenceAges).toEqual({
      // Before the data, Monday to Friday counts: Dec 25–27, 30, 31 and Jan 1 (6); then the sessions Jan 2, 3 and 6.
      "news:old": { evidence_id: "news:old", day: "2019-12-24", age_trading_days: 9, stale: true },
      "news:new": { evidence_id: "news:new", day: "2020-01-03", age_trading_days: 1, stale: false },
    });
  });
});
