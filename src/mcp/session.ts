/**
 * An MCP session's runs. The first tool call opens a run exactly as `tradewarden run` does (the
 * home's lock, the services with the paper guard, the daily run's phases: preflight, recovery and
 * reconcile, value and peak, kill switch, standing orders, budget), with the client's model in the
 * agent's place (./agent-phase.ts); every call is then one of that run's events. submit_orders
 * ends the run's agent phase: the proposal goes to the decision phase, where nobody can approve it
 * from here (./approver.ts), so it is recorded as awaiting the operator and the run closes (its
 * lock released, so the operator's `tradewarden approve` can run). While that proposal awaits the
 * operator no new run is opened (it would expire the proposal); get_proposal_status between runs
 * is answered from the journal (`tools call`'s path: the same runtime, on a throwaway copy).
 * Closing the session (the client gone, the server stopped) stops an open run as interrupted.
 */
import { loopbackAllowedForTests } from "../broker/loopback.js";
import { TwError } from "../core/errors.js";
import { acquireLock, type LockHandle } from "../journal/lock.js";
import { openJournal } from "../journal/journal.js";
import { proposalStatus } from "../journal/proposal-status.js";
import { requireConfig } from "../config/require.js";
import { EventSink } from "../run/event-sink.js";
import { dailyPhasesWith, runDaily, type RunSummary } from "../run/pipeline.js";
import { type AccountServices, accountDeps, createAccountServices } from "../run/services.js";
import { createResearchSetup } from "../research/setup.js";
import type { ResearchSetup } from "../research/search.js";
import { callTool } from "../run/tool-call.js";
import { McpAgentPhase, type LiveTools } from "./agent-phase.js";
import { McpApprover, mcpModel } from "./approver.js";
import { type McpAnswer, refusal, submittedAnswer, toolAnswer } from "./answers.js";

export interface SessionOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  /** The client's name and version, as it introduced itself (read when a run opens). */
  client: () => string;
  /** A run ends when the client makes no call for this long (ms). */
  idleMs: number;
  /** Told what a journal open repaired (the command's stderr). */
  notice: (message: string) => void;
}

/** What a run of the session needs: the account's services and the research; no model (the client brings its own). */
interface RunServices extends AccountServices {
  research: ResearchSetup;
}

interface OpenRun {
  live: LiveTools;
  done: Promise<RunSummary>;
  controller: AbortController;
  services: RunServices;
}

/** The day a tool called between runs answers as of (the simulated broker's next day is read by `tools call` itself). */
function asOfBetweenRuns(home: string): { asOf?: string } {
  const { config } = requireConfig(home);
  return config.broker.kind === "sim" ? {} : { asOf: new Date().toISOString().slice(0, 10) };
}

export class McpSession {
  private current: OpenRun | null = null;
  private opening: Promise<OpenRun | McpAnswer> | null = null;
  /** The run of this session whose proposal was left awaiting the operator, if any. */
  private awaitingRun: string | null = null;
  private closed = false;

  constructor(private readonly opts: SessionOptions) {}

  /** One tool call from the client: through the open run (opened on demand), or answered between runs. */
  async call(name: string, args: unknown): Promise<McpAnswer> {
    if (this.closed) return refusal("session_closed", "this MCP session is closing; nothing was run");
    if (!this.current && name === "get_proposal_status") return this.betweenRuns(name, args);
    if (!this.current) {
      const pending = await this.pendingProposal();
      if (pending) return pending;
      this.opening ??= this.openRun().finally(() => {
        this.opening = null;
      });
      const opened = await this.opening;
      if (!("live" in opened)) return opened;
    }
    const run = this.current;
    if (!run) return refusal("run_closed", "the run closed before this call could be made; call again to open a new run");
    let answer: Awaited<ReturnType<LiveTools["call"]>>;
    try {
      answer = await run.live.call(name, args);
    } catch {
      const summary = await run.done;
      return refusal("run_closed", `run ${summary.runId} had closed (${summary.outcome}: ${summary.message}); call again to open a new run`);
    }
    if (!answer.submitted) return toolAnswer(answer);
    const summary = await run.done;
    if (summary.outcome === "awaiting_approval") this.awaitingRun = summary.runId;
    return submittedAnswer(answer, summary, run.services.journal, this.opts.home);
  }

  /** Stops an open run as interrupted (nothing is placed from here in any case) and waits for it to close. */
  async close(): Promise<RunSummary | null> {
    this.closed = true;
    if (this.opening) await this.opening;
    const run = this.current;
    if (!run) return null;
    run.controller.abort(new TwError("interrupted", "the MCP client disconnected or the server stopped"));
    return run.done;
  }

