/**
 * Standing orders at the start of a run: every approved standing order is checked against the
 * reference price (pure rules in gate/standing-triggers.ts). One past its last day expires unfired.
 * One that fires goes through the final gate on fresh state — kill switch, REDUCING, the monthly
 * quota and every limit apply as to any order — and is placed only if it passes; the journal
 * records the firing with the standing order, and the order with its client id (`-S<i>`), which
 * counts toward the quota. Observe and watch runs place nothing: a fired order stays armed.
 */
import type { ProposedOrder, RunMode } from "../core/domain.js";
import type { RunEventBody } from "../core/events.js";
import { type GateDecision, inInputOrder } from "../core/gate-types.js";
import { checkTriggers } from "../gate/standing-triggers.js";
import type { Journal } from "../journal/journal.js";
import { bindingHash, type StandingEvent, type StandingOrder } from "../journal/standing-orders.js";
import { clientOrderId } from "../executor/execute.js";
import type { Order } from "../core/order.js";
import { ordersHash } from "./approval.js";

export interface StandingRunDeps {
  runId: string;
  tradingDay: string;
  mode: RunMode;
  journal: Journal;
  referencePrice: (symbol: string) => number | undefined;
  /** The final gate on the current state, for a batch (evaluated jointly: cash, quota, limits). */
  finalGate: (orders: ProposedOrder[]) => GateDecision[];
  /** Sends the final gate's typed orders through the executor (client ids `tw-<runId>-S<i>`, i in this order). */
  place: (orders: Order[]) => Promise<void>;
  emit: (e: RunEventBody) => void;
  now: () => Date;
}

export interface StandingRunReport {
  placed: string[];
  blocked: string[];
  expired: string[];
  notPlaced: string[];
}

function orderOf(o: StandingOrder): ProposedOrder {
  return {
    symbol: o.symbol,
    side: o.side,
    quantity: o.quantity,
    limit_price: o.limit_price,
    reason: `standing order ${o.id} (${o.type} at ${o.trigger_price}): ${o.reason}`.slice(0, 500),
    evidence_ids: [`standing:${o.id}`],
  };
}

/** Active orders whose approval still binds to exactly their trigger and order. */
function armed(journal: Journal): StandingOrder[] {
  return [...journal.standingState().orders.values()]
    .filter((o) => o.status === "active" && o.approval?.binding_hash === o.binding_hash && bindingHash(o) === o.binding_hash)
    .map((o) => ({ ...o }));
}

export async function fireStandingOrders(deps: StandingRunDeps): Promise<StandingRunReport> {
  const report: StandingRunReport = { placed: [], blocked: [], expired: [], notPlaced: [] };
  const at = deps.now().toISOString();
  const fields = (so: StandingOrder) => ({
    type: "standing.fired" as const,
    id: so.id,
    standing_type: so.type,
    trigger_price: so.trigger_price,
    order: orderOf(so),
    approved_by: so.approval?.by ?? "?",
    binding_hash: so.binding_hash,
  });
  const triggered: { so: StandingOrder; reference: number }[] = [];
  for (const v of checkTriggers(armed(deps.journal), deps.tradingDay, deps.referencePrice)) {
    const so = v.order;
    if (v.kind === "waiting") continue;
    if (v.kind === "expired") {
      await deps.journal.commitStanding(() => ({
        events: [{ kind: "end", id: so.id, status: "expired", by: `run ${deps.runId}`, at, reason: `not fired by its last day ${so.expires_on}` }],
        result: null,
      }));
      deps.emit({ ...fields(so), reference_price: null, result: "expired", reasons: [] });
      report.expired.push(so.id);
    } else if (deps.mode !== "paper") {
      deps.emit({
        ...fields(so),
        reference_price: v.reference_price,
        result: "not_placed",
        reasons: [{ code: "mode", message: `${deps.mode} mode places nothing` }],
      });
      report.notPlaced.push(so.id);
    } else {
      triggered.push({ so, reference: v.reference_price });
    }
  }
  if (triggered.length === 0) return report;

  // The final gate on fresh state, jointly for everything that fired (sells first, as for any batch).
  const orders = triggered.map((t) => orderOf(t.so));
  // Each decision names its fired order by input index (the gate answers sells first).
  // A standing order is placed in one wave: a buy only the fired sells' proceeds would pay for is blocked (no margin through an unfilled sell).
  const decisions = inInputOrder(deps.finalGate(orders), orders.length).map(oneWave);
  const placements = decisions.flatMap((d) => (d.approved && d.placement ? [d.placement] : []));
  deps.emit({ type: "gate.final", decisions, orders_hash: ordersHash(placements) });
  const toPlace: Order[] = [];
  const events: StandingEvent[] = [];
  triggered.forEach((t, i) => {
    const d = decisions[i] as GateDecision; // decisions[i] answers triggered[i] (input order)
    const fired = { run_id: deps.runId, trading_day: deps.tradingDay, reference_price: t.reference, at };
    if (d.approved && d.placement) {
      // Journalled as fired (with the client id its order gets) before anything is sent.
      events.push({
        kind: "fire",
        id: t.so.id,
        placed: true,
        fired: { ...fired, client_order_id: clientOrderId(deps.runId, toPlace.length, { standing: true }) },
      });
      toPlace.push(d.placement);
      report.placed.push(t.so.id);
    } else {
      events.push({ kind: "fire", id: t.so.id, placed: false, fired: { ...fired, reasons: d.reasons.map((r) => ({ code: r.code, message: r.message })) } });
      report.blocked.push(t.so.id);
    }
  });
  await deps.journal.commitStanding(() => ({ events, result: null }));
  triggered.forEach((t, i) => {
    const d = decisions[i] as GateDecision;
    deps.emit({
      ...fields(t.so),
      reference_price: t.reference,
      result: d.approved ? "placed" : "blocked",
      reasons: d.reasons.map((r) => ({ code: r.code, message: r.message })),
    });
  });
  if (toPlace.length > 0) await deps.place(toPlace);
  return report;
}

/** A buy funded by sells fired in the same run is not placed with them: standing orders have no second wave. */
function oneWave(d: GateDecision): GateDecision {
  if (!d.funded_by_sells) return d;
  const { funded_by_sells: _f, ...rest } = d;
  const message = `${d.order.symbol}: the cash held does not cover it without the proceeds of sells fired in this run; a standing order is placed only with cash already held`;
  return { ...rest, approved: false, placement: null, reasons: [{ code: "insufficient_cash", message }] };
}
