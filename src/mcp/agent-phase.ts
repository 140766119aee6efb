/**
 * The agent phase of a run driven by an MCP client: in the agent loop's place, the client's model
 * calls the run's tools one by one. Each call goes through the same tool runtime as the agent loop
 * (validation, grounding, pending corrections, call limits, envelopes, masking: `agentTools`) and the
 * same dispatch (`dispatchTurn`: the `tool.called` / `tool.result` / `tool.rejected`, `gate.dry_run`
 * and `submit.bounced` events), and is kept in the run's transcript as a tool_use and its
 * tool_result. The phase ends like the loop does: a successful submit_orders (the proposal goes on
 * to the operator), a repeated refused call, the client gone quiet, or the run's signal (the client
 * disconnected, the server stopped).
 */
import type { AgentProposal, AgentResult } from "../agent/loop.js";
import type { AgentOutcome, RunEventBody } from "../core/events.js";
import { redactValue } from "../core/redact.js";
import { EXIT } from "../core/exit-codes.js";
import { dispatchTurn, proposalFrom } from "../agent/turn-tools.js";
import type { Message, ToolResultBlock, ToolUseBlock } from "../agent/types.js";
import { writeJsonAtomic } from "../run/artifacts.js";
import { type Affordable, type Phase, type Proposed, Stop } from "../run/phases/context.js";
import { agentTools } from "../run/phases/agent-tools.js";
import { approveProposedStanding } from "../run/standing-approval.js";
import { nestsDeeperThan, tooDeepStandIn } from "../util/json-depth.js";

/** One call's answer: the result text the runtime made (as the transcript keeps it) and whether it failed. */
export interface McpToolAnswer {
  text: string;
  isError: boolean;
  /** The call was a successful submit_orders: the run goes on to the operator. */
  submitted: boolean;
}

/** The open run's tools, as the session sees them while the phase runs. */
export interface LiveTools {
  readonly runId: string;
  readonly tradingDay: string;
  call(name: string, args: unknown): Promise<McpToolAnswer>;
}

/** How the phase's agent stopped, and its proposal when submit_orders succeeded. */
interface Ending {
  outcome: AgentOutcome;
  reason: string;
  proposal?: AgentProposal;
}

/** The system prompt's place in an MCP run's transcript: the client's own prompt is not known to tradewarden. */
const MCP_SYSTEM = "tool calls from an MCP client (tradewarden mcp): the client's model and its prompt are outside tradewarden";

/** How the phase's agent may stop besides a submit: the run's signal, or the client quiet for `idleMs`. `poke` on every call. */
function stopsOf(signal: AbortSignal, idleMs: number) {
  let finish: (e: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => {
    finish = resolve;
  });
  let over = false;
  const end = (e: Ending) => {
    if (over) return;
    over = true;
    finish(e);
  };
  let idle: NodeJS.Timeout | undefined;
  const poke = () => {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => end({ outcome: "no_submission", reason: `the MCP client made no tool call for ${Math.round(idleMs / 1000)} s` }), idleMs);
    idle.unref();
  };
  const onAbort = () => end({ outcome: "interrupted", reason: "the MCP client disconnected or the server stopped" });
  signal.addEventListener("abort", onAbort, { once: true });
  if (signal.aborted) onAbort();
  poke();
  return {
    ended,
    end,
    poke,
    over: () => over,
    dispose: () => {
      if (idle) clearTimeout(idle);
      signal.removeEventListener("abort", onAbort);
    },
  };
}

export class McpAgentPhase implements Phase<Affordable, Proposed> {
  readonly name = "agent";
  constructor(
    private readonly opts: {
      /** Called once the run is open and its tools take calls. */
      onOpen: (live: LiveTools) => void;
      /** The run ends when the client makes no call for this long (ms). */
      idleMs: number;
      /** The client's name and version, as it introduced itself. */
      task: string;
    },
  ) {}

