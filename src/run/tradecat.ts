/**
 * The run's record in TradeCat's research-cycle shape (`tradecat-research-cycle.json`), derived
 * purely from the run's own envelope (research-cycle.json) and its events. What TradeCat's audit
 * refuses cannot come out: the safety block is its constants; only market-data reads become
 * `tool_calls` / `requested_market_data`, and an endpoint that looks private is left out of both
 * (named in `limitations`); a paper handoff without sizing and an exit plan degrades to `hold`.
 *
 * Mapping (see README, "TradeCat export"):
 * - mode: observe → observe_only; a paper run → paper, or watch when the account could not trade by
 *   rule this run (halted or tripped, order quota or LLM spend cap used up): it only watched.
 * - source_signal: a simulated-broker run replays a historical day → "replay"; a run on Alpaca's
 *   paper account was started by a person or a schedule, not a signal → "manual_fixture".
 * - tool_calls: every get_price_history call (daily bars: family "klines", GET, a tradewarden://
 *   endpoint, unsigned, no keys); every tool call, market data or not, is in `agent_tool_calls`.
 * - next_action: executed → run_context_paper (sizing from the orders sent, exit plan from the
 *   run's kill-switch limit); observed → observe_only; rejected → reject; a hold, no trades, halts,
 *   caps, interruptions, errors → hold; awaiting approval, reconciliation, an unavailable broker or
 *   data → request_more_context with the inputs needed.
 */
import type { RunEvent, RunOutcome } from "../core/events.js";
import { pct } from "../core/format.js";
import { PRIVATE_ENDPOINT, TRADECAT_SAFETY } from "./tradecat-rules.js";

type Json = Record<string, unknown>;

const WATCH_OUTCOMES: ReadonlySet<string> = new Set(["halted", "tripped", "quota_exhausted", "spend_cap_reached"]);
const NEEDS_CONTEXT: Record<string, string[]> = {
  awaiting_approval: ["operator approval: run on a terminal, or with --yes"],
  reconcile_failed: ["a person reconciles the journal with the broker"],
  broker_unavailable: ["a reachable paper broker"],
  data_unavailable: ["reference prices for every holding"],
};
const HOLD_INPUTS: Record<string, string[]> = {
  halted: ["a person resets the kill switch (tradewarden killswitch)"],
  tripped: ["a person resets the kill switch (tradewarden killswitch)"],
};

function tradecatMode(twMode: string, outcome: string): "observe_only" | "paper" | "watch" {
  if (twMode === "observe_only") return "observe_only";
  return WATCH_OUTCOMES.has(outcome) ? "watch" : "paper";
}

function priceEndpoint(symbol: string, tradingDay: string): string {
  return `tradewarden://market/daily-bars?symbol=${encodeURIComponent(symbol)}&interval=1d&before=${tradingDay}`;
}

interface Built {
  requested: Json[];
  calls: Json[];
  allCalls: Json[];
  dropped: string[];
}

function toolCalls(events: readonly RunEvent[], tw: Json, tradingDay: string): Built {
  const outcomes = new Map<string, Json>();
  for (const c of (tw.tool_calls ?? []) as Json[]) outcomes.set(String(c.call_id), c);
  const out: Built = { requested: [], calls: [], allCalls: [], dropped: [] };
  const valued = events.some((e) => e.type === "valuation") || tw.outcome === "data_unavailable";
  if (valued) {
    const endpoint = `tradewarden://market/daily-bars?universe=allowlist&interval=1d&before=${tradingDay}`;
    out.requested.push({
      family: "klines",
      endpoint,
      method: "GET",
      sequence: 1,
      required: true,
      reason: "reference prices (the last daily close before the trading day) for valuation, the kill switch and the risk gate",
      fallback: "the run stops as data_unavailable (exit 4); nothing is placed",
      fallback_next_action: "hold",
      ...(tw.outcome === "data_unavailable" ? { error_code: "data_unavailable" } : {}),
    });
  }
  for (const e of events) {
    if (e.type !== "tool.called") continue;
    const rec = outcomes.get(e.call_id) ?? {};
    const ok = rec.ok === true;
    const outcome = String(rec.outcome ?? "no_result");
    out.allCalls.push({ call_id: e.call_id, turn: e.turn, tool: e.tool, ok, outcome, source: (rec.provenance as Json | undefined)?.source ?? "none" });
    if (e.tool !== "get_price_history") continue;
    const args = (typeof e.arguments === "object" && e.arguments !== null ? e.arguments : {}) as Json;
    const symbol = typeof args.symbol === "string" ? args.symbol.toUpperCase() : "";
    if (!symbol) continue; // refused before it named an instrument: nothing was requested
    const endpoint = priceEndpoint(symbol, tradingDay);
    if (PRIVATE_ENDPOINT.test(endpoint)) {
      out.dropped.push(`${e.call_id} (${symbol})`);
      continue;
    }
    const provenance = { tool: e.tool, call_id: e.call_id, turn: e.turn, source: "market_data", point_in_time: `daily bars strictly before ${tradingDay}` };
    out.requested.push({
      family: "klines",
      endpoint,
      method: "GET",
      sequence: out.requested.length + 1,
      required: false,
      reason: `the model asked for ${symbol}'s daily history (turn ${e.turn})`,
      fallback: "the model goes on without it; an order must still cite evidence the run returned",
      fallback_next_action: "hold",
      ...(ok ? {} : { error_code: outcome }),
    });
    const call: Json = {
      family: "klines",
      endpoint,
      method: "GET",
      ok,
      fetched_at: e.at,
      requires_signature: false,
      signed: false,
      reads_api_keys: false,
      real_orders: false,
      provenance,
    };
    if (!ok) call.error = { code: outcome };
    out.calls.push(call);
  }
  return out;
}

