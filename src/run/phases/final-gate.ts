/**
 * Final gate: the approved orders are evaluated again on fresh state (the journal and the broker's
 * open orders, re-read). Its approved decisions carry the typed orders as they will be placed; the
 * pipeline hashes exactly those and records the hash with the verdicts.
 */
import { EXIT } from "../../core/exit-codes.js";
import type { Order } from "../../core/order.js";
import { TwError } from "../../core/errors.js";
import { evaluate } from "../../gate/evaluate.js";
import { ordersHash } from "../approval.js";
import { type Decided, type Gated, type Phase, Stop } from "./context.js";
import { gateInputs, readOpenOrders } from "./gate.js";

export const finalGatePhase: Phase<Decided, Gated> = {
  name: "final gate",
  async run(ctx) {
    const { broker, journal, sink, signal } = ctx.deps;
    const fresh = { ...ctx, openOrders: await readOpenOrders(broker) };
    const g = gateInputs(fresh);
    const final = evaluate([...ctx.approved], g.state, g.market, g.limits, g.universe, { commission: g.commission });
    const toPlace: Order[] = [];
    for (const d of final.decisions) {
      if (!d.approved) continue;
      if (!d.placement) throw new TwError("gate_without_order", `the final gate approved ${d.order.symbol} without the order to place`, EXIT.INTERNAL_ERROR);
      toPlace.push(d.placement);
    }
    const hash = ordersHash(toPlace);
    sink.emit({ type: "gate.final", decisions: final.decisions, orders_hash: hash });
    await journal.recordFinalGate(ctx.runId, final.decisions, ctx.now(), hash);
    if (toPlace.length === 0) return new Stop("no_trades", EXIT.OK, "the final gate approved no order; nothing placed");
    if (signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted before execution; nothing placed");
    return { ...fresh, toPlace };
  },
};
