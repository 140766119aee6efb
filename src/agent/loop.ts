/**
 * The agent loop: an async generator of run events over a `ModelClient` and the tool runtime.
 *
 * Stops (every one except a successful submit_orders means no trades), each with its reason:
 * - `submitted` / `hold`: submit_orders succeeded (an empty list is a hold);
 * - `no_submission`: the model ended its turn without submitting;
 * - `turn_limit`: `maxTurns` model calls made without a submit;
 * - `time_limit`: the wall clock (`maxSeconds`), checked before each call; each call's timeout is
 *   max(minCallTimeout 5 s, min(request timeout, time left)) and the loop aborts the call at it;
 * - `cost_budget`: the run's LLM cost is strictly above `runBudgetUsd`, checked after each call;
 * - `monthly_budget`: nothing left of the month's LLM spend cap (checked before the first call) or
 *   this run's cost went above what was left of it;
 * - `refusal`, `max_tokens`, `context_window` (stop reasons); `model_error`: the call failed after
 *   the client's retries (or timed out); `interrupted`: the run's AbortSignal fired;
 * - `repair_budget`: the model sent a refused call again unchanged and it was refused again with the
 *   same error (src/tools/repair-budget.ts): the run ends after that turn's tool calls, without
 *   asking the model again.
 * `pause_turn` sends the assistant turn back as is and continues (it counts as a turn).
 *
 * Every tool_use block of a turn is dispatched (read and dry-run tools before the final tool); one
 * user message then carries all the tool_result blocks, one per tool_use, in the order of the
 * tool_use blocks, with `is_error` on failures. The loop never trusts the model's words about order
 * state: the proposal comes from the validated arguments of a successful submit_orders.
 */
import type { RunEventBody } from "../core/events.js";
import { agentTurn } from "./loop-turn.js";
import { finishRun, monthlyCapUsedUp, type Stop, startRun } from "./loop-run.js";
import type { AgentResult, RunAgentOptions } from "./loop-types.js";

export type {
  AgentDispatchOutcome,
  AgentLimits,
  AgentProposal,
  AgentResult,
  AgentToolRuntime,
  RunAgentOptions,
  UsageRecord,
} from "./loop-types.js";
export { sha256 } from "./turn-tools.js";

/** The loop: turn after turn (./loop-turn.ts) until one of the stops above; its last event is `agent.finished`. */
export async function* runAgent(opts: RunAgentOptions): AsyncGenerator<RunEventBody, AgentResult, void> {
  const run = startRun(opts);
  let stop: Stop | null = monthlyCapUsedUp(run);
  while (!stop) stop = yield* agentTurn(run);
  const { event, result } = finishRun(run, stop);
  yield event;
  return result;
}
