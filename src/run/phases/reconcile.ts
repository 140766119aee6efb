/**
 * Reconcile: the journal's holdings must equal the broker's positions, the broker must have no
 * open order (one still working after a cancel included), and where the broker's book is the
 * account's own (the simulated broker) the cash moved by trading must agree to the minor unit.
 */
import { toMinor } from "../../core/money.js";
import { EXIT } from "../../core/exit-codes.js";
import { type CashFlows, reconcile } from "../../journal/reconcile.js";
import { type Phase, Stop } from "./context.js";

export const reconcilePhase: Phase = {
  name: "reconcile",
  async run(ctx) {
    const { broker, journal, sink } = ctx.deps;
    const [positions, brokerOpen, account] = await Promise.all([broker.positions(), broker.openOrders(), broker.account()]);
    let cash: CashFlows | undefined;
    if (account.starting_cash !== undefined) {
      const base = journal.baseCurrency();
      cash = { currency: base, journalMinor: journal.tradingCashFlowMinor(), brokerMinor: toMinor(account.cash, base) - toMinor(account.starting_cash, base) };
    }
    const differences = reconcile(journal.holdings(), positions, brokerOpen, { tolerance: 1e-6, ...(cash ? { cash } : {}) });
    if (differences.length > 0) {
      sink.emit({ type: "reconcile.failed", differences });
      return new Stop("reconcile_failed", EXIT.RECONCILE_FAILED, `journal and broker disagree (${differences.length} difference(s)); nothing placed`);
    }
    ctx.openOrders = brokerOpen.map((o) => ({ symbol: o.symbol, side: o.side, quantity: o.quantity - o.filled_quantity, limit_price: o.limit_price }));
    sink.emit({ type: "reconcile.ok", positions: positions.length });
    return undefined;
  },
};
