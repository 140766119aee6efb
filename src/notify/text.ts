/**
 * The words of a notification: a title, a few lines and a priority for each notice, every number
 * through the one formatter (src/core/format.ts). Pure.
 */
import { money, pct, price, quantity } from "../core/format.js";
import { NOTIFY_FORMAT, type Notice, type NotifyMessage, type Priority } from "./message.js";

type Words = { title: string; lines: string[]; priority: Priority };

const order = (o: { side: string; quantity: number; symbol: string; limit_price: number }) =>
  `${o.side} ${quantity(o.quantity)} ${o.symbol} limit ${price(o.limit_price)}`;

function words(n: Notice): Words {
  switch (n.event) {
    case "approval_needed":
      return {
        title: `tradewarden: ${n.orders.length} order${n.orders.length === 1 ? "" : "s"} await your approval (${n.trading_day})`,
        lines: [
          `run ${n.run_id} proposes, nothing is placed until you approve:`,
          ...n.orders.map((o) => `  ${order(o)}`),
          `approve: ${n.approve_command}`,
          `expires: ${n.expires.rule}`,
        ],
        priority: "high",
      };
    case "executed": {
      const filled = n.fills.map((f) => `  ${f.side} ${quantity(f.quantity)} ${f.symbol} at ${price(f.avg_price)}`);
      return {
        title: `tradewarden: run executed, ${n.orders_sent} order${n.orders_sent === 1 ? "" : "s"} sent, ${n.fills.length} filled (${n.trading_day})`,
        lines: [`run ${n.run_id}: ${n.message}`, ...(filled.length > 0 ? ["fills:", ...filled] : ["no fills"])],
        priority: "default",
      };
    }
    case "killswitch_tripped":
      return {
        title: `tradewarden: KILL SWITCH TRIPPED${n.by === "operator" ? " by the operator" : ""}: trading is HALTED`,
        lines: [
          `reason: ${n.reason}`,
          `value ${money(n.value, n.currency)}, peak ${money(n.peak, n.currency)}, drawdown ${pct(n.drawdown_pct)}`,
          ...(n.run_id ? [`run ${n.run_id}`] : []),
          "the next run that can trade sells what is held; to resume: tradewarden killswitch",
        ],
        priority: "urgent",
      };
    case "reconcile_failed":
      return {
        title: `tradewarden: reconciliation failed (${n.trading_day}): nothing placed`,
        lines: [
          `run ${n.run_id}: ${n.reason}`,
          `${n.differences} difference${n.differences === 1 ? "" : "s"} between the journal and the broker; see: tradewarden reconcile`,
        ],
        priority: "high",
      };
    case "run_failed":
      return {
        title: `tradewarden: run failed with exit ${n.exit_code} (${n.outcome})`,
        lines: [`run ${n.run_id}${n.trading_day ? ` (trading day ${n.trading_day})` : ""}: ${n.reason}`, "see: tradewarden doctor, tradewarden journal"],
        priority: "high",
      };
    case "scheduler_silent":
      return {
        title: `tradewarden: the scheduler has been silent for ${quantity(n.minutes_silent)} min`,
        lines: [
          n.last_heartbeat ? `last heartbeat: ${n.last_heartbeat}` : "no heartbeat recorded yet",
          "scheduled runs may not be happening; see: tradewarden schedule status, tradewarden doctor",
        ],
        priority: "high",
      };
    case "test":
      return { title: "tradewarden: test message", lines: [`${n.reason}; this channel works`], priority: "low" };
  }
}

/** The message every channel carries: the notice with its title, text and priority, stamped `at`. */
export function messageOf(notice: Notice, at: Date): NotifyMessage {
  const w = words(notice);
  return { format: NOTIFY_FORMAT, at: at.toISOString(), title: w.title, text: w.lines.join("\n"), priority: w.priority, ...notice };
}
