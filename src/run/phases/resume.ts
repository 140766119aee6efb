/**
 * Resume (`tradewarden approve`): in place of the budget and agent phases, the proposal an earlier
 * run recorded as awaiting approval becomes this run's proposal. The model is not called; the
 * original transcript is kept with this run (the evidence its orders cite is in it).
 */
import { writeJsonAtomic } from "../artifacts.js";
import { inInputOrder } from "../../core/gate-types.js";
import type { Phase, Proposed, Resuming } from "./context.js";
import { evaluateOrders } from "./gate.js";

export const resumePhase: Phase<Resuming, Proposed> = {
  name: "resume",
  async run(ctx) {
    const r = ctx.resume;
    const { sink } = ctx.deps;
    sink.emit({
      type: "run.note",
      level: "info",
      message: `deciding the proposal of run ${r.fromRunId} (recorded as awaiting approval); the model is not called`,
    });
    writeJsonAtomic(
      ctx.paths.transcript,
      { run_id: ctx.runId, resumed_from: r.fromRunId, system: r.transcript.system, messages: r.transcript.messages },
      ctx.deps.journal.durable,
    );
    const decisions = inInputOrder(evaluateOrders(ctx, r.orders), r.orders.length);
    sink.emit({ type: "proposal", orders: r.orders, summary: r.summary, decisions, abandoned: [] });
    return { ...ctx, proposal: { orders: r.orders, summary: r.summary, transcript: r.transcript.messages } };
  },
};