  async run(ctx: Affordable): Promise<Stop | Proposed> {
    const { deps } = ctx;
    const { sink, signal } = deps;
    const { runtime, submit } = agentTools(ctx);
    const finalTools = new Set(runtime.contracts.filter((c) => c.kind === "final").map((c) => c.name));
    const dryRunTools = new Set(runtime.contracts.filter((c) => c.kind === "dry_run").map((c) => c.name));
    const transcript: Message[] = [{ role: "user", content: [{ type: "text", text: this.opts.task }] }];
    let turns = 0;
    let lastPending = "[]";
    let queue: Promise<unknown> = Promise.resolve();
    const stops = stopsOf(signal, this.opts.idleMs);
    const { end } = stops;
    const callOnce = async (name: string, args: unknown): Promise<McpToolAnswer> => {
      if (stops.over()) throw new Error("the run's agent phase has ended");
      stops.poke();
      turns += 1;
      const turn = turns;
      // Arguments nested too deep are replaced before anything walks them; then redacted, as the loop keeps a model's.
      const input = redactValue(nestsDeeperThan(args) ? tooDeepStandIn() : (args ?? {}));
      const use: ToolUseBlock = { type: "tool_use", id: `mcp_${String(turn).padStart(4, "0")}`, name, input };
      transcript.push({ role: "assistant", content: [use] });
      const emit = (e: RunEventBody) => sink.emit(e);
      const gen = dispatchTurn({ runtime, turn, uses: [use], finalTools, dryRunTools, signal, submitState: submit.state });
      let step = await gen.next();
      for (; !step.done; step = await gen.next()) emit(step.value);
      const { content, submitted } = step.value;
      const pendingKey = JSON.stringify(runtime.pending());
      if (pendingKey !== lastPending) {
        lastPending = pendingKey;
        emit({ type: "tool.pending", pending: runtime.pending() });
      }
      transcript.push({ role: "user", content });
      const block = content[0] as ToolResultBlock;
      if (submitted) {
        const proposal = proposalFrom(submitted, submit.state);
        emit({ type: "proposal", orders: proposal.orders, summary: proposal.summary, decisions: proposal.decisions, abandoned: proposal.abandoned });
        const outcome = proposal.orders.length === 0 ? "hold" : "submitted";
        end({ outcome, reason: `submit_orders with ${proposal.orders.length} order(s) on call ${turn}`, proposal });
      } else {
        const repeated = runtime.repeatedRefusal();
        if (repeated)
          end({
            outcome: "repair_budget",
            reason: `the client repeated a refused call unchanged: ${repeated.tool} was refused ${repeated.refusals} times (${repeated.error_code})`,
          });
      }
      return { text: String(block.content), isError: block.is_error === true, submitted: submitted !== undefined };
    };
    // One call at a time, in the order they came: the runtime's state (limits, pending, grounding) is the run's.
    const call = (name: string, args: unknown): Promise<McpToolAnswer> => {
      const next = queue.then(() => callOnce(name, args));
      queue = next.catch(() => undefined);
      return next;
    };
    this.opts.onOpen({ runId: ctx.runId, tradingDay: ctx.tradingDay, call });
    const ending = await stops.ended;
    stops.dispose();
    await queue;
    return this.close(ctx, ending, transcript, turns);
  }

  /** As the agent phase closes: agent.finished, the transcript, the standing orders, the stop or the proposal. */
  private async close(ctx: Affordable, ending: Ending, transcript: Message[], turns: number): Promise<Stop | Proposed> {
    const { deps } = ctx;
    const { sink, journal } = deps;
    sink.emit({ type: "agent.finished", outcome: ending.outcome, reason: ending.reason, turns, cost_usd: 0 });
    const result: AgentResult = { outcome: ending.outcome, reason: ending.reason, transcript, usage: [], cost_usd: 0, turns };
    if (ending.proposal) result.proposal = ending.proposal;
    ctx.progress.agentResult = result;
    writeJsonAtomic(ctx.paths.transcript, { run_id: ctx.runId, system: MCP_SYSTEM, messages: transcript }, journal.durable);
    if (ending.outcome === "interrupted")
      return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted during the MCP session (the client disconnected or the server stopped); nothing placed");
    await approveProposedStanding({ journal, runId: ctx.runId, approver: deps.approver, emit: (e) => sink.emit(e), now: ctx.now, signal: deps.signal });
    if (!ending.proposal) return new Stop("no_trades", EXIT.OK, `no proposal: ${ending.reason}`);
    return { ...ctx, proposal: { orders: ending.proposal.orders, summary: ending.proposal.summary, transcript } };
  }
}
