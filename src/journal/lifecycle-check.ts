/**
 * The order lifecycle checked over a whole log on open: every recorded status change must be a
 * legal step of core/order-lifecycle.ts, so a log that skips one (an edited or forged line, a
 * writer that bypassed the journal) is refused naming its line, as the writer would have refused
 * the change itself. An intent is recorded with status `intent`.
 *
 * The one step outside the broker's lifecycle is an operator's adoption (`tradewarden reconcile`):
 * its `order_update` to `rejected` is committed together with, and immediately followed by, the
 * `adjustment` of kind `order` naming the same order (src/journal/adjust.ts).
 */
import { ADOPTED_STATUS, ILLEGAL_ORDER_TRANSITION, transition, type TransitionCause } from "../core/order-lifecycle.js";
import type { JournalEvent } from "./types.js";

/** Why the log breaks the order lifecycle (its first such line), or null. */
export function lifecycleIssue(events: readonly JournalEvent[]): string | null {
  const status = new Map<string, string>();
  for (let i = 0; i < events.length; i++) {
    const ev = events[i] as JournalEvent;
    if (ev.t === "order_intent") {
      if (ev.order.status !== "intent") {
        return `event log line ${ev.seq}: ${ILLEGAL_ORDER_TRANSITION}: order ${ev.order.client_order_id}'s intent is recorded as ${ev.order.status}: an order starts as intent`;
      }
      status.set(ev.order.client_order_id, ev.order.status);
    } else if (ev.t === "import_order") {
      status.set(ev.order.client_order_id, ev.order.status);
    } else if (ev.t === "order_update") {
      const from = status.get(ev.client_order_id);
      if (from === undefined) continue; // an update of no known order changes nothing (the fold ignores it)
      const step = transition(ev.client_order_id, from, ev.entry.status, causeOf(ev, events[i + 1]));
      if (!step.ok) return `event log line ${ev.seq}: ${step.error.code}: ${step.error.message}`;
      status.set(ev.client_order_id, ev.entry.status);
    }
  }
  return null;
}

function causeOf(update: Extract<JournalEvent, { t: "order_update" }>, next: JournalEvent | undefined): TransitionCause {
  const adopted =
    update.entry.status === ADOPTED_STATUS &&
    next?.t === "adjustment" &&
    next.adjustment.kind === "order" &&
    next.adjustment.client_order_id === update.client_order_id;
  return adopted ? "adoption" : "lifecycle";
}
