/**
 * The research-cycle envelope: one record per run, derived (purely) from the run's event stream
 * and a few facts of the run, validated against `data/schemas/research-cycle.schema.json` before
 * it is written. The audit re-derives it from events.jsonl and compares.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CodeOptions } from "ajv";
import type { RunMode } from "../core/domain.js";
import type { GateDecision } from "../core/gate-types.js";
import { CONTRACT_VERSION } from "../tools/catalogue.js";
import { contractOf } from "../tools/catalogue.js";
import { SCHEMA_FORMATS } from "../config/schema-runtime.js";
import { researchCycle as validator } from "../config/validators.generated.js";
import { newAjv } from "../tools/validate.js";
import { bundledDataDir } from "../util/paths.js";
import type { RunEvent, RunOutcome } from "../core/events.js";

export interface ResearchCycleFacts {
  runId: string;
  mode: RunMode;
  tradingDay: string;
  generatedAt: string;
  version: string;
  model: { provider: string; id: string };
  broker: { kind: "simulated" | "alpaca_paper"; endpoint: string };
  secretsRead: string[];
  marketData: string;
}

type NextAction =
  | "none"
  | "hold"
  | "observe_only"
  | "await_operator_approval"
  | "reconcile_manually"
  | "reset_kill_switch"
  | "retry_later"
  | "fix_configuration"
  | "investigate_error";

const SOURCE_BY_GROUP: Record<string, string> = {
  portfolio: "journal",
  market: "market_data",
  screening: "market_data",
  sandbox: "market_data",
  watchlist: "journal",
  memory: "memory",
  research: "news",
};

function provenanceOf(tool: string, tradingDay: string): { source: string; point_in_time: string } {
  const c = contractOf(tool);
  if (!c) return { source: "none", point_in_time: "not a catalogue tool" };
  if (tool === "check_orders") return { source: "risk_gate", point_in_time: `dry run on a copy of the account as of ${tradingDay}` };
  if (c.kind === "final") return { source: "proposal", point_in_time: `proposal for ${tradingDay}` };
  if (c.group === "research") return { source: "news", point_in_time: `published strictly before ${tradingDay}; undated results kept apart` };
  return { source: SOURCE_BY_GROUP[c.group] ?? "none", point_in_time: `data strictly before ${tradingDay}` };
}

function nextActionFor(outcome: RunOutcome): { action: NextAction; reason: string } {
  switch (outcome) {
    case "executed":
      return { action: "none", reason: "approved orders were sent to the paper broker and booked" };
    case "hold":
    case "no_trades":
      return { action: "hold", reason: "no orders this run; the next daily run decides again" };
    case "observed":
      return { action: "observe_only", reason: "observe mode: the proposal was recorded and nothing was placed" };
    case "rejected":
      return { action: "hold", reason: "the operator rejected the proposal" };
    case "awaiting_approval":
      return { action: "await_operator_approval", reason: "no operator was available and --yes was not given; nothing was placed" };
    case "reconcile_failed":
      return { action: "reconcile_manually", reason: "the journal and the broker disagree; a person must reconcile them before trading resumes" };
    case "broker_unavailable":
    case "data_unavailable":
      return { action: "retry_later", reason: "the broker or market data was unavailable" };
    case "model_unavailable":
      return { action: "retry_later", reason: "the model could not be reached or refused the key; nothing was proposed" };
    case "halted":
    case "tripped":
      return { action: "reset_kill_switch", reason: "trading is halted by the kill switch until a person resets it (tradewarden killswitch)" };
    case "quota_exhausted":
      return { action: "hold", reason: "the monthly order quota is used up; the model was not called" };
    case "spend_cap_reached":
      return { action: "hold", reason: "the monthly LLM spend cap is reached; the model was not called" };
    case "interrupted":
      return { action: "retry_later", reason: "the run was interrupted; what was sent was booked" };
    case "error":
      return { action: "investigate_error", reason: "the run failed with an internal error; see events.jsonl" };
  }
}

const OK_OUTCOMES: ReadonlySet<RunOutcome> = new Set([
  "executed",
  "hold",
  "no_trades",
  "observed",
  "rejected",
  "halted",
  "tripped",
  "quota_exhausted",
  "spend_cap_reached",
  "awaiting_approval",
]);

/** What the envelope gathers from the run's events, folded in order. */
interface CycleFold {
  calls: Map<string, Record<string, unknown>>;
  dryRuns: number;
  proposal: Record<string, unknown> | null;
  proposalVerdicts: GateDecision[];
  finalVerdicts: GateDecision[];
  decision: Record<string, unknown> | null;
  executed: Map<string, Record<string, unknown>>;
  agentOutcome: string | null;
  turns: number;
  cost: number;
  outcome: RunOutcome;
  exitCode: number;
  research: Record<string, unknown>[];
  masking: { enabled: boolean; date_offset_days?: number; leaks: Record<string, unknown>[] };
}

