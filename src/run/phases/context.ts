/**
 * The run context, stage by stage: each phase takes what the phases before it established (a
 * typed value) and returns either a `Stop` (the run ends with that outcome and exit code) or what
 * it establishes, which the next phase takes: RunStart → Opened → Reconciled → Valued → Open →
 * Affordable → Proposed → Decided → Gated. The compiler keeps the order; no phase checks at run
 * time that an earlier one ran. Facts that change during the run (cash, holdings) are re-read from
 * the journal when needed; the broker's open orders are re-read into a new stage, never mutated.
 * Only `RunProgress` is written in place: what the close reports, however far the run got.
 */
import type { AgentResult } from "../../agent/loop.js";
import type { ModelSetup } from "../../agent/factory.js";
import type { Broker, BrokerAccount } from "../../broker/types.js";
import type { Config } from "../../config/types.js";
import type { Instrument, ProposedOrder, RunMode } from "../../core/domain.js";
import type { RunOutcome } from "../../core/events.js";
import type { ExitCode } from "../../core/exit-codes.js";
import type { FundedBySells, OpenOrder } from "../../core/gate-types.js";
import type { Order } from "../../core/order.js";
import type { Journal } from "../../journal/journal.js";
import type { RunTrigger } from "../../journal/types.js";
import type { MarketData, MarketView } from "../../market/data.js";
import type { Approver } from "../approval.js";
import type { ArtifactPaths, HeldArtifacts } from "../artifacts.js";
import type { EventSink } from "../event-sink.js";
import type { SessionClock } from "../session-clock.js";
import type { ResearchSetup } from "../../research/search.js";
import type { Masker } from "../../research/masking.js";

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
  /** The model: a configured one, or (`tradewarden mcp`) an MCP client's, which tradewarden never calls. */
  model: Omit<ModelSetup, "provider"> & { provider: ModelSetup["provider"] | "mcp"; id: string };
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
  /** Who started the run: `tradewarden tick` (scheduled) or a person (manual, the default); recorded with the run. */
  trigger?: RunTrigger;
  /** A preset run id (tests); default: time + random. */
  runId?: string;
  /** News research (search_news); default: the config's [research] with no secrets read. */
  research?: ResearchSetup;
  /** Entity masking (simulate/replay --mask): the model sees aliases and shifted dates only. */
  mask?: Masker;
  /**
   * Decide an earlier run's proposal instead of asking the model (`tradewarden approve`): the
   * proposal is taken as recorded, re-gated on this run's fresh state, and goes to the operator,
   * the final gate and the executor like any other (src/run/approve-pending.ts, approvePhases).
   */
  resume?: ResumedProposal;
  /**
   * Hold the run's artifacts in memory and write them once, packed, at close; its envelopes are
   * derived when exported or audited (a simulated day: run/artifacts.ts). Default: files.
   */
  held?: HeldArtifacts;
}

export interface ResumedProposal {
  fromRunId: string;
  orders: ProposedOrder[];
  summary: string;
  /** The original run's transcript (its tool results hold the evidence the orders cite). */
  transcript: { system: unknown; messages: Array<{ role: string; content: unknown }> };
}

export interface RunSummary {
  runId: string;
  outcome: RunOutcome;
  exitCode: ExitCode;
  message: string;
  tradingDay: string;
  runDir: string;
}

/** How a run ends: an outcome, its exit code and one sentence. */
export class Stop {
  constructor(
    readonly outcome: RunOutcome,
    readonly exitCode: ExitCode,
    readonly message: string,
  ) {}
}

/** The proposal as the agent (or resume) phase hands it to the decision phase. */
interface Proposal {
  orders: ProposedOrder[];
  summary: string;
  /** The messages whose tool results hold the evidence its orders cite. */
  transcript: ReadonlyArray<{ content?: unknown }>;
}

/**
 * What the close reports of how far the run got, whichever phase stopped it (or threw). One object
 * shared by every stage of the context, written as the phases establish each fact.
 */
interface RunProgress {
  /** The session's trading day ("" until preflight opened it). */
  tradingDay: string;
  /** The run is in the journal (preflight recorded its start). */
  started: boolean;
  /** The run passed every check before the model (market open, quota, spend cap): only such runs count down REDUCING. */
  couldTrade: boolean;
  agentResult: AgentResult | null;
}

/** What every phase has: the run's identity, its dependencies and where its artifacts go. */
export interface RunStart {
  readonly deps: PipelineDeps;
  readonly runId: string;
  readonly paths: ArtifactPaths;
  readonly runDir: string;
  readonly now: () => Date;
  readonly progress: RunProgress;
}

/** Preflight established: the paper account, the session opened on its trading day, the run in the journal. */
export interface Opened extends RunStart {
  readonly session: Session;
  readonly account: BrokerAccount;
  readonly tradingDay: string;
  /** The session clock's now. */
  readonly sessionNow: () => Date;
}

/** Reconcile established: the journal agrees with the broker; its open orders as read. */
export interface Reconciled extends Opened {
  /** The broker's open orders as last read (re-read after standing orders fire and by the final gate). */
  readonly openOrders: readonly OpenOrder[];
}

/** Value established: point-in-time reference prices, the first valuation and the peak after it. */
export interface Valued extends Reconciled {
  readonly prices: MarketView;
  readonly value: number;
  readonly peak: number;
}

/** The run's context once valued: what the gate, the placement path and the kill switch read. */
export type RunContext = Valued;

/** The kill switch established: trading is not halted, no drawdown trip, and the session is open. */
export interface Open extends Valued {
  readonly session: Session & { readonly isOpen: true };
}

/** `tradewarden approve`: the open run and the earlier run's proposal it decides. */
export interface Resuming extends Open {
  readonly resume: ResumedProposal;
}

/** The budget established: the monthly order quota and the LLM spend cap leave room; the run could trade. */
export interface Affordable extends Open {
  readonly couldTrade: true;
}

/** The agent (or resume) established: the proposal the operator decides. */
export interface Proposed extends Open {
  readonly proposal: Proposal;
}

/** The decision established: what the operator approved (at least one order). */
export interface Decided extends Open {
  readonly approved: readonly ProposedOrder[];
}

/** A buy the final gate approved as funded by its batch's sells: placed in the second wave, once they have settled. */
export interface FundedBuy {
  /** The final gate decision's input index (into `approved`). */
  readonly index: number;
  /** The order as approved (its quantity the most the second wave may send). */
  readonly proposed: ProposedOrder;
  readonly funded: FundedBySells;
}

/** The final gate established, on fresh state: the typed orders it approved, as they will be placed. */
export interface Gated extends Open {
  /** The first wave: the approved sells and the buys the cash held covers. */
  readonly toPlace: readonly Order[];
  /** The second wave: buys funded by the first wave's sells, re-gated on the cash they brought (src/run/phases/second-wave.ts). */
  readonly funded: readonly FundedBuy[];
}

/** A phase of the daily run: from what the phases before it established to what it establishes, or a `Stop`. */
export interface Phase<In, Out> {
  readonly name: string;
  run(input: In): Promise<Stop | Out>;
}
