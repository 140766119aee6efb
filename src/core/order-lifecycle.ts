/**
 * An order's life as the journal records it: its statuses, the steps between them as data, the one
 * set of terminal statuses, and `transition(from, to)`, the pure rule the journal applies to every
 * status change it records and to every one it reads back when it opens a log.
 *
 * The table is what the executor and recovery legitimately do (src/executor):
 * - `intent` is written before the send and only then (never a later status).
 * - From `intent` (or `uncertain`, a send whose outcome is unknown) the order becomes whatever the
 *   broker reports, `rejected` when it never arrived, `uncertain` while the send may still be on
 *   its way, or `working_after_cancel` when recovery finds it working and its cancel fails.
 * - A working order (`accepted`, `partially_filled`) fills, is cancelled, expires, is rejected, or
 *   is still working after the cancel (`working_after_cancel`); a fill never goes back to none.
 * - `working_after_cancel` is settled by the next run's recovery as the broker reports it.
 * - A terminal status has no step out: the broker has finished with the order. Recording the same
 *   status again (recovery booking a filled order's late fills, a new message) is not a step.
 *
 * One step outside the broker's lifecycle: an operator adopting the broker's side of an order the
 * broker does not know (`tradewarden reconcile`, an `adjustment` of kind `order`) settles it as
 * `rejected` from whatever status the journal had.
 */
import { type Static, Type } from "@sinclair/typebox";
import { TwError } from "./errors.js";

export const OrderStatusSchema = Type.Union([
  Type.Literal("intent", { description: "written to the journal, not yet sent" }),
  Type.Literal("accepted", { description: "the broker has it" }),
  Type.Literal("partially_filled"),
  Type.Literal("filled"),
  Type.Literal("cancelled"),
  Type.Literal("expired"),
  Type.Literal("rejected"),
  Type.Literal("uncertain", { description: "the send's outcome is unknown (timeout); resolved by client-id lookup, never by resending" }),
  Type.Literal("working_after_cancel", { description: "still working after a cancel: the next run's reconciliation stops on it" }),
]);

/** An order's life, as the journal records it and the executor reports it. */
export type OrderStatus = Static<typeof OrderStatusSchema>;

export const ORDER_STATUSES: readonly OrderStatus[] = OrderStatusSchema.anyOf.map((s) => s.const);

/** The broker has finished with the order: no step leads out of these. */
export const TERMINAL_ORDER_STATUSES: ReadonlySet<OrderStatus> = new Set<OrderStatus>(["filled", "cancelled", "expired", "rejected"]);

/** Whether a status (an order's, or the broker's own, e.g. `pending_cancel`) is terminal. */
export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_ORDER_STATUSES as ReadonlySet<string>).has(status);
}

const SETTLED: readonly OrderStatus[] = ["filled", "cancelled", "expired", "rejected"];

/** The legal steps: from each status, the statuses it may become (a repeat of the same status is not a step). */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  intent: ["accepted", "partially_filled", ...SETTLED, "uncertain", "working_after_cancel"],
  uncertain: ["accepted", "partially_filled", ...SETTLED, "working_after_cancel"],
  accepted: ["partially_filled", ...SETTLED, "working_after_cancel"],
  partially_filled: [...SETTLED, "working_after_cancel"],
  working_after_cancel: [...SETTLED],
  filled: [],
  cancelled: [],
  expired: [],
  rejected: [],
};

/** The status an operator's adoption of the broker's side settles an order as. */
export const ADOPTED_STATUS: OrderStatus = "rejected";

/** Who makes the change: the order's life at the broker (executor, recovery), or an operator's adoption. */
export type TransitionCause = "lifecycle" | "adoption";

export const ILLEGAL_ORDER_TRANSITION = "illegal_order_transition";

export type TransitionResult = { ok: true; from: OrderStatus; to: OrderStatus } | { ok: false; error: TwError };

function isStatus(s: string): s is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(s);
}

/**
 * Whether order `order` may go from `from` to `to`. Never throws: an illegal step is an error value
 * with the stable code `illegal_order_transition` naming the order, `from` and `to`.
 */
export function transition(order: string, from: string, to: string, cause: TransitionCause = "lifecycle"): TransitionResult {
  const illegal = (why: string): TransitionResult => ({
    ok: false,
    error: new TwError(ILLEGAL_ORDER_TRANSITION, `order ${order} cannot go from ${from} to ${to}: ${why}`, undefined, { order, from, to }),
  });
  if (!isStatus(from)) return illegal(`${from} is not an order status`);
  if (!isStatus(to)) return illegal(`${to} is not an order status`);
  if (to === "intent") return illegal("an intent is recorded once, before the send");
  if (from === to) return { ok: true, from, to };
  if (cause === "adoption" && to === ADOPTED_STATUS) return { ok: true, from, to };
  if (ORDER_TRANSITIONS[from].includes(to)) return { ok: true, from, to };
  if (TERMINAL_ORDER_STATUSES.has(from)) return illegal(`${from} is terminal (the broker has finished with it)`);
  return illegal(`the lifecycle goes from ${from} only to ${ORDER_TRANSITIONS[from].join(", ")}`);
}