interface Sized {
  symbol: string;
  side: string;
  quantity: number;
  limit_price: number;
  notional: number;
}

function sizingOf(orders: readonly Json[]): Sized[] {
  return orders.map((o) => {
    const quantity = Number(o.quantity);
    const limit = Number(o.limit_price);
    return { symbol: String(o.symbol), side: String(o.side), quantity, limit_price: limit, notional: Math.round(quantity * limit * 100) / 100 };
  });
}

function exitPlanOf(events: readonly RunEvent[]): Json | null {
  const v = events.find((e) => e.type === "valuation");
  if (v?.type !== "valuation" || !(v.max_drawdown_pct > 0)) return null;
  return {
    order_expiry: "DAY limit orders: whatever is unfilled expires at the session's close",
    portfolio_stop: {
      kind: "kill_switch_drawdown",
      max_drawdown_pct: v.max_drawdown_pct,
      action: "liquidate every holding with limit sells and halt trading until a person resets it",
    },
    review: "every daily run re-reads each holding and may sell it",
  };
}

function nextActionOf(tw: Json, events: readonly RunEvent[], limitations: string[]): Json {
  const outcome = String(tw.outcome) as RunOutcome;
  const reason = String((tw.next_action as Json | undefined)?.reason ?? outcome);
  const proposal = (tw.proposal ?? null) as Json | null;
  const proposed = sizingOf((proposal?.orders ?? []) as Json[]);
  switch (outcome) {
    case "executed": {
      const sent = ((tw.executed ?? []) as Json[]).filter((o) => o.liquidation !== true);
      const sizing = sizingOf(sent);
      const exitPlan = exitPlanOf(events);
      if (sizing.length > 0 && exitPlan) {
        return {
          action: "run_context_paper",
          reason,
          writes_paper_ledger: true,
          sizing,
          exit_plan: exitPlan,
          tradecat_command_hint: "tradewarden journal --run <run_id>",
        };
      }
      limitations.push("The orders were sent, but the record lacks their sizing or an exit plan, so it is not a paper handoff: next_action is hold.");
      return { action: "hold", reason: `${reason}; no paper handoff (sizing or exit plan missing)`, writes_paper_ledger: false };
    }
    case "observed":
      return { action: "observe_only", reason, writes_paper_ledger: false, ...(proposed.length > 0 ? { proposed_sizing: proposed } : {}) };
    case "rejected":
      return { action: "reject", reason, writes_paper_ledger: false, ...(proposed.length > 0 ? { proposed_sizing: proposed } : {}) };
    default: {
      const inputs = NEEDS_CONTEXT[outcome];
      if (inputs) return { action: "request_more_context", reason, required_inputs: inputs, writes_paper_ledger: false };
      return { action: "hold", reason, writes_paper_ledger: false, ...(HOLD_INPUTS[outcome] ? { required_inputs: HOLD_INPUTS[outcome] } : {}) };
    }
  }
}

function riskNotes(tw: Json, events: readonly RunEvent[]): string[] {
  const notes: string[] = [];
  const v = events.find((e) => e.type === "valuation");
  if (v?.type === "valuation")
    notes.push(
      `drawdown ${pct(v.drawdown_pct)} from the confirmed peak (kill switch at ${v.max_drawdown_pct}%); trading state ${v.trading_state}; ${v.orders_left} order(s) left this month`,
    );
  const verdicts = (tw.verdicts ?? {}) as { proposal?: Json[]; final?: Json[] };
  for (const [stage, list] of [
    ["proposal", verdicts.proposal ?? []],
    ["final gate", verdicts.final ?? []],
  ] as const) {
    for (const d of list) {
      if (d.approved === true) continue;
      const o = (d.order ?? {}) as Json;
      const reasons = ((d.reasons ?? []) as Json[]).map((r) => `${r.code}: ${r.message}`).join("; ");
      notes.push(`${stage} blocked ${String(o.side)} ${String(o.quantity)} ${String(o.symbol)} @ ${String(o.limit_price)}: ${reasons}`);
    }
  }
  for (const e of events) if (e.type === "killswitch.tripped") notes.push(`kill switch tripped: ${e.reason}`);
  return notes;
}

