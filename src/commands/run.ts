/**
 * `tradewarden run`: the daily run. Takes the home's lock, builds the services, picks the front end
 * (the Ink console when stdin and stdout are terminals and neither --yes nor --json is given; the
 * headless printer otherwise), wires SIGINT/SIGTERM/SIGHUP to the run's AbortSignal, and returns the
 * run's exit code.
 */
import { noticeTo } from "../journal/load.js";
import { loopbackAllowedForTests } from "../broker/loopback.js";
import { existsSync, readFileSync } from "node:fs";
import { acquireLock, type LockHandle } from "../journal/lock.js";
import { AutoApprover, type Approver, NonInteractiveApprover } from "../run/approval.js";
import { EventSink } from "../run/event-sink.js";
import { EXIT } from "../core/exit-codes.js";
import { createHeadlessPrinter } from "../printers/headless.js";
import { notifyRunOutcome } from "../run/notify-run.js";
import { type RunSummary, runDaily } from "../run/pipeline.js";
import { createRunServices, accountDeps, type RunServices } from "../run/services.js";
import { checkSession, findPendingProposal, resumeDeps } from "../run/approve-pending.js";
import type { RunMode } from "../core/domain.js";
import { TwError } from "../core/errors.js";
import type { CommandIO } from "./io.js";
import { installInterruptHandlers } from "./interrupts.js";
import { faultPoint } from "../util/test-fault.js";

export interface RunCommandOptions {
  home: string;
  yes: boolean;
  json: boolean;
  mode: RunMode;
  /** `tradewarden approve [RUN]`: decide the proposal awaiting approval instead of asking the model. */
  approve?: { runId?: string };
  /** `tradewarden tick`: a scheduled run with the id the tick chose, inside the home's lock the tick already holds. */
  scheduled?: { lock: LockHandle; runId: string };
}

export interface Terminal {
  interactive: boolean;
  colour: boolean;
}

export interface ConsoleFrontEnd {
  approver: Approver;
  attach(sink: EventSink, onInterrupt: () => void): void;
  finish(): Promise<void>;
}

export function terminalOf(env: NodeJS.ProcessEnv): Terminal {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const noColour = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return { interactive, colour: process.stdout.isTTY === true && !noColour };
}

export async function cmdRun(opts: RunCommandOptions, io: CommandIO, term: Terminal, makeConsole?: () => Promise<ConsoleFrontEnd>): Promise<number> {
  try {
    return await runLocked(opts, io, term, makeConsole);
  } catch (e) {
    // With --json, a run refused before it started still answers on stdout, as one JSON line.
    if (opts.json && e instanceof TwError) io.stdout(`${JSON.stringify({ type: "run.refused", code: e.code, message: e.message, exit_code: e.exitCode })}\n`);
    throw e;
  }
}

