/**
 * The daily run: one pipeline, many front ends.
 *
 *   preflight ─► reconcile ─► value & peak ─► kill-switch check ─► quota & budget checks
 *     ─► agent loop ─► proposal ─► operator decision [Approver] ─► final gate ─► executor ─► close
 *
 * Every phase emits typed run events through the EventSink; every stop is recorded with its reason
 * and maps to one exit code. Nothing reaches the broker except orders approved by the final gate
 * (on fresh state) and the operator — kill-switch liquidation excepted, which is the point of it.
 */
import { existsSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { Instrument, ProposedOrder, RunMode, TradingState } from "../core/domain.js";
import type { Config } from "../config/types.js";
import type { Broker } from "../broker/types.js";
import { assertPaperAccount, assertPaperEndpoint } from "../broker/guard.js";
import type { Journal } from "../journal/journal.js";
import { reconcile } from "../journal/reconcile.js";
import { makeJournalToolHandlers } from "../journal/tool-handlers.js";
import type { MarketData } from "../market/data.js";
import { makeMarketToolHandlers } from "../market/tools.js";
import { evaluate, drawdownPct, killSwitchTriggered, portfolioValue } from "../gate/evaluate.js";
import { liquidation } from "../gate/liquidation.js";
import { makeCheckOrdersHandler } from "../gate/check-orders-handler.js";
import type { GateDecision, GateOrder, OpenOrder } from "../core/gate-types.js";
import { runAgent, type AgentResult } from "../agent/loop.js";
import { makeSubmitHandler } from "../agent/submit.js";
import { buildSystemPrompt, buildTaskMessage } from "../agent/prompt.js";
import { CASSETTE_FORMAT, RecordingClient, fileSink } from "../agent/cassette.js";
import type { ModelSetup } from "../agent/factory.js";
import { agentLimitsFrom } from "../agent/factory.js";
import { buildToolRuntime } from "../tools/runtime.js";
import { CONTRACT_VERSION } from "../tools/catalogue.js";
import { execute } from "../executor/execute.js";
import { TwError } from "../core/errors.js";
import { homePaths, packageVersion } from "../util/paths.js";
import { alignDecisions, type Approver, approvalOutsideProposal, ordersHash } from "./approval.js";
import { ensureRunDir, writeJsonAtomic, type ArtifactPaths } from "./artifacts.js";
import type { EventSink } from "./event-sink.js";
import type { RunEventBody, RunOutcome } from "../core/events.js";
import { EXIT, type ExitCode } from "../core/exit-codes.js";
import { buildGateInputs, type GateInputSnapshot } from "./gate-inputs.js";
import { limitsOf } from "../config/load.js";
import { fxToBaseOf } from "../config/fx.js";
import { buildResearchCycle, validateResearchCycle } from "./research-cycle.js";
import { accountValue } from "./valuation.js";
import { type SessionClock, wallClock } from "./session-clock.js";

export interface Session {
  tradingDay: string;
  isOpen: boolean;
}

export interface PipelineDeps {
  home: string;
  mode: RunMode;
  config: Config;
  universe: Instrument[];
  journal: Journal;
  broker: Broker;
  /** Opens the run's session: the simulated broker moves to its next unplayed day; a real one reads its clock. */
  openSession: () => Promise<Session>;
  /** The session's close (the simulated broker expires what is still working and marks the day played). */
  closeSession?: () => Promise<void>;
  market: MarketData;
  model: ModelSetup & { id: string };
  approver: Approver;
  sink: EventSink;
  signal: AbortSignal;
  /** Names of the secret environment variables read (never their values). */
  secretsRead: string[];
  now?: () => Date;
  /** Executor timing overrides (tests, simulations). */
  executorSleep?: (ms: number) => Promise<void>;
  /** Accept a loopback Alpaca endpoint (tests against a loopback fake only). */
  allowLoopbackBroker?: boolean;
  /** The session's clock (orders are filed, and the monthly quota counted, by it); default: the wall clock. */
  sessionClock?: SessionClock;
  /** A preset run id (tests); default: time + random. */
  runId?: string;
}

export interface RunSummary {
  runId: string;
  outcome: RunOutcome;
  exitCode: ExitCode;
  message: string;
  tradingDay: string;
  runDir: string;
}

const NO_COMMISSION = { commission_per_share: 0, commission_min: 0, commission_max_pct: 0 };

export function newRunId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

class Stop {
  constructor(
    readonly outcome: RunOutcome,
    readonly exitCode: ExitCode,
    readonly message: string,
  ) {}
}

export async function runDaily(deps: PipelineDeps): Promise<RunSummary> {
  const now = deps.now ?? (() => new Date());
  const { journal, broker, config, sink, signal } = deps;
  const runId = deps.runId ?? newRunId(now());
  sink.runId = runId;
  const runDir = homePaths(deps.home).runDir(runId);
  const paths: ArtifactPaths = ensureRunDir(runDir);
  sink.attachFile(paths.events);
  const endpoint = broker.endpoint();
  const endpointKind = endpoint.kind === "sim" ? "simulated" : "alpaca_paper";

  let tradingDay = "";
  let started = false;
  let agentResult: AgentResult | null = null;
  let stop: Stop;

  try {
    stop = await phases();
  } catch (e) {
    if (e instanceof Stop) stop = e;
    else if (e instanceof TwError) {
      const outcome: RunOutcome = e.exitCode === EXIT.BROKER_OR_DATA_UNAVAILABLE ? "broker_unavailable" : "error";
      sink.emit({ type: "run.note", level: "warn", message: `${e.code}: ${e.message}` });
      stop = new Stop(outcome, e.exitCode, e.message);
    } else {
      const message = e instanceof Error ? e.message : String(e);
      sink.emit({ type: "run.note", level: "warn", message: `internal error: ${message}` });
      stop = new Stop("error", EXIT.INTERNAL_ERROR, `internal error: ${message}`);
    }
  }
  return close(stop);

  async function phases(): Promise<Stop> {
    // ── preflight: paper guard before any I/O, broker reachable, account is paper and may trade.
    try {
      assertPaperEndpoint(endpoint, { allowLoopback: deps.allowLoopbackBroker === true });
    } catch (e) {
      sink.emit({ type: "preflight.failed", code: "not_paper", message: (e as Error).message });
      return new Stop("error", EXIT.USAGE_OR_CONFIG, (e as Error).message);
    }
    let account: Awaited<ReturnType<Broker["account"]>>;
    let session: Session;
    try {
      account = await broker.account();
      assertPaperAccount(endpoint, account);
      session = await deps.openSession();
    } catch (e) {
      const code = e instanceof TwError ? e.code : "broker_unreachable";
      sink.emit({ type: "preflight.failed", code, message: (e as Error).message });
      const exit = e instanceof TwError && e.exitCode !== EXIT.INTERNAL_ERROR ? e.exitCode : EXIT.BROKER_OR_DATA_UNAVAILABLE;
      return new Stop("broker_unavailable", exit, `broker not ready: ${(e as Error).message}`);
    }
    tradingDay = session.tradingDay;
    const sessionNow = (deps.sessionClock ?? wallClock)(tradingDay);
    const firstUse = !journal.isInitialised();
    if (firstUse) {
      await journal.init({ capital: config.account.capital, currency: config.account.base_currency, at: now() });
    } else if (journal.baseCurrency() !== config.account.base_currency) {
      throw new TwError("currency_mismatch", `the journal's base currency is ${journal.baseCurrency()} but the config says ${config.account.base_currency}`, EXIT.USAGE_OR_CONFIG);
    }
    const { aborted } = await journal.startRun({
      run_id: runId,
      mode: deps.mode,
      trading_day: tradingDay,
      at: now(),
      model: { provider: deps.model.provider, id: deps.model.id },
      broker: { kind: endpoint.kind, account_id: account.account_id, endpoint: endpoint.url },
    });
    started = true;
    sink.emit({
      type: "run.started",
      run_id: runId,
      mode: deps.mode,
      trading_day: tradingDay,
      model: { provider: deps.model.provider, id: deps.model.id },
      broker: { kind: endpoint.kind, account_id: account.account_id, endpoint: endpoint.url },
      base_currency: config.account.base_currency,
    });
    if (firstUse) sink.emit({ type: "run.note", level: "info", message: `journal opened with capital ${config.account.capital} ${config.account.base_currency} (first use)` });
    for (const id of aborted) sink.emit({ type: "run.note", level: "warn", message: `run ${id} had been left running by a process that is gone; closed as aborted` });
    if (account.trading_blocked) return new Stop("broker_unavailable", EXIT.BROKER_OR_DATA_UNAVAILABLE, "the broker account is blocked from trading");

    // ── reconcile: journal holdings must equal broker positions, and no unknown open orders.
    const [positions, brokerOpen] = await Promise.all([broker.positions(), broker.openOrders()]);
    // Any open order at the broker stops the run (an order still working after a cancel included).
    const differences = reconcile(journal.holdings(), positions, brokerOpen, { tolerance: 1e-6 });
    if (differences.length > 0) {
      sink.emit({ type: "reconcile.failed", differences });
      return new Stop("reconcile_failed", EXIT.RECONCILE_FAILED, `journal and broker disagree (${differences.length} difference(s)); nothing placed`);
    }
    sink.emit({ type: "reconcile.ok", positions: positions.length });

    // ── value & peak.
    const fxToBase = fxToBaseOf(config);
    const prices = deps.market.asOf(tradingDay, { universe: deps.universe, baseCurrency: config.account.base_currency, fxToBase });
    const { value, unpriced } = accountValue(journal, prices);
    if (unpriced.length > 0) {
      return new Stop("data_unavailable", EXIT.BROKER_OR_DATA_UNAVAILABLE, `no reference price before ${tradingDay} for held ${unpriced.join(", ")}`);
    }
    const { peak } = await journal.observeFirstValuation(runId, value, now());
    const maxDd = config.limits.max_drawdown_pct;
    const openOrders: OpenOrder[] = brokerOpen.map((o) => ({ symbol: o.symbol, side: o.side, quantity: o.quantity - o.filled_quantity, limit_price: o.limit_price }));
    const inputs = (): GateInputSnapshot =>
      buildGateInputs({
        facts: {
          cash: journal.cash(),
          holdings: journal.holdings(),
          peak: journal.peak() ?? value,
          ordersThisMonth: journal.ordersThisMonth(sessionNow()),
          tradingState: journal.tradingState(),
        },
        openOrders,
        prices,
        universe: deps.universe,
        limits: limitsOf(config),
        // The simulated broker's fee schedule; a real paper broker (Alpaca) charges none.
        schedule: config.broker.kind === "sim" ? config.broker.sim : NO_COMMISSION,
        tradingDay,
      });
    emitValuation(value, peak, true);

    // ── kill switch: halted, or a trip now.
    const state = journal.tradingState();
    if (state === "HALTED") {
      if (deps.mode === "paper" && session.isOpen) await liquidate(inputs(), "trading is halted: selling what is still held");
      return new Stop("halted", EXIT.HALTED_OR_TRIPPED, "trading is halted by the kill switch; reset it with `tradewarden killswitch`");
    }
    if (killSwitchTriggered(value, peak, maxDd)) {
      const dd = drawdownPct(value, peak);
      const reason = `drawdown ${dd.toFixed(2)}% from peak ${peak.toFixed(2)} reached the ${maxDd}% limit (value ${value.toFixed(2)})`;
      await trip(inputs(), reason, deps.mode === "paper" && session.isOpen);
      return new Stop("tripped", EXIT.HALTED_OR_TRIPPED, `kill switch tripped: ${reason}`);
    }
    if (!session.isOpen) return new Stop("no_trades", EXIT.OK, `the market is closed for ${tradingDay}; a DAY order now would queue for the next session, so nothing is proposed`);

    // ── quota & budget: the model is not called when either is used up.
    const used = journal.ordersThisMonth(sessionNow());
    if (used >= config.limits.max_orders_per_month) {
      return new Stop("quota_exhausted", EXIT.OK, `the monthly order quota is used up (${used} of ${config.limits.max_orders_per_month}); the model was not called`);
    }
    const spent = journal.spendThisMonth(now());
    if (spent >= config.model.monthly_budget_usd) {
      return new Stop("spend_cap_reached", EXIT.OK, `this month's LLM spend ${spent.toFixed(4)} USD reached the cap of ${config.model.monthly_budget_usd} USD; the model was not called`);
    }

    // ── agent loop.
    const evaluateOrders = (orders: ProposedOrder[]): GateDecision[] => {
      const g = inputs();
      return evaluate(toGateOrders(orders), g.state, g.market, g.limits, g.universe, { commission: g.commission }).decisions;
    };
    const submit = makeSubmitHandler({ evaluateOrders });
    const handlers = {
      ...makeJournalToolHandlers({
        journal,
        prices,
        limits: { max_orders_per_month: config.limits.max_orders_per_month, max_drawdown_pct: maxDd },
        now: sessionNow,
        runId,
        tradingDay,
      }),
      ...makeMarketToolHandlers({ market: deps.market, universe: deps.universe, tradingDay, baseCurrency: config.account.base_currency, fxToBase }),
      check_orders: makeCheckOrdersHandler(inputs),
      submit_orders: submit,
    };
    const runtime = buildToolRuntime(handlers, { runId, tradingDay });
    const system = buildSystemPrompt({
      limits: limitsOf(config),
      maxTurns: config.model.max_turns,
      toolCallLimits: Object.fromEntries(runtime.contracts.map((c) => [c.name, c.callLimit])),
    });
    const task = buildTaskMessage({ tradingDay });
    const client = new RecordingClient(deps.model.client, {
      sink: fileSink(paths.cassette),
      contractVersion: CONTRACT_VERSION,
    });
    const gen = runAgent({
      client,
      runtime,
      system,
      task,
      limits: agentLimitsFrom(config.model, spent),
      price: deps.model.price,
      signal,
      submitState: submit.state,
    });
    for (;;) {
      const step = await gen.next();
      if (step.done) {
        agentResult = step.value;
        break;
      }
      sink.emit(step.value);
    }
    for (const u of agentResult.usage) await journal.recordUsage(runId, { model: u.model, usage: u.usage, cost_usd: u.cost_usd, at: now() });
    writeJsonAtomic(paths.transcript, { run_id: runId, system, messages: agentResult.transcript });

    if (agentResult.outcome === "interrupted") return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted during the agent loop; nothing placed");
    const proposal = agentResult.proposal;
    if (!proposal) return new Stop("no_trades", EXIT.OK, `no proposal: ${agentResult.reason}`);

    // ── proposal.
    const decisions = proposal.orders.length > 0 ? alignDecisions(proposal.orders, evaluateOrders(proposal.orders)) : [];
    // The agent loop has emitted the `proposal` event; these verdicts are re-aligned with the orders for the operator.
    await journal.recordProposal(runId, { orders: proposal.orders, summary: proposal.summary, decisions, at: now() });
    if (proposal.orders.length === 0) return new Stop("hold", EXIT.OK, "the model proposed to hold");
    if (deps.mode === "observe") {
      sink.emit({ type: "approval.decided", decision: "none", by: "none", orders: [], orders_hash: ordersHash([]), reason: "observe mode places nothing" });
      return new Stop("observed", EXIT.OK, "observe mode: proposal recorded, nothing placed");
    }

    // ── operator decision.
    const hash = ordersHash(proposal.orders);
    sink.emit({ type: "approval.requested", orders_hash: hash, approvable: decisions.filter((d) => d.approved).length, blocked: decisions.filter((d) => !d.approved).length });
    const snapshot = inputs();
    const positionValues: Record<string, number> = {};
    for (const [symbol, h] of Object.entries(snapshot.state.holdings)) {
      const q = snapshot.market[symbol];
      if (q) positionValues[symbol] = h.quantity * q.price * (q.fx_to_base ?? 1);
    }
    const decision = await deps.approver.decide({
      runId,
      summary: proposal.summary,
      orders: proposal.orders,
      decisions,
      regate: (orders) => alignDecisions(orders, evaluateOrders(orders)),
      signal,
      portfolioValue: value,
      referencePrices: Object.fromEntries(Object.entries(snapshot.market).map(([s, q]) => [s, q.price])),
      positionValues,
      baseCurrency: config.account.base_currency,
    });
    if (signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted before execution; nothing placed");
    switch (decision.kind) {
      case "awaiting":
        sink.emit({ type: "approval.decided", decision: "awaiting", by: "none", orders: proposal.orders, orders_hash: hash, reason: decision.reason });
        await journal.recordApproval(runId, { decision: "awaiting", by: "none", orders_hash: hash, reason: decision.reason, orders: proposal.orders, at: now() });
        return new Stop("awaiting_approval", EXIT.APPROVAL_REQUIRED, "approval required: the proposal is recorded as awaiting approval; nothing placed");
      case "reject":
        sink.emit({ type: "approval.decided", decision: "rejected", by: "operator", orders: [], orders_hash: hash, ...(decision.reason ? { reason: decision.reason } : {}) });
        await journal.recordApproval(runId, { decision: "rejected", by: "operator", orders_hash: hash, ...(decision.reason ? { reason: decision.reason } : {}), at: now() });
        return new Stop("rejected", EXIT.OK, `the operator rejected the proposal${decision.reason ? `: ${decision.reason}` : ""}`);
      case "killswitch": {
        sink.emit({ type: "approval.decided", decision: "killswitch", by: "operator", orders: [], orders_hash: hash, reason: decision.reason });
        await journal.recordApproval(runId, { decision: "killswitch", by: "operator", orders_hash: hash, reason: decision.reason, at: now() });
        await trip(inputs(), `operator tripped the kill switch: ${decision.reason}`, true);
        return new Stop("tripped", EXIT.HALTED_OR_TRIPPED, "the operator tripped the kill switch");
      }
      case "approve":
        break;
    }
    if (decision.orders_hash !== ordersHash(decision.orders)) {
      throw new TwError("approval_mismatch", "the approval does not bind to the orders it carries; nothing placed", EXIT.INTERNAL_ERROR);
    }
    const outside = approvalOutsideProposal(proposal.orders, decision.orders);
    if (outside) throw new TwError("approval_mismatch", `the approval goes beyond the proposal (${outside}); nothing placed`, EXIT.INTERNAL_ERROR);
    sink.emit({ type: "approval.decided", decision: "approved", by: decision.by, orders: decision.orders, orders_hash: decision.orders_hash, ...(decision.note ? { reason: decision.note } : {}) });
    await journal.recordApproval(runId, { decision: "approved", by: decision.by, orders_hash: decision.orders_hash, orders: decision.orders, at: now() });
    if (decision.orders.length === 0) return new Stop("no_trades", EXIT.OK, "no order was approved");

    // ── final gate on fresh state (the journal and the broker's open orders, re-read).
    const freshOpen = await broker.openOrders();
    openOrders.splice(0, openOrders.length, ...freshOpen.map((o) => ({ symbol: o.symbol, side: o.side, quantity: o.quantity - o.filled_quantity, limit_price: o.limit_price })));
    const g = inputs();
    const final = evaluate(toGateOrders(decision.orders), g.state, g.market, g.limits, g.universe, { commission: g.commission });
    sink.emit({ type: "gate.final", decisions: final.decisions });
    await journal.recordFinalGate(runId, final.decisions, now());
    const toSend = final.decisions.filter((d) => d.approved).map((d) => d.order);
    if (toSend.length === 0) return new Stop("no_trades", EXIT.OK, "the final gate approved no order; nothing placed");
    if (signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted before execution; nothing placed");

    // ── execute.
    await execute({
      runId,
      orders: toSend.map((o) => ({ symbol: o.symbol.toUpperCase(), side: String(o.side).toUpperCase() as "BUY" | "SELL", quantity: o.quantity, limit_price: o.limit_price })),
      broker,
      journal,
      config: config.executor,
      emit: (e: RunEventBody) => sink.emit(e),
      signal,
      now: () => sessionNow().getTime(),
      ...(deps.executorSleep ? { sleep: deps.executorSleep } : {}),
    });
    const after = accountValue(journal, prices).value;
    emitValuation(after, journal.peak() ?? peak, false);
    if (signal.aborted) return new Stop("interrupted", EXIT.INTERRUPTED, "interrupted during execution; what was sent was booked");
    return new Stop("executed", EXIT.OK, `${toSend.length} order(s) sent to the paper broker`);

    // Helpers closed over the run.
    function emitValuation(v: number, p: number, first: boolean): void {
      const used = journal.ordersThisMonth(sessionNow());
      sink.emit({
        type: "valuation",
        value: v,
        cash: journal.cash(),
        peak: p,
        drawdown_pct: drawdownPct(v, p),
        max_drawdown_pct: maxDd,
        trading_state: journal.tradingState() as TradingState,
        orders_used: used,
        orders_left: Math.max(0, config.limits.max_orders_per_month - used),
        first_of_run: first,
      });
    }

    async function liquidate(g: GateInputSnapshot, note: string): Promise<void> {
      const orders = liquidation(g.state, g.market, g.universe, config.limits.liquidation_discount_pct);
      if (orders.length === 0) return;
      sink.emit({ type: "run.note", level: "warn", message: `${note}: ${orders.length} sell order(s)` });
      await execute({
        runId,
        orders: orders.map((o) => ({ symbol: o.symbol, side: "SELL" as const, quantity: o.quantity, limit_price: o.limit_price })),
        broker,
        journal,
        config: config.executor,
        emit: (e: RunEventBody) => sink.emit(e),
        signal,
        liquidation: true,
        now: () => sessionNow().getTime(),
        ...(deps.executorSleep ? { sleep: deps.executorSleep } : {}),
      });
    }

    async function trip(g: GateInputSnapshot, reason: string, sell: boolean): Promise<void> {
      const v = portfolioValue(g.state, g.market);
      const p = g.state.peak;
      const orders = liquidation(g.state, g.market, g.universe, config.limits.liquidation_discount_pct);
      await journal.trip({ run_id: runId, at: now(), value: v, peak: p, drawdown_pct: drawdownPct(v, p), reason });
      sink.emit({
        type: "killswitch.tripped",
        value: v,
        peak: p,
        drawdown_pct: drawdownPct(v, p),
        limit_pct: maxDd,
        reason,
        liquidation: orders.map((o) => ({ symbol: o.symbol, side: "SELL", quantity: o.quantity, limit_price: o.limit_price, reason: o.reason ?? "kill switch", evidence_ids: [] })),
      });
      if (sell && deps.mode === "paper") await liquidate(g, "kill switch liquidation");
      else if (orders.length > 0) sink.emit({ type: "run.note", level: "warn", message: `observe mode or closed market: ${orders.length} liquidation order(s) not placed; the next run that can trade sells them` });
    }
  }

  async function close(s: Stop): Promise<RunSummary> {
    const cost = agentResult?.cost_usd ?? 0;
    if (tradingDay && deps.closeSession) {
      try {
        await deps.closeSession();
      } catch (e) {
        sink.emit({ type: "run.note", level: "warn", message: `could not close the broker session: ${(e as Error).message}` });
      }
    }
    sink.emit({ type: "run.finished", outcome: s.outcome, exit_code: s.exitCode, message: s.message, cost_usd: cost });
    if (started) {
      const status = s.outcome === "interrupted" ? "interrupted" : s.exitCode === EXIT.INTERNAL_ERROR ? "failed" : "completed";
      try {
        await journal.finishRun(runId, { status, outcome: s.outcome, exit_code: s.exitCode, message: s.message, at: now() });
      } catch (e) {
        sink.emit({ type: "run.note", level: "warn", message: `could not close the run in the journal: ${(e as Error).message}` });
      }
    }
    if (!agentResult) writeJsonAtomic(paths.transcript, { run_id: runId, system: null, messages: [] });
    const cycle = buildResearchCycle(sink.events, {
      runId,
      mode: deps.mode,
      tradingDay: tradingDay || "0000-00-00",
      generatedAt: now().toISOString(),
      version: packageVersion(),
      model: { provider: deps.model.provider, id: deps.model.id },
      broker: { kind: endpointKind, endpoint: endpoint.url },
      secretsRead: deps.secretsRead,
      marketData: "daily bars: the bundled data (the S&P 500 index and synthetic instruments derived from it) and bars imported into the home (CSV or Alpaca's market data API)",
    });
    const problems = validateResearchCycle(cycle);
    if (problems.length > 0) {
      writeJsonAtomic(`${paths.researchCycle}.invalid`, cycle);
      return { runId, outcome: "error", exitCode: EXIT.INTERNAL_ERROR, message: `the research-cycle envelope failed validation: ${problems.join("; ")}`, tradingDay, runDir };
    }
    writeJsonAtomic(paths.researchCycle, cycle);
    ensureCassette(paths, deps.model.id, now());
    return { runId, outcome: s.outcome, exitCode: s.exitCode, message: s.message, tradingDay, runDir };
  }
}

/** A run that never called the model still gets a cassette: its meta line and no calls. */
function ensureCassette(paths: ArtifactPaths, modelId: string, at: Date): void {
  if (!existsSync(paths.cassette)) {
    writeFileSync(paths.cassette, `${JSON.stringify({ type: "meta", format: CASSETTE_FORMAT, contract_version: CONTRACT_VERSION, model: modelId, created_at: at.toISOString() })}\n`);
  }
}

function toGateOrders(orders: readonly ProposedOrder[]): GateOrder[] {
  return orders.map((o) => ({ ...o }) as unknown as GateOrder);
}
