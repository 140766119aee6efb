/**
 * Recovery, then reconciliation — the step every run takes before it values the account, and what
 * `tradewarden reconcile` shows. First every order whose outcome is not final is recovered by its
 * client order id (src/executor/recover.ts); only then are the journal's holdings compared with
 * the broker's positions, the broker's open orders with the journal's, and — where the broker's
 * book is the account's own (the simulated broker reports its starting cash) — the cash moved by
 * trading, to the minor unit. Each difference says what it proves and whether an operator may
 * adopt the broker's side.
 */
import type { Broker } from "../../broker/types.js";
import type { ExecutorConfig } from "../../config/types.js";
import type { FundedBuyFields, ReconcileDifference, RunEventBody } from "../../core/events.js";
import { toMinor } from "../../core/money.js";
import { type RecoveryResult, recoverOrders } from "../../executor/recover.js";
import type { Journal } from "../../journal/journal.js";
import { type CashFlows, reconcile } from "../../journal/reconcile.js";

export interface RecoverReconcileDeps {
  journal: Journal;
  broker: Broker;
  emit: (e: RunEventBody) => void;
  executor: ExecutorConfig;
  /** Wall-clock milliseconds (the in-flight window of an unknown send is measured on it; default Date.now). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ReconcileReport {
  recovered: RecoveryResult[];
  differences: ReconcileDifference[];
  positions: number;
  /** The broker's open orders as read after recovery. */
  open: Awaited<ReturnType<Broker["openOrders"]>>;
}

export async function recoverAndReconcile(deps: RecoverReconcileDeps): Promise<ReconcileReport> {
  const { journal, broker } = deps;
  const recovered = await recoverOrders({
    journal,
    broker,
    emit: deps.emit,
    now: deps.now ?? Date.now,
    waitMs: deps.executor.wait_s * 1000,
    settleMs: deps.executor.settle_s * 1000,
    pollMs: deps.executor.poll_ms,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  await settleFundedBuys(deps);
  const [positions, open, account] = await Promise.all([broker.positions(), broker.openOrders(), broker.account()]);
  const differences: ReconcileDifference[] = [];
  // Orders that stay unresolved (an open order of ours is reported below, from the broker's list).
  const openIds = new Set(open.map((o) => o.client_order_id));
  for (const r of recovered) {
    if (r.settled || openIds.has(r.client_order_id)) continue;
    const o = journal.order(r.client_order_id);
    if (!o) continue;
    const inFlight = r.status === "uncertain";
    const lookupFailed = r.lookupFailed === true;
    differences.push({
      kind: "unsettled_order",
      symbol: o.symbol,
      client_order_id: o.client_order_id,
      ...(o.broker_order_id ? { broker_order_id: o.broker_order_id } : {}),
      message: `order ${o.client_order_id} (${o.side} ${o.quantity} ${o.symbol}, run ${o.run_id}) is ${r.status}: ${r.message}`,
      proves: inFlight
        ? "its send may still be on its way: run again after the executor's wait"
        : lookupFailed
          ? "nothing yet: the broker did not answer; run again when it is reachable"
          : "the broker does not know an order the journal says it had; adopting the broker's side settles it as not at the broker",
      adoptable: !inFlight && !lookupFailed,
    });
  }

  let cash: CashFlows | undefined;
  if (account.starting_cash !== undefined && journal.isInitialised()) {
    const base = journal.baseCurrency();
    cash = { currency: base, journalMinor: journal.tradingCashFlowMinor(), brokerMinor: toMinor(account.cash, base) - toMinor(account.starting_cash, base) };
  }
  const foreign = open.filter((o) => !journal.hasOrder(o.client_order_id));
  for (const d of reconcile(journal.holdings(), positions, foreign, { tolerance: 1e-6, ...(cash ? { cash } : {}) })) {
    if (d.kind === "unknown_open_order") {
      differences.push({
        ...d,
        proves: "an order the journal did not place is working at the broker: cancel it there (or let it end), then run again",
        adoptable: false,
      });
    } else if (d.kind === "cash_mismatch") {
      differences.push({ ...d, proves: "money moved at the broker that no booked fill, commission or adjustment explains", adoptable: true });
    } else {
      const p = positions.find((x) => x.symbol === d.symbol);
      differences.push({
        ...d,
        ...(p?.avg_cost !== undefined ? { broker_avg_cost: p.avg_cost } : {}),
        proves:
          d.kind === "unbooked_position"
            ? "no journal order explains these shares (every order with a known client id was looked up): they were not bought by tradewarden"
            : "the booked fills of every order with a known client id do not add up to the broker's position",
        adoptable: true,
      });
    }
  }
  for (const o of open.filter((x) => journal.hasOrder(x.client_order_id))) {
    differences.push({
      kind: "unsettled_order",
      symbol: o.symbol,
      client_order_id: o.client_order_id,
      broker_order_id: o.broker_order_id,
      message: `the journal's order ${o.client_order_id} (${o.side} ${o.quantity} ${o.symbol}) is still working at the broker (${o.status}, ${o.filled_quantity} filled) after a cancel`,
      proves: "the broker has not ended it yet: wait for it to end (or cancel it at the broker), then run again",
      adoptable: false,
    });
  }
  return { recovered, differences, positions: positions.length, open };
}

/**
 * Buys an earlier run's final gate approved as funded by its batch's sells, whose run ended before
 * its second wave (killed between the waves): recorded as not placed, never sent — recovery settles
 * orders the journal knows were sent, it does not finish another run's plan on cash it never saw arrive.
 */
async function settleFundedBuys(deps: RecoverReconcileDeps): Promise<void> {
  const at = new Date((deps.now ?? Date.now)()).toISOString();
  for (const { run_id, decision: d } of deps.journal.unsettledFundedBuys()) {
    const funded = d.funded_by_sells;
    if (!funded) continue;
    const fields: FundedBuyFields = {
      index: d.index,
      symbol: String(d.order.symbol).toUpperCase(),
      limit_price: d.order.limit_price,
      quantity: d.order.quantity,
      placed_quantity: 0,
      funded_minor: funded.amount_minor,
      currency: funded.currency,
      outcome: "not_placed",
      reason: `run ${run_id} ended between its waves, before this buy was re-gated on the sells' proceeds; recovery does not send it`,
    };
    await deps.journal.recordFundedBuy({ run_id, at, ...fields });
    deps.emit({ type: "order.funded_buy", from_run: run_id, ...fields });
  }
}
