/**
 * The operator's decision on standing orders. An approval binds to the standing order's binding
 * hash (its trigger and the order it would place) and is recorded in the journal with who and
 * when. The run approves its own proposals only when it is unattended (`--yes`); otherwise they
 * wait for `tradewarden standing approve ID`.
 */
import { TwError } from "../core/errors.js";
import type { RunEventBody } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import type { Journal } from "../journal/journal.js";
import type { StandingOrder } from "../journal/standing-orders.js";
import type { Approver } from "./approval.js";

export function describeStanding(o: StandingOrder): string {
  return `${o.id}: ${o.type} ${o.symbol} at ${o.trigger_price} → ${o.side} ${o.quantity} @ ${o.limit_price}, armed through ${o.expires_on}`;
}

export async function approveProposedStanding(args: {
  journal: Journal;
  runId: string;
  approver: Approver;
  emit: (e: RunEventBody) => void;
  now: () => Date;
}): Promise<void> {
  const proposed = [...args.journal.standingState().orders.values()].filter((o) => o.status === "proposed" && o.proposed_run === args.runId);
  if (proposed.length === 0) return;
  const by = args.approver.standingApprover;
  if (!by) {
    for (const o of proposed) {
      args.emit({ type: "run.note", level: "info", message: `standing order ${describeStanding(o)}: awaiting approval (tradewarden standing approve ${o.id})` });
    }
    return;
  }
  const at = args.now().toISOString();
  await args.journal.commitStanding(() => ({
    events: proposed.map((o) => ({ kind: "approve" as const, id: o.id, by, at, binding_hash: o.binding_hash })),
    result: null,
  }));
  for (const o of proposed) args.emit({ type: "run.note", level: "info", message: `standing order ${describeStanding(o)}: approved by ${by}` });
}

/** The operator's approval or rejection of one proposed standing order (the `standing` command). */
export async function decideStanding(
  journal: Journal,
  args: { id: string; decision: "approve" | "reject"; by: string; reason?: string; at: Date },
): Promise<StandingOrder> {
  return journal.commitStanding((s) => {
    const o = s.orders.get(args.id);
    if (!o) throw new TwError("standing_order_not_found", `no standing order ${args.id}`, EXIT.USAGE_OR_CONFIG);
    if (o.status !== "proposed") throw new TwError("standing_order_not_proposed", `${args.id} is ${o.status}, not awaiting approval`, EXIT.USAGE_OR_CONFIG);
    const at = args.at.toISOString();
    const events =
      args.decision === "approve"
        ? [{ kind: "approve" as const, id: o.id, by: args.by, at, binding_hash: o.binding_hash, ...(args.reason ? { note: args.reason } : {}) }]
        : [{ kind: "end" as const, id: o.id, status: "rejected" as const, by: args.by, at, reason: args.reason ?? "rejected by the operator" }];
    return { events, result: o.id };
  }).then((id) => ({ ...(journal.standingState().orders.get(id) as StandingOrder) }));
}
