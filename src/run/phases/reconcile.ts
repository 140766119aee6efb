/**
 * Recovery, then reconcile: orders of earlier runs whose outcome is not final are looked up by
 * client order id and settled (./recover-reconcile.ts); then the journal's holdings must equal the
 * broker's positions, the broker must have no open order (one still working after a cancel
 * included), and where the broker's book is the account's own (the simulated broker) the cash
 * moved by trading must agree to the minor unit.
 */
import { EXIT } from "../../core/exit-codes.js";
import { type Opened, type Phase, type Reconciled, Stop } from "./context.js";
import { recoverAndReconcile } from "./recover-reconcile.js";

export const reconcilePhase: Phase<Opened, Reconciled> = {
  name: "reconcile",
  async run(ctx) {
    const { broker, journal, sink, config } = ctx.deps;
    const { differences, positions, open } = await recoverAndReconcile({
      journal,
      broker,
      emit: (e) => sink.emit(e),
      executor: config.executor,
      // The in-flight window of an unknown send is measured on the run's wall clock.
      now: () => ctx.now().getTime(),
      ...(ctx.deps.executorSleep ? { sleep: ctx.deps.executorSleep } : {}),
    });
    if (differences.length > 0) {
      sink.emit({ type: "reconcile.failed", differences });
      return new Stop(
        "reconcile_failed",
        EXIT.RECONCILE_FAILED,
        `journal and broker disagree (${differences.length} difference(s)); nothing placed; \`tradewarden reconcile\` shows what each proves`,
      );
    }
    const openOrders = open.map((o) => ({ symbol: o.symbol, side: o.side, quantity: o.quantity - o.filled_quantity, limit_price: o.limit_price }));
    sink.emit({ type: "reconcile.ok", positions });
    return { ...ctx, openOrders };
  },
};