function emptyFold(): CycleFold {
  return {
    calls: new Map(),
    dryRuns: 0,
    proposal: null,
    proposalVerdicts: [],
    finalVerdicts: [],
    decision: null,
    executed: new Map(),
    agentOutcome: null,
    turns: 0,
    cost: 0,
    outcome: "error",
    exitCode: 1,
    research: [],
    masking: { enabled: false, leaks: [] },
  };
}

/** The events of an order's life the envelope lists under `executed`. */
const ORDER_EVENTS = [
  "order.placed",
  "order.partially_filled",
  "order.filled",
  "order.cancelled",
  "order.rejected",
  "order.uncertain",
  "order.expired",
] as const;
type OrderEvent = Extract<RunEvent, { type: (typeof ORDER_EVENTS)[number] }>;
const ORDER_EVENT_TYPES: ReadonlySet<RunEvent["type"]> = new Set(ORDER_EVENTS);
const isOrderEvent = (e: RunEvent): e is OrderEvent => ORDER_EVENT_TYPES.has(e.type);

/** Tool calls, their results, the research log and masking; false for any other event. */
function foldToolEvent(f: CycleFold, e: RunEvent, tradingDay: string): boolean {
  switch (e.type) {
    case "tool.called":
      f.calls.set(e.call_id, { call_id: e.call_id, turn: e.turn, tool: e.tool, ok: false, outcome: "no_result", provenance: provenanceOf(e.tool, tradingDay) });
      return true;
    case "tool.rejected": {
      const c = f.calls.get(e.call_id) ?? { call_id: e.call_id, turn: e.turn, tool: e.tool, provenance: provenanceOf(e.tool, tradingDay) };
      f.calls.set(e.call_id, { ...c, ok: false, outcome: e.error_code, retryable: e.retryable });
      // A search refused by its contract (blank or over-long query) never reached the provider: a `blocked` log entry.
      if (e.tool === "search_news" && e.error_code === "invalid_tool_arguments") f.research.push(blockedSearch(e.correction?.received_arguments));
      return true;
    }
    case "research.search": {
      const { type: _t, seq: _s, at: _a, run_id: _r, ...entry } = e;
      f.research.push(entry);
      return true;
    }
    case "mask.enabled":
      f.masking.enabled = true;
      f.masking.date_offset_days = e.date_offset_days;
      return true;
    case "mask.leak":
      f.masking.leaks.push({ turn: e.turn, kind: e.kind, found: e.found, where: e.where });
      return true;
    case "tool.result": {
      const c = f.calls.get(e.call_id) ?? { call_id: e.call_id, turn: e.turn, tool: e.tool, provenance: provenanceOf(e.tool, tradingDay) };
      f.calls.set(e.call_id, {
        ...c,
        ok: e.success,
        outcome: e.success ? "ok" : (e.error_code ?? "error"),
        truncated: e.truncated,
        duration_ms: Math.max(0, e.duration_ms),
      });
      return true;
    }
    default:
      return false;
  }
}

/** An order's latest status, over what earlier events of the same order said. */
function foldOrderEvent(f: CycleFold, e: OrderEvent): void {
  const prev = f.executed.get(e.client_order_id);
  const rec: Record<string, unknown> = {
    ...(prev ?? {}),
    client_order_id: e.client_order_id,
    symbol: e.symbol,
    side: e.side,
    quantity: e.quantity,
    limit_price: e.limit_price,
    status: e.type.slice("order.".length),
    filled_quantity: "filled_quantity" in e ? e.filled_quantity : ((prev?.filled_quantity as number | undefined) ?? 0),
  };
  if (e.broker_order_id) rec.broker_order_id = e.broker_order_id;
  if ("avg_price" in e) rec.avg_price = e.avg_price;
  if (/-L\d+$/.test(e.client_order_id)) rec.liquidation = true; // kill-switch ids end in -L<i>
  f.executed.set(e.client_order_id, rec);
}

