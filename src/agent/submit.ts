/**
 * The `submit_orders` handler: the run's final call. The contract layer has already validated the
 * arguments, checked the evidence ids and the pending corrections; this handler applies the single
 * bounce. If any order is blocked by the gate's dry run and the one revision is unused, nothing is
 * accepted and the model gets every verdict (`orders_blocked`, retryable). After the revision the
 * proposal is accepted as is: the final gate, on fresh state, drops the blocked orders. An empty list
 * is a hold.
 */
import type { ProposedOrder } from "../core/domain.js";
import { hasOrderIntentType } from "../core/order-intent.js";
import type { GateDecision } from "../core/gate-types.js";
import type { HandlerResult, ToolHandler } from "../core/tool-handler.js";

interface AcceptedProposal {
  orders: ProposedOrder[];
  summary: string;
  /** Pending error codes the model abandoned, with its explanation. */
  abandoned: string[];
  abandon_explanation?: string;
  /** The gate's dry-run verdicts at submission (empty for a hold). */
  decisions: GateDecision[];
  /** True when the single revision had been used before this submission. */
  revised: boolean;
}

export interface SubmitState {
  revisionUsed: boolean;
  /** Verdicts of the latest submit attempt (bounced or accepted). */
  lastDecisions: GateDecision[];
  accepted: AcceptedProposal | null;
}

export interface SubmitHandlerOptions {
  /** The gate's dry run on the current state (pure). */
  evaluateOrders: (orders: ProposedOrder[]) => GateDecision[];
  onAccepted?: (proposal: AcceptedProposal) => void;
  onBounced?: (decisions: GateDecision[]) => void;
  /** When set (watch mode), a non-empty order list is refused with this explanation. */
  ordersRefused?: string;
}

export type SubmitHandler = ToolHandler & { readonly state: SubmitState };

/**
 * A decision as the model sees it in the bounce (the same flat shape check_orders returns). The
 * model-facing results of tw-tools/1 and /2 carry no index (recorded results replay unchanged);
 * the run's events get the typed decisions, index included, as the handler's `verdicts`.
 */
function flattenDecision(d: GateDecision): Record<string, unknown> {
  return {
    symbol: d.order.symbol,
    side: d.order.side,
    quantity: d.order.quantity,
    limit_price: d.order.limit_price,
    approved: d.approved,
    reasons: d.reasons.map((r) => ({ code: r.code, message: r.message })),
    notional: d.notional,
    commission: d.commission,
  };
}

/** The proposal's orders (none when absent), or null when an item is not an order intent. */
function ordersOf(args: Record<string, unknown>): ProposedOrder[] | null {
  const list: unknown = args.orders ?? [];
  if (!Array.isArray(list)) return [];
  const orders = list.filter(hasOrderIntentType);
  return orders.length === list.length ? orders : null;
}

/** The pending error codes the model abandons (none when absent). */
function abandonedOf(args: Record<string, unknown>): string[] {
  const codes: unknown = args.abandon_error_codes;
  return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
}

export function makeSubmitHandler(opts: SubmitHandlerOptions): SubmitHandler {
  const state: SubmitState = { revisionUsed: false, lastDecisions: [], accepted: null };
  const handler = (args: Record<string, unknown>): HandlerResult => {
    if (state.accepted) {
      return { ok: false, code: "already_submitted", message: "submit_orders already succeeded in this run." };
    }
    // The tool contract has validated the arguments; this narrows them to their type.
    const orders = ordersOf(args);
    if (orders === null)
      return {
        ok: false,
        code: "invalid_tool_arguments",
        message: "every item of `orders` must be an order (symbol, side, quantity, limit_price, reason, evidence_ids)",
      };
    if (opts.ordersRefused && orders.length > 0) return { ok: false, code: "not_allowed_in_mode", message: opts.ordersRefused };
    const summary = String(args.summary ?? "");
    const abandoned = abandonedOf(args);
    const decisions = orders.length > 0 ? opts.evaluateOrders(orders) : [];
    state.lastDecisions = decisions;
    const blocked = decisions.filter((d) => !d.approved);
    if (blocked.length > 0 && !state.revisionUsed) {
      state.revisionUsed = true;
      opts.onBounced?.(decisions);
      const list = blocked.map((d) => `${d.order.side} ${d.order.quantity} ${d.order.symbol}: ${d.reasons.map((r) => r.message).join("; ")}`).join(" | ");
      return {
        ok: false,
        code: "orders_blocked",
        message: `The risk gate blocked ${blocked.length} of ${orders.length} orders; nothing was submitted. Blocked: ${list}`,
        details: { decisions: decisions.map(flattenDecision), revision_left: false },
        verdicts: decisions,
      };
    }
    const proposal: AcceptedProposal = {
      orders,
      summary,
      abandoned,
      decisions,
      revised: state.revisionUsed,
    };
    if (typeof args.abandon_explanation === "string") proposal.abandon_explanation = args.abandon_explanation;
    state.accepted = proposal;
    opts.onAccepted?.(proposal);
    const approved = decisions.filter((d) => d.approved).length;
    return {
      ok: true,
      verdicts: decisions,
      data: {
        accepted_orders: orders.length,
        hold: orders.length === 0,
        approved_by_dry_run: approved,
        will_be_dropped: blocked.length,
        message:
          orders.length === 0
            ? "Hold recorded. The run ends."
            : blocked.length > 0
              ? `Proposal recorded; ${blocked.length} blocked order(s) will be dropped by the final gate. The run ends.`
              : "Proposal recorded for the final gate and the operator. The run ends.",
      },
    };
  };
  return Object.assign(handler, { state });
}
