/**
 * Final gate: the approved orders are evaluated again on fresh state (the journal and the broker's
 * open orders, re-read). Its approved decisions carry the typed orders as they will be placed; the
 * pipeline hashes exactly those and records the hash with the verdicts. A buy it approves as funded
 * by the batch's sells goes to the second wave (src/run/phases/second-wave.ts), every other approved
 * order to the first.
 */
import { EXIT } from "../../core/exit-codes.js";
import type { Order } from "../../core/order.js";
import { TwError } from "../../core/errors.js";
import { evaluate } from "../../gate/evaluate.js";
import { ordersHash } from "../approval.js";
import { type Decided, type FundedBuy, type Gated, type Phase, Stop } from "./context.js";
import { gateInputs, readOpenOrders } from "./gate.js";

export const finalGatePhase: Phase<Decided, Gated> = {
  name: "final gate",
  async run(ctx) {
    const { broker, journal, sink, signal } = ctx.deps;
    const fresh = { ...ctx, openOrders: await readOpenOrders(broker) };
    const g = gateInputs(fresh);
    const final = evaluate([...ctx.approved], g.state, g.market, g.limits, g.universe, { commission: g.commission });
    const approved: Order[] = [];
    const toPlace: Order[] = [];
    const funded: FundedBuy[] = [];
    for (const d of final.decisions) {
      if (!d.approved) continue;
      if (!d.placement) throw new TwError("gate_without_order", `the final gate approved ${d.order.symbol} without the order to place`, EXIT.INTERNAL_ERROR);
      approved.push(d.placement);
      const proposed = ctx.approved[d.index];
      if (d.funded_by_sells && proposed) funded.push({ index: d.index, proposed, funded: d.funded_by_sells });
      else toPlace.push(d.placement);
    }
    // The hash binds every order the operator's approval let through, both waves.
    const hash = ordersHash(approved);
    sink.emit({ type: "gate.final", decisions: final.decisions, orders_hash: hash });
    await journal.recordFinalGate(ctx.runId, final.decisions, ctx.now(), hash);
    if (approved.length === 0) return new Stop("no_trades", EXIT.OK, "the final gate approved no order; nothing placed");
    if (signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted before execution; nothing placed");
    if (funded.length > 0) {
      sink.emit({
        type: "run.note",
        level: "info",
        message: `${funded.length} buy(s) funded by this batch's sells: placed after the ${toPlace.length} first-wave order(s) have settled, re-gated on the cash they brought`,
      });
    }
    return { ...fresh, toPlace, funded };
  },
};
