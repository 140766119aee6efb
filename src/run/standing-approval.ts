/**
 * The operator's decision on standing orders. An approval binds to the standing order's binding
 * hash (its trigger and the order it would place) and is recorded in the journal with who and
 * when. The run approves its own proposals only when it is unattended (`--yes`); otherwise they
 * wait for `tradewarden standing approve ID`.
 */
import { TwError } from "../core/errors.js";
import { price, quantity } from "../core/format.js";
import type { RunEventBody } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import type { Journal } from "../journal/journal.js";
import type { StandingOrder } from "../journal/standing-orders.js";
import type { Approver, StandingDecision } from "./approval.js";

export function describeStanding(o: StandingOrder): string {
  return `${o.id}: ${o.type} ${o.symbol} at ${price(o.trigger_price)} → ${o.side} ${quantity(o.quantity)} @ ${price(o.limit_price)}, armed through ${o.expires_on}`;
}

export async function approveProposedStanding(args: {
  journal: Journal;
  runId: string;
  approver: Approver;
  emit: (e: RunEventBody) => void;
  now: () => Date;
  signal?: AbortSignal;
}): Promise<void> {
  const proposed = [...args.journal.standingState().orders.values()].filter((o) => o.status === "proposed" && o.proposed_run === args.runId);
  if (proposed.length === 0) return;
  const auto = args.approver.standingApprover;
  if (!auto && !args.approver.decideStanding) {
    for (const o of proposed) {
      args.emit({
        type: "run.note",
        level: "info",
        message: `standing order ${describeStanding(o)}: awaiting approval (tradewarden standing approve ${o.id})`,
      });
    }
    return;
  }
  const decision: StandingDecision = auto
    ? { by: auto, approved: proposed.map((o) => o.id), rejected: [] }
    : await (args.approver.decideStanding as NonNullable<Approver["decideStanding"]>)({
        runId: args.runId,
        orders: proposed,
        ...(args.signal ? { signal: args.signal } : {}),
      });
  const byId = new Map(proposed.map((o) => [o.id, o]));
  const approved = decision.approved.flatMap((id) => byId.get(id) ?? []);
  const rejected = decision.rejected.filter((r) => byId.has(r.id) && !decision.approved.includes(r.id));
  const at = args.now().toISOString();
  if (approved.length + rejected.length > 0) {
    await args.journal.commitStanding(() => ({
      events: [
        // The approval binds to the trigger and the order it would place, as shown.
        ...approved.map((o) => ({ kind: "approve" as const, id: o.id, by: decision.by, at, binding_hash: o.binding_hash })),
        ...rejected.map((r) => ({ kind: "end" as const, id: r.id, status: "rejected" as const, by: decision.by, at, reason: r.reason })),
      ],
      result: null,
    }));
  }
  for (const o of approved) args.emit({ type: "run.note", level: "info", message: `standing order ${describeStanding(o)}: approved by ${decision.by}` });
  for (const r of rejected)
    args.emit({ type: "run.note", level: "info", message: `standing order ${r.id}: rejected by ${decision.by}${r.reason ? `: ${r.reason}` : ""}` });
  for (const o of proposed) {
    if (!approved.includes(o) && !rejected.some((r) => r.id === o.id)) {
      args.emit({
        type: "run.note",
        level: "info",
        message: `standing order ${describeStanding(o)}: awaiting approval (tradewarden standing approve ${o.id})`,
      });
    }
  }
}

/** The operator's approval or rejection of one proposed standing order (the `standing` command). */
export async function decideStanding(
  journal: Journal,
  args: { id: string; decision: "approve" | "reject"; by: string; reason?: string; at: Date },
): Promise<StandingOrder> {
  return journal
    .commitStanding((s) => {
      const o = s.orders.get(args.id);
      if (!o) throw new TwError("standing_order_not_found", `no standing order ${args.id}`, EXIT.USAGE_OR_CONFIG);
      if (o.status !== "proposed") throw new TwError("standing_order_not_proposed", `${args.id} is ${o.status}, not awaiting approval`, EXIT.USAGE_OR_CONFIG);
      const at = args.at.toISOString();
      const events =
        args.decision === "approve"
          ? [{ kind: "approve" as const, id: o.id, by: args.by, at, binding_hash: o.binding_hash, ...(args.reason ? { note: args.reason } : {}) }]
          : [{ kind: "end" as const, id: o.id, status: "rejected" as const, by: args.by, at, reason: args.reason ?? "rejected by the operator" }];
      return { events, result: o.id };
    })
    .then((id) => ({ ...(journal.standingState().orders.get(id) as StandingOrder) }));
}