/** The agent's outcome, the proposal, the operator's decision, the verdicts, the orders and the run's end. */
function foldRunEvent(f: CycleFold, e: RunEvent): void {
  if (isOrderEvent(e)) {
    foldOrderEvent(f, e);
    return;
  }
  switch (e.type) {
    case "gate.dry_run":
      f.dryRuns++;
      break;
    case "agent.finished":
      f.agentOutcome = e.outcome;
      f.turns = e.turns;
      break;
    case "proposal":
      f.proposal = { orders: e.orders, summary: e.summary, abandoned_error_codes: e.abandoned };
      f.proposalVerdicts = e.decisions;
      break;
    case "approval.decided":
      f.decision = { decision: e.decision, by: e.by, orders_hash: e.orders_hash, approved_orders: e.decision === "approved" ? e.orders.length : 0 };
      if (e.reason) f.decision.reason = e.reason;
      break;
    case "gate.final":
      f.finalVerdicts = e.decisions;
      break;
    case "model.response":
      f.cost = e.total_cost_usd;
      break;
    case "run.finished":
      f.outcome = e.outcome;
      f.exitCode = e.exit_code;
      f.cost = e.cost_usd;
      break;
    default:
      break;
  }
}

function limitationsOf(broker: ResearchCycleFacts["broker"]["kind"]): string[] {
  const limitations =
    broker === "simulated"
      ? [
          "Paper trading on the simulated broker: fills come from daily bars (no queue position, no intraday path).",
          "Bundled instruments other than the index are synthetic, derived from the S&P 500 index.",
        ]
      : ["Paper trading on Alpaca's paper account: its fills ignore queue position and slippage, and it charges no commission."];
  limitations.push("Prices and history are point-in-time (strictly before the trading day), but a model's weights may know later history.");
  return limitations;
}

export function buildResearchCycle(events: readonly RunEvent[], facts: ResearchCycleFacts): Record<string, unknown> {
  const f = emptyFold();
  for (const e of events) if (!foldToolEvent(f, e, facts.tradingDay)) foldRunEvent(f, e);
  const { outcome } = f;
  return {
    schema: "tradewarden.research_cycle.v1",
    schema_version: "1.0.0",
    ok: OK_OUTCOMES.has(outcome),
    run_id: facts.runId,
    generated_at: facts.generatedAt,
    mode: facts.mode === "observe" ? "observe_only" : facts.mode === "watch" ? "watch" : "paper",
    trading_day: facts.tradingDay,
    outcome,
    exit_code: f.exitCode,
    model: { provider: facts.model.provider, id: facts.model.id, turns: f.turns, cost_usd: f.cost, agent_outcome: f.agentOutcome },
    tool_calls: [...f.calls.values()],
    proposal: f.proposal,
    verdicts: { dry_runs: f.dryRuns, proposal: f.proposalVerdicts, final: f.finalVerdicts },
    operator_decision: f.decision,
    executed: [...f.executed.values()],
    research: f.research,
    masking: f.masking,
    next_action: nextActionFor(outcome),
    provenance: {
      source: "tradewarden daily run",
      tradewarden_version: facts.version,
      contract_version: CONTRACT_VERSION,
      market_data: facts.marketData,
    },
    safety: {
      paper_only: true,
      live_orders_possible: false,
      broker_endpoint_kind: facts.broker.kind,
      broker_endpoint: facts.broker.endpoint,
      orders_only_through_gate_and_operator: true,
      secrets_read: [...facts.secretsRead].sort(),
    },
    limitations: limitationsOf(facts.broker.kind),
  };
}

function blockedSearch(received: unknown): Record<string, unknown> {
  const q = received !== null && typeof received === "object" ? (received as Record<string, unknown>).query : undefined;
  return {
    query: typeof q === "string" ? q.slice(0, 300) : "",
    provider: "none",
    status: "blocked",
    duration_ms: 0,
    retrieved: 0,
    returned: 0,
    removed: { cutoff: 0, undated: 0, policy: 0, duplicates: 0 },
    message: "refused by the tool contract before any provider was asked",
  };
}

/** The research-cycle schema (data/schemas/research-cycle.schema.json). */
export function researchCycleSchema(): object {
  return JSON.parse(readFileSync(join(bundledDataDir(), "schemas", "research-cycle.schema.json"), "utf8")) as object;
}

/** The ajv the research-cycle schema compiles with (`code`: the build's, when it generates the validators' source). */
export function researchCycleAjv(code: CodeOptions = {}) {
  const ajv = newAjv({ allowUnionTypes: true, code });
  for (const [name, format] of Object.entries(SCHEMA_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

/** Validate an envelope; returns the problems (empty when valid). The validator is generated at build time with `researchCycleAjv`. */
export function validateResearchCycle(doc: unknown): string[] {
  if (validator(doc)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
}
