/**
 * Agent: the model works the day through the contracted tools (journal, market, search_news,
 * check_orders, submit_orders) until it submits a proposal or stops. With masking on, the model
 * sees aliases, neutral names, shifted dates and rescaled money only, and its own text is scanned
 * for leaks afterwards. Every tool result is point-in-time: market
 * data strictly before the trading day, journal facts of earlier trading days only.
 */
import { fileSink, RecordingClient } from "../../agent/cassette.js";
import { agentLimitsFrom } from "../../agent/factory.js";
import { runAgent } from "../../agent/loop.js";
import { buildSystemPrompt, buildTaskMessage } from "../../agent/prompt.js";
import { limitsOf } from "../../config/load.js";
import { EXIT } from "../../core/exit-codes.js";
import { CONTRACT_VERSION } from "../../tools/catalogue.js";
import { ARTIFACT_FILES, putJsonArtifact } from "../artifacts.js";
import { approveProposedStanding } from "../standing-approval.js";
import { watchlistLines } from "../watchlist-brief.js";
import { type Affordable, type Phase, type Proposed, Stop } from "./context.js";
import { modelTextLeaks } from "../masking.js";
import { agentTools } from "./agent-tools.js";

export const agentPhase: Phase<Affordable, Proposed> = {
  name: "agent",
  async run(ctx) {
    const { deps } = ctx;
    const { journal, config, sink } = deps;
    const { runtime, submit, mask, offered } = agentTools(ctx);
    const shown = (text: string) => (mask ? mask.maskText(text) : text);
    const promptLimits = limitsOf(config);
    // Masked money: the one amount the prompt states is rescaled like every price the model sees.
    if (mask && promptLimits.max_order_notional !== null) promptLimits.max_order_notional *= mask.priceScale;
    const system = shown(
      buildSystemPrompt({
        limits: promptLimits,
        maxTurns: config.model.max_turns,
        toolCallLimits: Object.fromEntries(runtime.contracts.map((c) => [c.name, c.callLimit])),
      }),
    );
    const { held } = deps;
    const cassette = held ? (line: string) => held.appendLine(ARTIFACT_FILES.cassette, line) : fileSink(ctx.paths.cassette);
    const client = new RecordingClient(deps.model.client, { sink: cassette, contractVersion: CONTRACT_VERSION, tools: offered });
    const gen = runAgent({
      client,
      runtime,
      system,
      task: shown(
        buildTaskMessage({ tradingDay: ctx.tradingDay, mode: deps.mode, watchlist: watchlistLines(journal, deps.market, ctx.prices, ctx.tradingDay) }),
      ),
      limits: agentLimitsFrom(config.model, journal.spendThisMonth(ctx.now())),
      price: deps.model.price,
      signal: deps.signal,
      submitState: submit.state,
      // Spend is journalled per model call, not after the loop.
      onUsage: (u) => journal.recordUsage(ctx.runId, { model: u.model, usage: u.usage, cost_usd: u.cost_usd, at: ctx.now() }),
    });
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) sink.emit(step.value);
    const result = step.value;
    ctx.progress.agentResult = result;
    if (mask) for (const leak of modelTextLeaks(mask, result.transcript)) sink.emit(leak);
    putJsonArtifact(held, ctx.paths.transcript, { run_id: ctx.runId, system, messages: result.transcript }, journal.durable);
    if (result.outcome === "interrupted") return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted during the agent loop; nothing placed");
    // A model that cannot be reached or refuses the key is an outage, not a hold: cron must see it.
    if (result.outcome === "model_error")
      return new Stop("model_unavailable", EXIT.BROKER_OR_DATA_UNAVAILABLE, `the model was unavailable: ${result.reason}; nothing proposed`);
    // Standing orders proposed in this run wait for the operator; an unattended run (--yes) approves them.
    await approveProposedStanding({ journal, runId: ctx.runId, approver: deps.approver, emit: (e) => sink.emit(e), now: ctx.now, signal: deps.signal });
    if (!result.proposal) return new Stop("no_trades", EXIT.OK, `no proposal: ${result.reason}`);
    return { ...ctx, proposal: { orders: result.proposal.orders, summary: result.proposal.summary, transcript: result.transcript } };
  },
};
