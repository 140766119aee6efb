/**
 * The executor: each order through its steps (src/executor/steps/, each a function testable alone).
 *
 * - intent: the client order id (`tw-<runId>-<index>`) is written to the journal before the send.
 * - send: an order is never sent twice. An uncertain send (timeout, dropped connection) is resolved
 *   by looking the client id up; a duplicate-id refusal means "already sent": look it up.
 * - wait: up to `wait_s` for terminal states (polling every `poll_ms`);
 * - cancel: what is still working; a cancel that finds the order filled returns the filled state.
 * - settle: waits (bounded by `settle_s`) for the fills to add up to the filled quantity; only
 *   fills the broker reports are booked.
 * - finish: the final state and outcome event of each order. An order still working after the
 *   cancel is recorded as `working_after_cancel` (the next run's reconciliation stops on it).
 * Every outcome is an event; every status the journal records is a legal step of the order
 * lifecycle (core/order-lifecycle.ts).
 */
import { createHash } from "node:crypto";
import { cancelWorking } from "./steps/cancel.js";
import { executionContext, newEntry, sellsFirst } from "./steps/context.js";
import { finish } from "./steps/finish.js";
import { interrupted, notSent, recordIntent } from "./steps/intent.js";
import { send } from "./steps/send.js";
import { settleFills } from "./steps/settle.js";
import { waitForEnd } from "./steps/wait.js";
import type { ExecuteOptions, ExecuteResult } from "./types.js";

const MAX_CLIENT_ID = 128;

/**
 * `tw-<runId>-<index>` (kill-switch liquidation: `tw-<runId>-L<index>`, so a run that liquidates and
 * then trades never reuses an id); a run id too long for the broker's 128 characters is replaced
 * by its hash.
 */
export function clientOrderId(runId: string, index: number, opts: { liquidation?: boolean; standing?: boolean } = {}): string {
  const suffix = `${opts.liquidation ? "L" : opts.standing ? "S" : ""}${index}`;
  const id = `tw-${runId}-${suffix}`;
  if (id.length <= MAX_CLIENT_ID) return id;
  return `tw-h${createHash("sha256").update(runId).digest("hex").slice(0, 40)}-${suffix}`;
}

/**
 * Places the orders and follows each through its steps (src/executor/steps): intent → send, one
 * order at a time, sells first; then wait → cancel → settle over the orders sent; then finish each.
 */
export async function execute(opts: ExecuteOptions): Promise<ExecuteResult> {
  const ctx = executionContext(opts);
  const first = opts.firstIndex ?? 0;
  const entries = opts.orders.map((placed, i) =>
    newEntry(placed, first + i, clientOrderId(opts.runId, first + i, { liquidation: placed.liquidation, standing: opts.standing === true })),
  );
  let journalBroken: string | undefined;
  for (const e of sellsFirst(entries)) {
    if (ctx.signal?.aborted) interrupted(e);
    else if (journalBroken !== undefined) notSent(e, journalBroken);
    else {
      journalBroken = await recordIntent(ctx, e, opts.runId);
      if (journalBroken === undefined) await send(ctx, e);
    }
  }
  await waitForEnd(ctx, entries);
  await cancelWorking(ctx, entries);
  await settleFills(ctx, entries);
  for (const e of entries) await finish(ctx, e);
  return { results: entries.map((e) => e.res), problems: ctx.problems, journal_errors: ctx.journalErrors };
}
