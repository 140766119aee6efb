/**
 * `tradewarden standing [--json]`, `tradewarden standing approve ID --yes [--who NAME]` and
 * `tradewarden standing reject ID [--reason TEXT]`: the operator's view of standing orders and the
 * approval that arms one (recorded in the journal, bound to its trigger and order).
 */
import { userInfo } from "node:os";
import { price, wallClock } from "../core/format.js";
import { EXIT } from "../core/exit-codes.js";
import { acquireLock } from "../journal/lock.js";
import { openJournal } from "../journal/journal.js";
import { noticeTo } from "../journal/load.js";
import { describeStanding, decideStanding } from "../run/standing-approval.js";
import { reportError } from "./init.js";
import type { CommandIO } from "./io.js";

export async function cmdStandingList(args: { home: string; json: boolean }, io: CommandIO): Promise<number> {
  try {
    const journal = await openJournal(args.home, { timezone: "UTC", readOnly: true, notice: noticeTo(io.stderr) });
    const all = [...journal.standingState().orders.values()];
    if (args.json) {
      io.stdout(`${JSON.stringify({ standing_orders: all })}\n`);
      return EXIT.OK;
    }
    if (all.length === 0) io.stdout("no standing orders\n");
    for (const o of all) {
      const extra = o.approval
        ? ` (approved by ${o.approval.by} for trading day ${o.proposed_day} on, at ${wallClock(o.approval.at)})`
        : o.fired
          ? ` (fired on trading day ${o.fired.trading_day} at ${price(o.fired.reference_price)})`
          : "";
      io.stdout(`${o.status.padEnd(9)} ${describeStanding(o)}${extra}\n`);
    }
    return EXIT.OK;
  } catch (e) {
    return reportError(e, io);
  }
}

export async function cmdStandingDecide(
  args: { home: string; id: string; decision: "approve" | "reject"; yes: boolean; who?: string; reason?: string },
  io: CommandIO,
): Promise<number> {
  if (args.decision === "approve" && !args.yes) {
    io.stderr(`tradewarden standing approve: approving arms ${args.id} to place an order on a later run; confirm with --yes\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  let lock: { release(): Promise<void> } | undefined;
  try {
    lock = await acquireLock(args.home, "standing");
    const journal = await openJournal(args.home, { timezone: "UTC", notice: noticeTo(io.stderr) });
    const by = args.who ?? userInfo().username;
    const o = await decideStanding(journal, { id: args.id, decision: args.decision, by, ...(args.reason ? { reason: args.reason } : {}), at: new Date() });
    io.stdout(`${o.status === "active" ? "approved (armed)" : "rejected"}: ${describeStanding(o)}; by ${by}; binds to ${o.binding_hash.slice(0, 16)}\n`);
    return EXIT.OK;
  } catch (e) {
    return reportError(e, io);
  } finally {
    await lock?.release();
  }
}
