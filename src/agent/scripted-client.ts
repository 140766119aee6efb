/**
 * The scripted model: a deterministic stand-in for Claude, the default when no API key is set. It
 * behaves like an agent — it emits tool_use blocks turn by turn and decides from the tool_result JSON
 * it gets back — and it keeps no hidden state: every decision is derived from the conversation, so a
 * replayed conversation gives the same answers.
 *
 * Default policy "momentum" (the run report shows it in each order's reason and the summary):
 *   1. get_market_overview (when the contract offers it), get_portfolio and screen_universe on the
 *      entry rule over the whole allowlist, its 3 strongest matches (one turn, parallel calls;
 *      list_universe instead when the screen is not offered or fails); in a falling market (index
 *      below its SMA200 and a negative 1-month return) it buys nothing new and says so
 *      (src/agent/scripted/market-regime.ts);
 *   2. get_price_history for the holdings, then the screen's matches (or the listed instruments in
 *      listed order, at most 12 symbols), in one turn;
 *   3. SELL a whole holding when its last close is below its SMA50, or it is more than 15% below its
 *      6-month high (limit = last close × 0.995, in cents);
 *   4. BUY (only when trading state is ACTIVE, at most 2 new positions, never adding to a holding)
 *      instruments whose 3-month return is positive, last close > SMA20 > SMA50, ranked by 3-month
 *      return; limit = last close × 1.005 in cents (inside the price band), quantity = whole shares
 *      so the position is ~80% of the position limit of the account value, and within the cash left
 *      after earlier buys (2% kept back for commissions);
 *   5. orders capped by the orders left this month (sells first); nothing qualifies → hold;
 *   6. search_news for each candidate's symbol (src/agent/scripted-news.ts): a buy with negative news from
 *      the last 30 days is dropped; the newest dated item naming the instrument is cited next to its
 *      history; older news is a note in the summary;
 *   7. check_orders on the candidates, drop what the gate blocks, submit_orders with the rest (or a
 *      hold), citing the portfolio's and each history's evidence_id; orders unchanged since the check
 *      are named by its check_id instead of being sent again. A bounce drops the blocked orders and
 *      submits once more; a pending-corrections refusal abandons the listed codes.
 *
 * Policy "rebalance": momentum, plus a swap when the cash cannot fund the strongest candidate and
 * its 3-month return beats the weakest holding's by 10 points or more: get_position on that holding,
 * then one submission selling it and buying the candidate with the cash and the sale's proceeds
 * (src/agent/scripted/rebalance-orders.ts; the gate funds the buy by the sell, placed after it fills).
 *
 * Scenario scripts for tests (`model.script`): `invalid-then-repair`, `blocked-then-revise`,
 * `pending-abandoned`, `hold`, `no-submit` (ends its turn with text), `runaway` (never submits),
 * `slow` (waits until its call is aborted).
 *
 * The parts live in src/agent/scripted/: scripts.ts (script names, options), conversation.ts (the
 * steps read from the conversation), results.ts (what tool results say), actions.ts (turns and the
 * submission), flow.ts (the steps the policies share), momentum-orders.ts and momentum.ts (the
 * momentum policy), market-regime.ts, rebalance-orders.ts and rebalance.ts, scenarios.ts (the test scripts).
 */
import { isWatchTask } from "./scripted-watch.js";
import { type Action, submit } from "./scripted/actions.js";
import { last, requestChars, type Step, stepsOf } from "./scripted/conversation.js";
import { momentumAction } from "./scripted/momentum.js";
import { rebalanceAction } from "./scripted/rebalance.js";
import { blockedThenRevise, invalidThenRepair, pendingAbandoned } from "./scripted/scenarios.js";
import { isScriptName, SCRIPTS, type ScriptedOptions, type ScriptName } from "./scripted/scripts.js";
import { standingOrdersAction } from "./scripted/standing.js";
import { type CallHooks, type ContentBlock, ModelCallError, type ModelClient, type ModelRequest, type ModelResponse } from "./types.js";

export { isScriptName, SCRIPTS, type ScriptedOptions, type ScriptName } from "./scripted/scripts.js";

export class ScriptedClient implements ModelClient {
  readonly model = "scripted";
  readonly script: ScriptName;
  private readonly opts: ScriptedOptions;

  constructor(opts: ScriptedOptions = {}) {
    const script = opts.script ?? "momentum";
    if (!isScriptName(script)) throw new Error(`unknown scripted model script "${script}"; known: ${SCRIPTS.join(", ")}`);
    this.script = script;
    this.opts = opts;
  }

  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    if (req.signal?.aborted) throw new ModelCallError("aborted", "the model call was aborted");
    if (this.script === "slow") return this.hang(req.signal);
    if (this.opts.delayMs) await sleep(this.opts.delayMs, req.signal);
    const turn = req.messages.filter((m) => m.role === "assistant").length + 1;
    const steps = stepsOf(req.messages);
    const offered = new Set(req.tools.map((t) => t.name));
    const action = this.decide(steps, turn, isWatchTask(req.messages), offered);
    const content: ContentBlock[] = [{ type: "text", text: action.text }];
    (action.calls ?? []).forEach((c, i) => {
      content.push({ type: "tool_use", id: `toolu_scripted_${String(turn).padStart(2, "0")}_${i}`, name: c.name, input: c.input });
    });
    if (hooks?.onText) for (const piece of action.text.match(/\S+\s*/g) ?? []) hooks.onText(piece);
    const inChars = requestChars(req);
    const outChars = JSON.stringify(content).length;
    return {
      content,
      stop_reason: action.calls?.length ? "tool_use" : "end_turn",
      usage: {
        input_tokens: Math.ceil(inChars / 4),
        output_tokens: Math.ceil(outChars / 4),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
      model: this.model,
    };
  }

  private hang(signal: AbortSignal | undefined): Promise<never> {
    return new Promise((_, reject) => {
      const fail = () => reject(new ModelCallError("aborted", "the model call was aborted"));
      if (!signal) return; // never settles: the loop's deadline ends it
      if (signal.aborted) fail();
      signal.addEventListener("abort", fail, { once: true });
    });
  }

  private decide(steps: Step[], turn: number, watch: boolean, offered: ReadonlySet<string>): Action {
    switch (this.script) {
      case "hold":
        if (!last(steps, "get_portfolio")) return { text: "Reading the account first.", calls: [{ name: "get_portfolio", input: {} }] };
        return submit([], "Holding: the scripted hold scenario proposes no trades.");
      case "no-submit":
        return { text: "I have looked enough and will not propose anything today." };
      case "runaway":
        return { text: `Checking the account again (turn ${turn}).`, calls: [{ name: "get_portfolio", input: {} }] };
      case "invalid-then-repair":
        return invalidThenRepair(steps);
      case "blocked-then-revise":
        return blockedThenRevise(steps);
      case "pending-abandoned":
        return pendingAbandoned(steps);
      case "rebalance":
        return rebalanceAction(steps, this.opts.limits, watch, offered);
      case "standing-orders":
        return standingOrdersAction(steps);
      default:
        return momentumAction(steps, this.opts.limits, watch, offered);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(new ModelCallError("aborted", "the model call was aborted"));
      },
      { once: true },
    );
  });
}
