/**
 * The second wave of a run's execution: buys the final gate approved as *funded by this batch's
 * sells* are placed only after the first wave (the sells, and the buys the cash held covers) has
 * been waited for, cancelled where still working and settled — and only on the cash the sells
 * actually brought. Each is re-gated on fresh state (the journal's booked fills, the broker's open
 * orders re-read): it goes as approved when it still passes; when only cash is short (a sell filled
 * short or not at all) it is shrunk to the most whole shares the cash allows, limit unchanged; when
 * nothing fits, or the gate blocks it for another reason, it is dropped. Every outcome is journalled
 * (`funded_buy`) before anything is sent, and emitted (`order.funded_buy`). An interrupted run sends
 * none of them; a run killed between the waves leaves them without an outcome, and the next run's
 * recovery records them as not placed (src/run/phases/recover-reconcile.ts) — never sends them.
 */
import type { FundedBuyFields } from "../../core/events.js";
import { decisionFor, type GateDecision } from "../../core/gate-types.js";
import type { ProposedOrder } from "../../core/domain.js";
import type { Order } from "../../core/order.js";
import { evaluate } from "../../gate/evaluate.js";
import type { ExecuteResult, OrderExecution } from "../../executor/types.js";
import type { FundedBuy, Gated } from "./context.js";
import { gateInputs, readOpenOrders } from "./gate.js";
import { placeOrders } from "./place.js";
import { faultPoint } from "../../util/test-fault.js";

type Outcome = Pick<FundedBuyFields, "outcome" | "placed_quantity" | "reason"> & { placement?: Order; order?: ProposedOrder };

/** What the first wave's sells did, in words ("SELL 20 BBB: 10 filled"). */
function sellsSummary(first: readonly OrderExecution[]): string {
  const sells = first.filter((r) => r.side === "SELL");
  return (
    sells.map((r) => `SELL ${r.quantity} ${r.symbol}: ${r.filled_quantity} filled${r.status === "filled" ? "" : ` (${r.status})`}`).join(", ") || "no sells"
  );
}

const reasonsText = (d: GateDecision | undefined): string => (d ? d.reasons.map((r) => `${r.code}: ${r.message}`).join("; ") : "no verdict");

/**
 * One funded buy re-gated after `accepted` (the second wave's buys already decided): as approved, or
 * shrunk (whole shares, limit unchanged) when only cash is short, else dropped.
 */
function regate(ctx: Gated, accepted: readonly ProposedOrder[], buy: FundedBuy, sells: string): Outcome {
  const g = gateInputs(ctx);
  const tryQty = (quantity: number) =>
    decisionFor(
      evaluate([...accepted, { ...buy.proposed, quantity }], g.state, g.market, g.limits, g.universe, { commission: g.commission }).decisions,
      accepted.length,
    );
  const full = tryQty(buy.proposed.quantity);
  if (full?.approved && full.placement) {
    return {
      outcome: "placed",
      placed_quantity: buy.proposed.quantity,
      reason: `re-gated on the cash received (${sells}): approved`,
      placement: full.placement,
      order: buy.proposed,
    };
  }
  if (!full || full.reasons.some((r) => r.code !== "insufficient_cash")) {
    return { outcome: "dropped", placed_quantity: 0, reason: `re-gated after the sells (${sells}): ${reasonsText(full)}` };
  }
  // Only cash is short: the most whole shares the cash received allows (the gate's cost is monotonic in quantity).
  const ok = (q: number) => {
    const d = tryQty(q);
    return d?.approved && d.placement ? d : undefined;
  };
  let lo = 0;
  let hi = Math.ceil(buy.proposed.quantity) - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  const best = lo > 0 ? ok(lo) : undefined;
  if (best?.placement) {
    return {
      outcome: "shrunk",
      placed_quantity: lo,
      reason: `the sells brought less than counted on (${sells}); at ${buy.proposed.quantity}: ${reasonsText(full)}; ${lo} fit the cash received`,
      placement: best.placement,
      order: { ...buy.proposed, quantity: lo },
    };
  }
  return { outcome: "dropped", placed_quantity: 0, reason: `the cash received does not pay for one share (${sells}): ${reasonsText(full)}` };
}

/** Journals and emits what became of each funded buy (the journal first: the record precedes any send). */
async function record(ctx: Gated, buy: FundedBuy, o: Pick<Outcome, "outcome" | "placed_quantity" | "reason">): Promise<void> {
  const fields: FundedBuyFields = {
    index: buy.index,
    symbol: buy.proposed.symbol.toUpperCase(),
    limit_price: buy.proposed.limit_price,
    quantity: buy.proposed.quantity,
    placed_quantity: o.placed_quantity,
    funded_minor: buy.funded.amount_minor,
    currency: buy.funded.currency,
    outcome: o.outcome,
    reason: o.reason,
  };
  await ctx.deps.journal.recordFundedBuy({ run_id: ctx.runId, at: ctx.now().toISOString(), ...fields });
  ctx.deps.sink.emit({ type: "order.funded_buy", from_run: ctx.runId, ...fields });
}

/** Every funded buy of the run, not placed, with one reason. */
async function noneOf(ctx: Gated, reason: string): Promise<undefined> {
  for (const buy of ctx.funded) await record(ctx, buy, { outcome: "not_placed", placed_quantity: 0, reason });
  return undefined;
}

/** The second wave after the first (`first`): its execution, or undefined when nothing was placed. */
export async function secondWave(ctx: Gated, first: ExecuteResult): Promise<ExecuteResult | undefined> {
  if (ctx.funded.length === 0) return undefined;
  faultPoint("run.between_waves");
  const { deps } = ctx;
  if (deps.signal.aborted) return noneOf(ctx, "the run was interrupted before the second wave");
  if ((first.journal_errors ?? []).length > 0) return noneOf(ctx, "the journal could not record the first wave; nothing more is sent");
  let fresh: Gated;
  try {
    fresh = { ...ctx, openOrders: await readOpenOrders(deps.broker) };
  } catch (e) {
    return noneOf(ctx, `the broker's open orders could not be read after the first wave (${(e as Error).message})`);
  }
  const sells = sellsSummary(first.results);
  const accepted: ProposedOrder[] = [];
  const decided: { buy: FundedBuy; o: Outcome }[] = [];
  for (const buy of ctx.funded) {
    const o = regate(fresh, accepted, buy, sells);
    if (o.order) accepted.push(o.order);
    decided.push({ buy, o });
  }
  if (deps.signal.aborted) return noneOf(ctx, "the run was interrupted before the second wave");
  for (const { buy, o } of decided) await record(ctx, buy, o);
  const toPlace = decided.flatMap(({ o }) => (o.placement ? [o.placement] : []));
  if (toPlace.length === 0) return undefined;
  return placeOrders(fresh, toPlace, { firstIndex: ctx.toPlace.length });
}