/** The TradeCat record of one run (pure). `tw` is the run's research-cycle.json. */
export function buildTradecatCycle(tw: Json, events: readonly RunEvent[]): Json {
  const started = events.find((e) => e.type === "run.started");
  const preflight = events.find((e) => e.type === "preflight.failed");
  const tradingDay = String(tw.trading_day);
  const safety = (tw.safety ?? {}) as Json;
  const simulated = safety.broker_endpoint_kind === "simulated";
  const built = toolCalls(events, tw, tradingDay);
  const limitations = [...((tw.limitations ?? []) as string[])];
  limitations.push(
    "The safety block describes the research cycle: its market-data reads are local (tradewarden://), unsigned and read no API keys, and every order is a paper order.",
    `Keys the run as a whole read (names only): ${((safety.secrets_read ?? []) as string[]).join(", ") || "none"}; they served the model API and the paper broker, never a market-data read (see tradewarden_safety).`,
  );
  if (built.dropped.length > 0) limitations.push(`Market-data calls left out because their endpoint would look private: ${built.dropped.join(", ")}.`);
  const nextAction = nextActionOf(tw, events, limitations);
  const proposal = (tw.proposal ?? null) as Json | null;
  const model = (tw.model ?? {}) as Json;
  const firstSymbol = (proposal?.orders as Json[] | undefined)?.[0]?.symbol;
  const doc: Json = {
    schema: "tradecat_auto.agent_research_cycle.v1",
    schema_version: "1.0.0",
    ok: tw.ok === true,
    run_id: String(tw.run_id),
    generated_at: String(tw.generated_at),
    mode: tradecatMode(String(tw.mode), String(tw.outcome)),
    error_code: tw.ok === true ? null : preflight?.type === "preflight.failed" ? preflight.code : String(tw.outcome),
    source_signal: {
      kind: simulated ? "replay" : "manual_fixture",
      event_id: String(tw.run_id),
      raw: { trigger: "tradewarden daily run", trading_day: tradingDay, broker_endpoint_kind: safety.broker_endpoint_kind ?? null },
      provenance: {
        source: "tradewarden",
        run_id: String(tw.run_id),
        trading_day: tradingDay,
        ...(started?.type === "run.started" ? { started_at: started.at } : {}),
      },
    },
    requested_market_data: built.requested,
    tool_calls: built.calls,
    agent_tool_calls: built.allCalls,
    tool_orchestration_policy: {
      schema: "tradecat_auto.agent_tool_orchestration.v1",
      schema_version: "1.0.0",
      execution: "per model turn: reads and dry runs first, then submit_orders; every call validated before its handler runs",
      required_tool_failure: { next_action: "hold", error_code: "data_unavailable", writes_paper_ledger: false },
      optional_tool_failure: { next_action: "hold", error_code: "tool_call_failed", writes_paper_ledger: false },
      prohibited: ["live trading", "orders that bypass the final risk gate and the operator", "model output reaching the broker directly"],
    },
    agent_market_context: {
      schema: "tradecat_auto.agent_market_context.v1",
      schema_version: "1.0.0",
      trading_day: tradingDay,
      market_data: (tw.provenance as Json | undefined)?.market_data ?? null,
    },
    agent_trade_thesis: {
      schema: "tradecat_auto.agent_trade_thesis.v1",
      schema_version: "1.0.0",
      summary: proposal ? String(proposal.summary) : null,
      orders: proposal?.orders ?? [],
      model: { provider: model.provider ?? null, id: model.id ?? null, turns: model.turns ?? 0, cost_usd: model.cost_usd ?? 0 },
    },
    risk_notes: riskNotes(tw, events),
    next_action: nextAction,
    provenance: {
      source: "tradewarden",
      agent: `${String(model.provider)}:${String(model.id)}`,
      source_manifest: "research-cycle.json",
      notes: `tradewarden outcome ${String(tw.outcome)}, exit code ${String(tw.exit_code)}`,
    },
    safety: { ...TRADECAT_SAFETY },
    tradewarden_safety: safety,
    limitations,
  };
  if (typeof firstSymbol === "string") doc.symbol = firstSymbol;
  return doc;
}
