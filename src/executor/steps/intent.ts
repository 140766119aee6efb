/**
 * Step 1, intent: the order is written to the journal under its client order id before it is
 * sent. An order whose intent cannot be written is never sent, and neither is any order after it
 * (the journal is broken: the reason is carried on).
 */
import { faultPoint } from "../../util/test-fault.js";
import { type ExecContext, iso, note, type OrderEntry } from "./context.js";

/** Records the intent; the journal's error message when it could not (the order is then not sent). */
export async function recordIntent(ctx: ExecContext, e: OrderEntry, runId: string): Promise<string | undefined> {
  try {
    await ctx.journal.recordOrderIntent({ ...e.order, run_id: runId, index: e.res.index, at: iso(ctx) });
    e.res.status = "intent";
    faultPoint("executor.after_intent");
    return undefined;
  } catch (err) {
    const broken = (err as Error).message;
    notSent(e, broken);
    note(ctx, `${e.res.client_order_id} not sent: the journal could not record the intent (${broken})`);
    return broken;
  }
}

/** The journal could not record an intent (this order's or an earlier one's): the order is not sent. */
export function notSent(e: OrderEntry, journalError: string): void {
  e.res.error_code = "journal_write_failed";
  e.res.message = `not sent: the journal could not record the intent (${journalError})`;
  e.done = true;
}

/** Interrupted before its send: the order is not sent. */
export function interrupted(e: OrderEntry): void {
  e.res.message = "interrupted before sending";
  e.done = true;
}
