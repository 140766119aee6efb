/**
 * The tools of a run's agent, bound to the run: every handler on the run's services
 * (src/run/tool-handlers.ts) and the tool runtime over them (validation, grounding, pending
 * corrections, call limits, envelopes, masking). The agent phase hands them to the model through the
 * agent loop; `tradewarden mcp` (src/mcp/) hands them to an MCP client's model, the same way.
 */
import { fxToBaseOf } from "../../config/fx.js";
import type { SubmitHandler } from "../../agent/submit.js";
import { type ToolRuntime, buildToolRuntime } from "../../tools/runtime.js";
import { TOOL_NAMES } from "../../tools/catalogue.js";
import { offeredTools } from "../../tools/subsets.js";
import { createResearchSetup } from "../../research/setup.js";
import { mentionsOf } from "../../research/mentions.js";
import type { Masker } from "../../research/masking.js";
import { maskEnabledEvent } from "../masking.js";
import { buildRunHandlers } from "../tool-handlers.js";
import type { Affordable } from "./context.js";
import { evaluateOrders, gateInputs, gateResult } from "./gate.js";

export interface AgentTools {
  runtime: ToolRuntime;
  submit: SubmitHandler;
  mask: Masker | undefined;
  /** The tools this run offers: observe and watch place nothing, a halted account trades nothing. */
  offered: string[];
}

/** The run's handlers and runtime (and, with masking on, the `mask.enabled` event emitted). */
export function agentTools(ctx: Affordable): AgentTools {
  const { deps } = ctx;
  const { journal, config, sink } = deps;
  const { handlers, submit } = buildRunHandlers({
    mode: deps.mode,
    runId: ctx.runId,
    tradingDay: ctx.tradingDay,
    journal,
    market: deps.market,
    universe: deps.universe,
    prices: ctx.prices,
    baseCurrency: config.account.base_currency,
    fxToBase: fxToBaseOf(config),
    limits: { max_orders_per_month: config.limits.max_orders_per_month, max_drawdown_pct: config.limits.max_drawdown_pct },
    now: ctx.sessionNow,
    gateInputs: () => gateInputs(ctx),
    evaluateOrders: (orders) => evaluateOrders(ctx, orders),
    // The dry run shares the final gate's memo: submit_orders then asks it the same question.
    dryRunOrders: (orders, g) => gateResult(ctx, structuredClone(orders), g),
    staleEvidenceDays: config.research.stale_evidence_days,
    research: deps.research ?? createResearchSetup(config.research, { env: {}, historical: deps.broker.endpoint().kind === "sim" }),
    onSearchLog: (entry) => sink.emit({ type: "research.search", ...entry }),
    ...(deps.mask ? { mask: deps.mask } : {}),
  });
  const mask = deps.mask;
  if (mask) sink.emit(maskEnabledEvent(mask, deps.universe));
  const offered = offeredTools(TOOL_NAMES, { mode: deps.mode, tradingState: journal.tradingState() });
  const runtime = buildToolRuntime(handlers, {
    runId: ctx.runId,
    tradingDay: ctx.tradingDay,
    offered,
    subjectsOf: mentionsOf(deps.universe),
    ...(mask ? { masking: mask.toolMasking() } : {}),
  });
  return { runtime, submit, mask, offered };
}
