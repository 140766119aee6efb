/**
 * What a finished run tells the operator's channels ([notify]): a proposal awaiting approval (with
 * the exact `tradewarden approve` command and when it expires), a run executed (orders sent, fills),
 * a kill-switch trip, a reconciliation failure, or a failed run (exit code and reason). A run that
 * ends otherwise (a hold, no trades, a rejection) sends nothing. Built from the run's own events;
 * sent after the run is closed, bounded by `[notify] timeout_s`, never failing the run.
 */
import type { NotifyConfig } from "../config/notify-schema.js";
import type { RunEvent } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import type { TripRecord } from "../journal/types.js";
import type { Notice } from "../notify/message.js";
import { type NotifyResult, notify } from "../notify/notify.js";
import { resolveHome } from "../util/paths.js";
import type { RunSummary } from "./phases/context.js";

export interface RunNoticeInput {
  home: string;
  env: NodeJS.ProcessEnv;
  summary: RunSummary;
  events: readonly RunEvent[];
  /** When the proposal's session closes (ISO 8601), when the broker says; null otherwise. */
  sessionCloses: string | null;
  currency: string;
}

const ofType = <T extends RunEvent["type"]>(events: readonly RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** `tradewarden approve RUN`, with `--home` when the home is not the default one. */
function approveCommand(home: string, env: NodeJS.ProcessEnv, runId: string): string {
  const quoted = /^[\w./-]+$/.test(home) ? home : `'${home.replace(/'/g, `'\\''`)}'`;
  return resolveHome(undefined, env) === home ? `tradewarden approve ${runId}` : `tradewarden --home ${quoted} approve ${runId}`;
}

function awaiting(i: RunNoticeInput): Notice {
  const { summary: s } = i;
  const decided = ofType(i.events, "approval.decided").findLast((e) => e.decision === "awaiting");
  const rule = i.sessionCloses
    ? `at the close of the ${s.tradingDay} session (${i.sessionCloses}), or sooner if another run starts`
    : `when the ${s.tradingDay} session ends (on the simulated broker: when the next run opens the next day), or sooner if another run starts`;
  return {
    event: "approval_needed",
    run_id: s.runId,
    trading_day: s.tradingDay,
    orders: (decided?.orders ?? []).map((o) => ({ symbol: o.symbol, side: o.side, quantity: o.quantity, limit_price: o.limit_price })),
    approve_command: approveCommand(i.home, i.env, s.runId),
    expires: { trading_day: s.tradingDay, at: i.sessionCloses, rule },
  };
}

function executed(i: RunNoticeInput): Notice {
  const fills = new Map<string, { symbol: string; side: "BUY" | "SELL"; quantity: number; avg_price: number }>();
  for (const e of i.events) {
    if ((e.type === "order.filled" || e.type === "order.partially_filled") && e.filled_quantity > 0) {
      fills.set(e.client_order_id, { symbol: e.symbol, side: e.side, quantity: e.filled_quantity, avg_price: e.avg_price });
    }
  }
  const s = i.summary;
  return {
    event: "executed",
    run_id: s.runId,
    trading_day: s.tradingDay,
    orders_sent: ofType(i.events, "order.placed").length,
    fills: [...fills.values()],
    message: s.message,
  };
}

/** The notice a finished run sends, or null when it ended in a way nobody needs to hear about. */
export function runNotice(i: RunNoticeInput): Notice | null {
  const s = i.summary;
  const trip = ofType(i.events, "killswitch.tripped").at(-1);
  if (s.outcome === "awaiting_approval") return awaiting(i);
  if (s.outcome === "executed" && s.exitCode === EXIT.OK) return executed(i);
  if (s.outcome === "tripped" && trip) {
    const { value, peak, drawdown_pct, reason } = trip;
    return { event: "killswitch_tripped", run_id: s.runId, by: trip.by ?? "drawdown", reason, value, peak, drawdown_pct, currency: i.currency };
  }
  if (s.outcome === "reconcile_failed") {
    const differences = ofType(i.events, "reconcile.failed").at(-1)?.differences.length ?? 0;
    return { event: "reconcile_failed", run_id: s.runId, trading_day: s.tradingDay, differences, reason: s.message };
  }
  if (s.exitCode === EXIT.OK) return null;
  return { event: "run_failed", run_id: s.runId, trading_day: s.tradingDay, outcome: s.outcome, exit_code: s.exitCode, reason: s.message };
}

/** Sends a finished run's notice (if it has one) to the channels that take it. Never throws. */
export async function notifyRunOutcome(i: RunNoticeInput & { notify: NotifyConfig }): Promise<NotifyResult | null> {
  const notice = runNotice(i);
  return notice ? notify({ home: i.home, notify: i.notify, env: i.env }, notice) : null;
}

/** Tells the channels about an operator's trip outside a run (`killswitch trip`, the kill-switch screen). Never throws. */
export function notifyTrip(t: { home: string; env: NodeJS.ProcessEnv; notify: NotifyConfig; currency: string }, trip: TripRecord): Promise<NotifyResult> {
  const { value, peak, drawdown_pct, reason, run_id } = trip;
  return notify(t, { event: "killswitch_tripped", run_id, by: "operator", reason, value, peak, drawdown_pct, currency: t.currency });
}
