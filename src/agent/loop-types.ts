/**
 * The agent loop's types: what it needs of the tool runtime, its limits and options, and what it
 * returns (re-exported by `./loop.ts`).
 */
import type { ProposedOrder } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";
import type { AgentOutcome, PendingError, Usage } from "../core/events.js";
import type { ModelPrice } from "./pricing.js";
import type { SubmitState } from "./submit.js";
import type { Message, ModelClient } from "./types.js";

/** What the loop needs of the tool runtime (`src/tools/runtime.ts` provides it). */
export interface AgentToolRuntime {
  readonly contracts: ReadonlyArray<{ name: string; kind: string; callLimit: number | null }>;
  anthropicTools(): { name: string; description: string; input_schema: Record<string, unknown> }[];
  dispatch(name: string, rawArgs: unknown, opts?: { signal?: AbortSignal }): Promise<AgentDispatchOutcome>;
  pending(): PendingError[];
  /** The call whose identical refusals spent the run's repair budget, once one has (the loop then ends the run). */
  repeatedRefusal(): RepeatedRefusal | undefined;
}

/** A call the model sent again unchanged after it was refused, refused again with the same error. */
export interface RepeatedRefusal {
  tool: string;
  error_code: string;
  error: string;
  /** Identical refusals of the call, the first one included. */
  refusals: number;
}

export interface AgentDispatchOutcome {
  tool: string;
  arguments: unknown;
  stage: string;
  success: boolean;
  envelope: Record<string, unknown>;
  text: string;
  errorCode?: string;
  retryable?: boolean;
  truncated: boolean;
  durationMs: number;
  /** One line about the result for the console and the headless log, from the tools runtime. */
  summary: string;
  /** The gate's typed decisions behind an order tool's result, each naming its input order by `index` (never shown to the model). */
  verdicts?: GateDecision[];
}

export interface AgentLimits {
  maxTurns: number;
  maxSeconds: number;
  runBudgetUsd: number;
  /** What is left of this month's LLM spend cap (cap minus spent), USD. */
  monthlyBudgetLeftUsd: number;
  maxTokens: number;
  /** Per-call timeout cap, seconds. */
  requestTimeoutS: number;
  /** Floor of a call's timeout, ms (default 5000). */
  minCallTimeoutMs?: number;
}

export interface RunAgentOptions {
  client: ModelClient;
  runtime: AgentToolRuntime;
  system: string;
  /** The first user message (carries the trading day). */
  task: string;
  limits: AgentLimits;
  price: ModelPrice;
  signal?: AbortSignal;
  /** Clock for the wall-clock limit (ms); defaults to performance.now(). */
  now?: () => number;
  /** The submit handler's state (`makeSubmitHandler(...).state`), for exact verdicts in events. */
  submitState?: SubmitState;
  /**
   * Called after every model call, before anything else happens: the run journals the call's spend
   * here, so an interrupt or crash later in the loop never loses what was already spent.
   */
  onUsage?: (record: UsageRecord) => Promise<void>;
}

export interface UsageRecord {
  turn: number;
  model: string;
  stop_reason: string;
  usage: Usage;
  cost_usd: number;
  duration_ms: number;
}

export interface AgentProposal {
  orders: ProposedOrder[];
  summary: string;
  abandoned: string[];
  abandon_explanation?: string;
  decisions: GateDecision[];
}

export interface AgentResult {
  outcome: AgentOutcome;
  reason: string;
  proposal?: AgentProposal;
  transcript: Message[];
  usage: UsageRecord[];
  cost_usd: number;
  turns: number;
}
