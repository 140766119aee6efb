/** The run console's state types and its initial state (the reducer is in run-state.ts). */
import type { PortfolioView, RunMode, TradingState } from "../core/domain.js";
import type { AgentOutcome, PendingError, RunOutcome } from "../core/events.js";
import type { Tone } from "./theme.js";

export interface VerdictRow {
  head: string;
  approved: boolean;
  notional: number;
  reasons: string[];
}

export interface ToolCorrectionView {
  instruction: string;
  issues: string[];
  missing: string[];
  pending: string[];
}

export type RunItem =
  | { key: string; kind: "note"; tone: Tone; text: string; detail: string[] }
  | { key: string; kind: "text"; turn: number; text: string }
  | {
      key: string;
      kind: "tool";
      turn: number;
      call_id: string;
      tool: string;
      args: string;
      status: "ok" | "failed" | "rejected";
      error_code?: string;
      message: string;
      retryable?: boolean;
      truncated?: boolean;
      duration_ms?: number;
      correction?: ToolCorrectionView;
    }
  | { key: string; kind: "verdicts"; tone: Tone; title: string; rows: VerdictRow[]; footer: string[] }
  | { key: string; kind: "pending"; pending: PendingError[] }
  | { key: string; kind: "order"; tone: Tone; text: string };

export interface PendingToolCall {
  call_id: string;
  tool: string;
  args: string;
  turn: number;
}

export interface RunHeader {
  run_id: string;
  mode: RunMode | "";
  trading_day: string;
  model: string;
  broker: string;
  account: string;
  base_currency: string;
  value: number | null;
  cash: number | null;
  peak: number | null;
  drawdown_pct: number | null;
  max_drawdown_pct: number | null;
  trading_state: TradingState | null;
  orders_left: number | null;
  orders_used: number | null;
  /** Holdings, cash and the previous run's fills, from the last valuation. */
  portfolio: PortfolioView | null;
}

type RunPhase = "starting" | "preflight" | "reconcile" | "valuation" | "agent" | "proposal" | "approval" | "final_gate" | "executing" | "finished";

interface RunStatus {
  phase: RunPhase;
  turn: number;
  max_turns: number;
  /** When the agent's time runs out (epoch ms), from the last turn start. */
  deadline_ms: number | null;
  cost_usd: number;
  budget_usd: number;
  thinking: boolean;
  retry: string | null;
}

export interface RunFinal {
  outcome: RunOutcome;
  exit_code: number;
  message: string;
  value_after?: number;
  cost_usd: number;
}

export interface RunState {
  header: RunHeader;
  status: RunStatus;
  /** Append-only (shared between states); valid entries are `items[0 .. itemCount)`. */
  items: RunItem[];
  itemCount: number;
  /** The model text being streamed for the current turn (raw; sanitise when drawing). */
  live: { turn: number; text: string } | null;
  pendingTools: PendingToolCall[];
  /** Retryable errors the model still has to correct. */
  pending: PendingError[];
  agent: { outcome: AgentOutcome; reason: string; turns: number; cost_usd: number } | null;
  approval: { orders_hash: string; approvable: number; blocked: number } | null;
  final: RunFinal | null;
  lastSeq: number;
}

export function initialRunState(): RunState {
  return {
    header: {
      run_id: "",
      mode: "",
      trading_day: "",
      model: "",
      broker: "",
      account: "",
      base_currency: "",
      value: null,
      cash: null,
      peak: null,
      drawdown_pct: null,
      max_drawdown_pct: null,
      trading_state: null,
      orders_left: null,
      orders_used: null,
      portfolio: null,
    },
    status: { phase: "starting", turn: 0, max_turns: 0, deadline_ms: null, cost_usd: 0, budget_usd: 0, thinking: false, retry: null },
    items: [],
    itemCount: 0,
    live: null,
    pendingTools: [],
    pending: [],
    agent: null,
    approval: null,
    final: null,
    lastSeq: 0,
  };
}