async function runLocked(opts: RunCommandOptions, io: CommandIO, term: Terminal, makeConsole?: () => Promise<ConsoleFrontEnd>): Promise<number> {
  faultPoint("run.start");
  const sink = new EventSink();
  const useConsole = term.interactive && !opts.yes && !opts.json && makeConsole !== undefined;
  // Claimed before the lock is taken: a signal during start-up stops the run safely too. On the
  // console the interrupt is said in the console (a write to stderr under Ink's live region would
  // leave its old frame on screen).
  const interrupts = installInterruptHandlers(io, useConsole ? (message) => sink.emit({ type: "run.note", level: "warn", message }) : undefined);
  const { controller, onSignal } = interrupts;
  let consoleUi: ConsoleFrontEnd | null = null;
  let lock: LockHandle | null = null;
  try {
    faultPoint("run.claimed");
    if (!opts.scheduled) lock = await acquireLock(opts.home, "run");
    const services = await createRunServices(opts.home, io.env, { notice: noticeTo(io.stderr) });
    faultPoint("run.services");
    // `approve`: the pending proposal and its session are checked before anything is shown.
    const resumed = opts.approve ? await resumeApproval(opts.home, opts.approve.runId, services, !opts.yes && !useConsole) : null;
    let approver: Approver;
    if (useConsole && makeConsole) {
      consoleUi = await makeConsole();
      consoleUi.attach(sink, () => onSignal("SIGINT"));
      approver = consoleUi.approver;
    } else {
      const printer = createHeadlessPrinter({ json: opts.json, color: term.colour && !opts.json, write: (s) => io.stdout(s) });
      sink.subscribe(printer.onEvent);
      approver = opts.yes ? new AutoApprover() : new NonInteractiveApprover();
    }
    const summary = await runDaily({
      home: opts.home,
      mode: opts.mode,
      ...accountDeps(services),
      openSession: resumed ? resumed.openSession : services.openSession,
      model: services.model,
      approver,
      sink,
      signal: controller.signal,
      secretsRead: services.secretsRead,
      allowLoopbackBroker: loopbackAllowedForTests(),
      ...(resumed ? { resume: resumed.resume } : {}),
      research: services.research,
      ...(opts.scheduled ? { trigger: "scheduled", runId: opts.scheduled.runId } : {}),
    });
    if (consoleUi) {
      await consoleUi.finish();
      consoleUi = null;
      io.stdout(`run ${summary.runId}: ${summary.outcome} (exit ${summary.exitCode}): ${summary.message}\n`);
    }
    await announce(opts.home, io, services, summary, sink);
    if (opts.json) {
      const cycle = `${summary.runDir}/research-cycle.json`;
      if (existsSync(cycle)) io.stdout(`${JSON.stringify(JSON.parse(readFileSync(cycle, "utf8")))}\n`);
    } else if (summary.exitCode === EXIT.INTERNAL_ERROR) {
      io.stderr(`tradewarden: ${summary.message}\n`);
    }
    return summary.exitCode;
  } finally {
    if (consoleUi) await consoleUi.finish();
    await lock?.release();
    interrupts.dispose();
  }
}

/** `approve`'s pending proposal and session, checked before anything is shown; refused without a way to decide. */
async function resumeApproval(home: string, runId: string | undefined, services: RunServices, cannotDecide: boolean): Promise<ReturnType<typeof resumeDeps>> {
  const pending = findPendingProposal(services.journal, runId);
  const clock = async () => {
    const c = await services.broker.clock();
    return { tradingDay: c.tradingDay, isOpen: c.isOpen };
  };
  checkSession(pending, await clock());
  const resumed = resumeDeps(home, pending, clock);
  // `approve` exists to decide: without the approval screen and without --yes it would only record
  // the same proposal as awaiting approval once more (a second run for the day). Refused once
  // the proposal and its session are known to be decidable (those refusals say more), before the run starts.
  if (cannotDecide) {
    throw new TwError(
      "approval_needs_terminal",
      "approve needs a terminal for the approval screen, or --yes to approve exactly the orders the final gate approves (`tradewarden approve [RUN] --yes`); nothing was started",
      EXIT.USAGE_OR_CONFIG,
    );
  }
  return resumed;
}

/** The run's notice to the [notify] channels (after the console has closed); a failed channel is said on stderr, never fails the run. */
async function announce(home: string, io: CommandIO, services: RunServices, summary: RunSummary, sink: EventSink): Promise<void> {
  if (services.config.notify.channels.length === 0) return;
  let sessionCloses: string | null = null;
  if (summary.outcome === "awaiting_approval") {
    const c = await services.broker.clock().catch(() => null);
    sessionCloses = c?.isOpen && c.nextClose ? c.nextClose : null;
  }
  const r = await notifyRunOutcome({
    home,
    env: io.env,
    notify: services.config.notify,
    summary,
    events: sink.events,
    sessionCloses,
    currency: services.config.account.base_currency,
  });
  for (const d of r?.deliveries ?? [])
    if (!d.ok) io.stderr(`tradewarden: notification to ${d.channel} failed: ${d.detail} (recorded; see tradewarden doctor)\n`);
  if (r?.warning) io.stderr(`tradewarden: ${r.warning}\n`);
}

export { installInterruptHandlers } from "./interrupts.js";