  /** The open run's id and day, if any (for resources). */
  openRunInfo(): { runId: string; tradingDay: string } | null {
    return this.current ? { runId: this.current.live.runId, tradingDay: this.current.live.tradingDay } : null;
  }

  /** A proposal of this session still awaiting the operator: a new run would expire it, so none is opened. */
  private async pendingProposal(): Promise<McpAnswer | null> {
    if (!this.awaitingRun) return null;
    const { config } = requireConfig(this.opts.home);
    const journal = await openJournal(this.opts.home, {
      timezone: config.account.timezone,
      readOnly: true,
      reducingRunsAfterReset: config.limits.reducing_runs_after_reset,
      notice: this.opts.notice,
    });
    const status = proposalStatus(journal, this.awaitingRun);
    if (status.status !== "awaiting_approval") {
      this.awaitingRun = null;
      return null;
    }
    return refusal(
      "proposal_pending",
      `the proposal of run ${this.awaitingRun} awaits the operator; a new run now would expire it, so none is opened. Call get_proposal_status to learn what the operator decided; once it is decided, tool calls open a new run.`,
    );
  }

  /** get_proposal_status with no run open: the same runtime as a run's, on a throwaway copy of the journal. */
  private async betweenRuns(name: string, args: unknown): Promise<McpAnswer> {
    try {
      const report = await callTool({
        home: this.opts.home,
        tool: name,
        args: JSON.stringify(args ?? {}),
        env: this.opts.env,
        ...asOfBetweenRuns(this.opts.home),
      });
      return toolAnswer({ text: report.outcome.text, isError: !report.outcome.success, submitted: false });
    } catch (e) {
      return refusal(e instanceof TwError ? e.code : "internal_error", e instanceof Error ? e.message : String(e));
    }
  }

  /** Opens a run: the lock, the services, the daily run's phases up to the client's agent phase. */
  private async openRun(): Promise<OpenRun | McpAnswer> {
    let lock: LockHandle;
    try {
      lock = await acquireLock(this.opts.home, "mcp", { command: `tradewarden mcp (client ${this.opts.client()})` });
    } catch (e) {
      if (e instanceof TwError) return refusal(e.code === "locked" ? "home_locked" : e.code, e.message);
      throw e;
    }
    let services: RunServices;
    try {
      // Research first (a missing search key refuses before anything opens), then the account: the paper guard before any broker I/O.
      const { config } = requireConfig(this.opts.home);
      const research = createResearchSetup(config.research, { env: this.opts.env, historical: config.broker.kind === "sim" });
      services = { ...(await createAccountServices(this.opts.home, this.opts.env, { notice: this.opts.notice })), research };
      services.secretsRead = [...services.secretsRead, ...research.secretsRead];
    } catch (e) {
      await lock.release();
      if (e instanceof TwError) return refusal(e.code, `the run could not start: ${e.message}`);
      throw e;
    }
    return this.startRun(lock, services);
  }

  private async startRun(lock: LockHandle, services: RunServices): Promise<OpenRun | McpAnswer> {
    const controller = new AbortController();
    let opened: (live: LiveTools) => void = () => {};
    const live = new Promise<LiveTools>((resolve) => {
      opened = resolve;
    });
    const phase = new McpAgentPhase({
      onOpen: opened,
      idleMs: this.opts.idleMs,
      task: `MCP session of client ${this.opts.client()}: the client's model works the trading day through tradewarden's tools`,
    });
    const done = runDaily(
      {
        home: this.opts.home,
        mode: "paper",
        ...accountDeps(services),
        openSession: services.openSession,
        model: mcpModel(this.opts.client()),
        approver: new McpApprover(),
        sink: new EventSink(),
        signal: controller.signal,
        secretsRead: services.secretsRead,
        allowLoopbackBroker: loopbackAllowedForTests(),
        research: services.research,
      },
      dailyPhasesWith(phase),
    ).finally(async () => {
      this.current = null;
      await lock.release();
    });
    const first = await Promise.race([live, done]);
    if ("call" in first) {
      this.current = { live: first, done, controller, services };
      return this.current;
    }
    return refusal(
      "run_stopped",
      `run ${first.runId} stopped before the tools opened: ${first.outcome} (exit ${first.exitCode}): ${first.message}; nothing was placed`,
    );
  }
}
