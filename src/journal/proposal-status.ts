/**
 * What became of a proposal, read from the journal: still awaiting the operator, decided (approved,
 * rejected, kill switch) in its own run or by a later `tradewarden approve`, expired, or a hold; and
 * for each proposed order whether it reached the broker and how much of it filled. The
 * get_proposal_status tool answers with it (src/tools/handlers/proposal-status.ts).
 */
import { type Static, Type } from "@sinclair/typebox";
import { decidedBy } from "./decided.js";
import type { JournalReads } from "./journal-reads.js";
import type { RunRecord } from "./types.js";

const STATUSES = ["none", "deciding", "awaiting_approval", "approved", "rejected", "killswitch", "expired", "hold", "not_decided"] as const;

const ProposalOrderStatusSchema = Type.Object(
  {
    symbol: Type.String(),
    side: Type.String(),
    quantity: Type.Number(),
    limit_price: Type.Number(),
    /** The order reached the broker (the operator and the final gate approved it). */
    placed: Type.Boolean(),
    /** The broker order's last status (null when it was never placed). */
    order_status: Type.Union([Type.String(), Type.Null()]),
    filled_quantity: Type.Number(),
  },
  { additionalProperties: false },
);

export const ProposalStatusSchema = Type.Object(
  {
    run_id: Type.Union([Type.String(), Type.Null()], { description: "The run that recorded the proposal (null: none found)." }),
    trading_day: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union(
      STATUSES.map((s) => Type.Literal(s)),
      { description: "What became of it." },
    ),
    decided_by_run: Type.Union([Type.String(), Type.Null()], { description: "The later run that decided it (`tradewarden approve`), if any." }),
    orders: Type.Array(ProposalOrderStatusSchema),
    message: Type.String(),
  },
  { additionalProperties: false },
);
export type ProposalStatus = Static<typeof ProposalStatusSchema>;

type StatusJournal = Pick<JournalReads, "runs" | "approvals" | "proposals" | "orders">;

/** The latest run (before `excludeRunId`) that recorded a proposal with orders, or a hold. */
function latestProposing(journal: StatusJournal, excludeRunId?: string): RunRecord | undefined {
  const runs = journal.runs().filter((r) => r.run_id !== excludeRunId);
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as RunRecord;
    // A run of `approve` records the proposal it decides again: the original proposing run is the one asked about.
    if (journal.proposals(run.run_id).length > 0 && !isResumeOfEarlier(journal, runs, i)) return run;
  }
  return undefined;
}

function isResumeOfEarlier(journal: StatusJournal, runs: RunRecord[], i: number): boolean {
  const run = runs[i] as RunRecord;
  const orders = JSON.stringify(journal.proposals(run.run_id).at(-1)?.orders);
  return runs
    .slice(0, i)
    .some(
      (r) =>
        r.trading_day === run.trading_day &&
        journal.approvals(r.run_id).some((a) => a.decision === "awaiting") &&
        JSON.stringify(journal.proposals(r.run_id).at(-1)?.orders) === orders,
    );
}

function ordersOf(journal: StatusJournal, proposingRun: string, placingRun: string | null): ProposalStatus["orders"] {
  const proposal = journal.proposals(proposingRun).at(-1);
  const placed = placingRun ? journal.orders(placingRun).filter((o) => !o.liquidation) : [];
  return (proposal?.orders ?? []).map((o) => {
    const at = placed.findIndex((p) => p.symbol.toUpperCase() === o.symbol.toUpperCase() && p.side === o.side);
    const p = at >= 0 ? placed.splice(at, 1)[0] : undefined;
    return {
      symbol: o.symbol,
      side: o.side,
      quantity: o.quantity,
      limit_price: o.limit_price,
      placed: p !== undefined,
      order_status: p?.status ?? null,
      filled_quantity: p?.filled_quantity ?? 0,
    };
  });
}

/** An awaiting proposal: decided by a later run, expired (a later run completed without deciding it), or still awaiting. */
function awaitingStatus(journal: StatusJournal, run: RunRecord): ProposalStatus {
  const base = { run_id: run.run_id, trading_day: run.trading_day };
  const decided = decidedBy(journal, run.run_id);
  if (decided) {
    const status = decided.decision === "approved" || decided.decision === "rejected" || decided.decision === "killswitch" ? decided.decision : "not_decided";
    const orders = ordersOf(journal, run.run_id, decided.run_id);
    const placed = orders.filter((o) => o.placed).length;
    return {
      ...base,
      status,
      decided_by_run: decided.run_id,
      orders,
      message: `the operator decided it (${decided.decision}) in run ${decided.run_id}; ${placed} of ${orders.length} order(s) placed`,
    };
  }
  const runs = journal.runs();
  const later = runs.slice(runs.findIndex((r) => r.run_id === run.run_id) + 1);
  const orders = ordersOf(journal, run.run_id, null);
  if (later.some((r) => r.status === "completed"))
    return { ...base, status: "expired", decided_by_run: null, orders, message: "it expired undecided: a later run came after it; nothing was placed" };
  return {
    ...base,
    status: "awaiting_approval",
    decided_by_run: null,
    orders,
    message: `awaiting the operator: nothing is placed unless the operator approves it (\`tradewarden approve ${run.run_id} --yes\` or tradewarden's console) before the session of ${run.trading_day} ends`,
  };
}

/** What became of run `runId`'s proposal (default: the latest one recorded, `excludeRunId` aside). */
export function proposalStatus(journal: StatusJournal, runId?: string, excludeRunId?: string): ProposalStatus {
  const run = runId ? journal.runs().find((r) => r.run_id === runId) : latestProposing(journal, excludeRunId);
  const none = { run_id: runId ?? null, trading_day: null, status: "none" as const, decided_by_run: null, orders: [] };
  if (!run) return { ...none, message: runId ? `run ${runId} is not in the journal` : "no proposal has been recorded yet" };
  const base = { run_id: run.run_id, trading_day: run.trading_day };
  const proposal = journal.proposals(run.run_id).at(-1);
  if (!proposal) return { ...none, ...base, message: `run ${run.run_id} recorded no proposal (${run.outcome ?? run.status})` };
  if (proposal.orders.length === 0) return { ...base, status: "hold", decided_by_run: null, orders: [], message: "the proposal was to hold: no orders" };
  const approval = journal.approvals(run.run_id).at(-1);
  if (!approval) {
    const status = run.status === "running" ? "deciding" : "not_decided";
    return {
      ...base,
      status,
      decided_by_run: null,
      orders: ordersOf(journal, run.run_id, null),
      message: `no decision recorded (${run.outcome ?? run.status})`,
    };
  }
  if (approval.decision === "awaiting") return awaitingStatus(journal, run);
  const status = approval.decision === "approved" || approval.decision === "rejected" || approval.decision === "killswitch" ? approval.decision : "not_decided";
  const orders = ordersOf(journal, run.run_id, run.run_id);
  return {
    ...base,
    status,
    decided_by_run: null,
    orders,
    message: `decided in its own run (${approval.decision} by ${approval.by}); ${orders.filter((o) => o.placed).length} of ${orders.length} order(s) placed`,
  };
}
