/**
 * Decision: the proposal is recorded with the gate's verdicts; observe mode stops here; otherwise
 * the operator (an `Approver`) decides. The pipeline computes the hash that binds the approval
 * record to the orders approved; an approval that goes beyond the proposal is refused.
 */
import { TwError } from "../../core/errors.js";
import { EXIT } from "../../core/exit-codes.js";
import { type GateDecision, inInputOrder } from "../../core/gate-types.js";
import { type ApprovalDecision, approvalOutsideProposal, ordersHash } from "../approval.js";
import { agesById, evidenceFromTranscript } from "../evidence.js";
import { portfolioView } from "../portfolio.js";
import { type Decided, type Phase, type Proposed, Stop } from "./context.js";
import { evaluateOrders, gateInputs } from "./gate.js";
import { trip } from "./killswitch.js";

export const decisionPhase: Phase<Proposed, Decided> = {
  name: "decision",
  async run(ctx) {
    const { deps } = ctx;
    const { journal, sink, signal } = deps;
    const { proposal } = ctx;
    // The agent loop has emitted the `proposal` event; these verdicts, on the state now, are for the operator.
    // Each names its order by input index; the journal records them in input order, as it always has.
    const decisions = proposal.orders.length > 0 ? inInputOrder(evaluateOrders(ctx, proposal.orders), proposal.orders.length) : [];
    await journal.recordProposal(ctx.runId, { orders: proposal.orders, summary: proposal.summary, decisions, at: ctx.now() });
    if (deps.mode === "watch") return new Stop("observed", EXIT.OK, "watch mode: research and watchlist recorded; nothing placed");
    if (proposal.orders.length === 0) return new Stop("hold", EXIT.OK, "the model proposed to hold");
    if (deps.mode === "observe") {
      sink.emit({ type: "approval.decided", decision: "none", by: "none", orders: [], orders_hash: ordersHash([]), reason: "observe mode places nothing" });
      return new Stop("observed", EXIT.OK, "observe mode: proposal recorded, nothing placed");
    }

    const hash = ordersHash(proposal.orders);
    sink.emit({
      type: "approval.requested",
      orders_hash: hash,
      approvable: decisions.filter((d) => d.approved).length,
      blocked: decisions.filter((d) => !d.approved).length,
    });
    const decision = await askOperator(ctx, decisions);
    if (signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted before execution; nothing placed");
    if (decision.kind !== "approve") return recordRefusal(ctx, decision, hash);
    const outside = approvalOutsideProposal(proposal.orders, decision.orders);
    if (outside) throw new TwError("approval_mismatch", `the approval goes beyond the proposal (${outside}); nothing placed`, EXIT.INTERNAL_ERROR);
    const approvedHash = ordersHash(decision.orders);
    sink.emit({
      type: "approval.decided",
      decision: "approved",
      by: decision.by,
      orders: decision.orders,
      orders_hash: approvedHash,
      ...(decision.note ? { reason: decision.note } : {}),
    });
    await journal.recordApproval(ctx.runId, { decision: "approved", by: decision.by, orders_hash: approvedHash, orders: decision.orders, at: ctx.now() });
    if (decision.orders.length === 0) return new Stop("no_trades", EXIT.OK, "no order was approved");
    return { ...ctx, approved: decision.orders };
  },
};

/** The operator's decision on the proposal: the approver is shown the verdicts, the prices and the portfolio. */
async function askOperator(ctx: Proposed, decisions: GateDecision[]): Promise<ApprovalDecision> {
  const { deps, proposal } = ctx;
  const { journal, config, signal } = deps;
  const snapshot = gateInputs(ctx);
  const evidence = evidenceFromTranscript(proposal.transcript);
  const positionValues: Record<string, number> = {};
  for (const [symbol, h] of Object.entries(snapshot.state.holdings)) {
    const q = snapshot.market[symbol];
    if (q) positionValues[symbol] = h.quantity * q.price * (q.fx_to_base ?? 1);
  }
  return deps.approver.decide({
    runId: ctx.runId,
    summary: proposal.summary,
    orders: proposal.orders,
    decisions,
    regate: (orders) => evaluateOrders(ctx, orders),
    signal,
    portfolioValue: ctx.value,
    referencePrices: Object.fromEntries(Object.entries(snapshot.market).map(([s, q]) => [s, q.price])),
    positionValues,
    baseCurrency: config.account.base_currency,
    tradingDay: ctx.tradingDay,
    portfolio: portfolioView(journal, ctx.prices, { currency: config.account.base_currency, currentRunId: ctx.runId }),
    ticks: Object.fromEntries(deps.universe.filter((i) => i.tick !== undefined).map((i) => [i.symbol.toUpperCase(), i.tick as number])),
    evidence,
    evidenceAges: agesById(evidence, deps.market.calendar, ctx.tradingDay, config.research.stale_evidence_days),
  });
}

/** A decision other than approve (awaiting, reject, kill switch): recorded, and the run stops with it. */
async function recordRefusal(ctx: Proposed, decision: Exclude<ApprovalDecision, { kind: "approve" }>, hash: string): Promise<Stop> {
  const { sink, journal } = ctx.deps;
  const { proposal } = ctx;
  const at = ctx.now();
  switch (decision.kind) {
    case "awaiting":
      sink.emit({ type: "approval.decided", decision: "awaiting", by: "none", orders: proposal.orders, orders_hash: hash, reason: decision.reason });
      await journal.recordApproval(ctx.runId, { decision: "awaiting", by: "none", orders_hash: hash, reason: decision.reason, orders: proposal.orders, at });
      return new Stop(
        "awaiting_approval",
        EXIT.APPROVAL_REQUIRED,
        `approval required: the proposal is recorded as awaiting approval; nothing placed; decide it with \`tradewarden approve\` before the session of ${ctx.tradingDay} ends`,
      );
    case "reject":
      sink.emit({
        type: "approval.decided",
        decision: "rejected",
        by: "operator",
        orders: [],
        orders_hash: hash,
        ...(decision.reason ? { reason: decision.reason } : {}),
      });
      await journal.recordApproval(ctx.runId, {
        decision: "rejected",
        by: "operator",
        orders_hash: hash,
        ...(decision.reason ? { reason: decision.reason } : {}),
        at,
      });
      return new Stop("rejected", EXIT.OK, `the operator rejected the proposal${decision.reason ? `: ${decision.reason}` : ""}`);
    case "killswitch":
      sink.emit({ type: "approval.decided", decision: "killswitch", by: "operator", orders: [], orders_hash: hash, reason: decision.reason });
      await journal.recordApproval(ctx.runId, { decision: "killswitch", by: "operator", orders_hash: hash, reason: decision.reason, at });
      await trip(ctx, decision.reason, true, "operator");
      return new Stop("tripped", EXIT.HALTED_OR_TRIPPED, "the operator tripped the kill switch");
  }
}
