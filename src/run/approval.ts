/**
 * The operator decision. The pipeline asks an `Approver`; front ends implement it: the console (a
 * promise resolved by keystrokes), `--yes` (approves exactly the gate-approved orders), and the
 * non-interactive default (nothing placed, the proposal recorded as awaiting approval).
 * An approval names the orders it approves; the pipeline (never the approver) computes the hash
 * that binds the record to them, and the hash of what it hands the executor.
 */
import type { StandingOrder } from "../journal/standing-orders.js";
import { createHash } from "node:crypto";
import type { PortfolioView, ProposedOrder } from "../core/domain.js";
import type { EvidenceAge } from "../core/evidence-age.js";
import { decisionFor, type GateDecision } from "../core/gate-types.js";
import { orderKey } from "../core/order.js";

export interface ApprovalRequest {
  runId: string;
  summary: string;
  orders: ProposedOrder[];
  /** The gate's verdicts on `orders`: each names the order it answers by `index` (look them up with `decisionFor`). */
  decisions: GateDecision[];
  /** Re-gate an edited batch against the same state (pure; for edit flows). Each verdict names its input order by `index`. */
  regate(orders: ProposedOrder[]): GateDecision[];
  signal?: AbortSignal;
  /** Portfolio value before the orders, in the base currency (for "share of portfolio after"). */
  portfolioValue?: number;
  /** Reference price per symbol (upper case), in the instrument's currency. */
  referencePrices?: Record<string, number>;
  /** Current position value per symbol (upper case), in the base currency. */
  positionValues?: Record<string, number>;
  /** The base currency, for display. */
  baseCurrency?: string;
  /** The session the proposal belongs to (shown beside times). */
  tradingDay?: string;
  /** Holdings, cash and the previous run's fills, for display. */
  portfolio?: PortfolioView;
  /** Price tick per symbol (upper case), for display decimals. */
  ticks?: Record<string, number>;
  /** The evidence items the orders may cite, by id (what the tools returned). */
  evidence?: Record<string, unknown>;
  /** Each dated evidence item's age in trading days on `tradingDay`, and whether it is stale (src/core/evidence-age.ts). */
  evidenceAges?: Record<string, EvidenceAge>;
}

export type ApprovalDecision =
  | { kind: "approve"; orders: ProposedOrder[]; by: "operator" | "auto"; note?: string }
  | { kind: "reject"; reason?: string; by: "operator" }
  | { kind: "killswitch"; reason: string; by: "operator" }
  | { kind: "awaiting"; reason: string };

export interface Approver {
  readonly name: string;
  decide(req: ApprovalRequest): Promise<ApprovalDecision>;
  /**
   * Who approves the run's proposed standing orders on the spot, if anyone (the unattended `--yes`
   * approver). Others leave them proposed for `tradewarden standing approve`.
   */
  readonly standingApprover?: string;
  /**
   * The operator's decision on the standing orders the run's model proposed (the console asks it on
   * screen). An id in neither list stays proposed, for `tradewarden standing approve` later.
   */
  decideStanding?(req: StandingApprovalRequest): Promise<StandingDecision>;
}

/** Standing orders proposed in this run, for the operator to approve or reject. */
export interface StandingApprovalRequest {
  runId: string;
  orders: readonly StandingOrder[];
  signal?: AbortSignal;
}

export interface StandingDecision {
  by: string;
  approved: string[];
  rejected: { id: string; reason: string }[];
}

/** The fields an approval binds to (reason and evidence do not change what is sent): the order's identity. */
type Bound = Parameters<typeof orderKey>[0];

function canonicalOrders(orders: readonly Bound[]): string {
  return JSON.stringify(orders.map(orderKey));
}

export function ordersHash(orders: readonly Bound[]): string {
  return createHash("sha256").update(canonicalOrders(orders)).digest("hex");
}

/** `--yes`: approves exactly the orders the gate approves, nothing else. */
export class AutoApprover implements Approver {
  readonly name = "auto";
  readonly standingApprover = "auto (--yes)";
  async decide(req: ApprovalRequest): Promise<ApprovalDecision> {
    const approved = req.orders.filter((_, i) => decisionFor(req.decisions, i)?.approved === true);
    return { kind: "approve", orders: approved, by: "auto" };
  }
}

/** No terminal and no `--yes`: nothing is placed; the proposal waits for a person. */
export class NonInteractiveApprover implements Approver {
  readonly name = "none";
  async decide(): Promise<ApprovalDecision> {
    return {
      kind: "awaiting",
      reason: "no terminal to ask an operator and --yes was not given; nothing was placed",
    };
  }
}

/**
 * What an operator may do to a proposal: drop orders, shrink quantities, adjust limits. An approval
 * that adds an order, changes a side or grows a quantity is refused (returns the problem), whatever
 * front end produced it.
 */
export function approvalOutsideProposal(proposed: readonly ProposedOrder[], approved: readonly ProposedOrder[]): string | null {
  const pool = [...proposed];
  for (const o of approved) {
    const i = pool.findIndex((p) => p.symbol.toUpperCase() === o.symbol.toUpperCase() && p.side === o.side);
    const p = i >= 0 ? pool.splice(i, 1)[0] : undefined;
    if (!p) return `${o.side} ${o.symbol} was not proposed`;
    if (o.quantity > p.quantity) return `${o.side} ${o.symbol}: quantity ${o.quantity} is more than the ${p.quantity} proposed`;
  }
  return null;
}
