/**
 * The run console's state: a pure function of the run's event stream (`reduceRun`), tested
 * without Ink. Every string that came from the model, a tool or the broker is sanitised here,
 * once, before anything can draw it (the streamed text is sanitised when it is drawn or finished).
 *
 * Cost per event is O(1) amortised: finished items are appended in place to one array shared by
 * successive states, and `itemCount` is the version that tells a consumer the list grew. A state
 * therefore owns `items[0 .. itemCount)`; never read past it from an old state.
 */
import type { GateDecision } from "../core/gate-types.js";
import type { RunEvent } from "../core/events.js";
import { decisionText, joinClauses, money, pct, standingFiredText, usd, withoutCodePrefix } from "../run/format.js";
import { describe } from "../run/headless.js";
import { displayEvent, sanitizeLine, sanitizeText } from "../util/sanitize.js";
import type { Tone } from "./theme.js";
import { compactJson } from "./text.js";
import type { PendingToolCall, RunFinal, RunHeader, RunItem, RunState, ToolCorrectionView, VerdictRow } from "./run-state-types.js";
import { initialRunState } from "./run-state-types.js";

export * from "./run-state-types.js";

/** The valid finished items of a state (a copy; O(n): for tests and the journal, not per event). */
export function finishedItems(state: RunState): RunItem[] {
  return state.items.slice(0, state.itemCount);
}

type ItemBody = RunItem extends infer T ? (T extends RunItem ? Omit<T, "key"> : never) : never;

/** Append in place; `itemCount` moves only in the returned state. */
function append(s: RunState, seq: number, ...bodies: ItemBody[]): RunState {
  let count = s.itemCount;
  // A state is only ever extended from its own end: if an older state is reduced again, truncate.
  if (s.items.length !== count) s.items.length = count;
  for (const b of bodies) {
    s.items.push({ ...b, key: `${seq}.${count}` } as RunItem);
    count++;
  }
  return { ...s, itemCount: count };
}

/** Move the streamed text of the turn, if any, into the finished items. */
function flushLive(s: RunState, seq: number): RunState {
  if (!s.live) return s;
  const text = sanitizeText(s.live.text).replace(/\s+$/, "");
  const next: RunState = { ...s, live: null };
  return text.trim() ? append(next, seq, { kind: "text", turn: s.live.turn, text }) : next;
}

function verdictRows(decisions: readonly GateDecision[]): VerdictRow[] {
  return decisions.map((d) => ({
    head: `${sanitizeLine(String(d.order.side)).toUpperCase()} ${d.order.quantity} ${sanitizeLine(String(d.order.symbol))} @ ${d.order.limit_price}`,
    approved: d.approved,
    notional: d.notional,
    reasons: d.reasons.map((r) => `${r.code}: ${sanitizeLine(r.message)}`),
  }));
}

function note(tone: Tone, text: string, detail: string[] = []): ItemBody {
  return { kind: "note", tone, text, detail };
}

const ORDER_TONE: Record<string, Tone> = {
  "order.placed": "plain",
  "order.partially_filled": "plain",
  "order.filled": "ok",
  "order.cancelled": "warn",
  "order.expired": "warn",
  "order.rejected": "error",
  "order.uncertain": "error",
  "order.recovered": "warn",
};

export function reduceRun(state: RunState, event: RunEvent): RunState {
  // Every string of the event sanitised here, at the boundary, so no field of the state skips it.
  const e = displayEvent(event);
  let s: RunState = { ...state, lastSeq: Math.max(state.lastSeq, e.seq) };
  const seq = e.seq;
  // Everything except more text for the turn, retries and notes ends the streamed text block.
  if (s.live && e.type !== "model.text" && e.type !== "model.retry" && e.type !== "run.note") s = flushLive(s, seq);

  switch (e.type) {
    case "run.started": {
      const header: RunHeader = {
        ...s.header,
        run_id: sanitizeLine(e.run_id),
        mode: e.mode,
        trading_day: sanitizeLine(e.trading_day),
        model: sanitizeLine(`${e.model.provider}/${e.model.id}`),
        broker: sanitizeLine(e.broker.kind),
        account: sanitizeLine(e.broker.account_id),
        base_currency: sanitizeLine(e.base_currency),
      };
      return append({ ...s, header, status: { ...s.status, phase: "preflight" } }, seq, note("accent", `run ${header.run_id} started: ${header.mode} mode, trading day ${header.trading_day}, model ${header.model}, broker ${header.broker} (${header.account})`));
    }
    case "preflight.failed":
      return append({ ...s, status: { ...s.status, phase: "finished" } }, seq, note("error", `preflight failed (${sanitizeLine(e.code)}): ${sanitizeLine(e.message)}`));
    case "reconcile.ok":
      return append({ ...s, status: { ...s.status, phase: "valuation" } }, seq, note("dim", `reconciled: journal and broker agree (${e.positions} positions)`));
    case "order.recovered":
      return append(
        s,
        seq,
        note(
          e.settled ? "warn" : "error",
          `order recovered (run ${sanitizeLine(e.from_run)}): ${e.side} ${e.quantity} ${sanitizeLine(e.symbol)}: ${e.status_before} → ${e.status}, ${e.fills_booked} fill(s) booked: ${sanitizeLine(e.message)}`,
        ),
      );
    case "reconcile.failed":
      return append(
        { ...s, status: { ...s.status, phase: "finished" } },
        seq,
        note(
          "error",
          `reconciliation failed: ${e.differences.length} difference(s); nothing will be placed`,
          e.differences.map((d) => `${d.kind} ${sanitizeLine(d.symbol)}: ${sanitizeLine(d.message)}`),
        ),
      );
    case "valuation": {
      const header: RunHeader = {
        ...s.header,
        value: e.value,
        cash: e.cash,
        peak: e.peak,
        drawdown_pct: e.drawdown_pct,
        max_drawdown_pct: e.max_drawdown_pct,
        trading_state: e.trading_state,
        orders_left: e.orders_left,
        orders_used: e.orders_used,
        portfolio: e.portfolio ?? s.header.portfolio,
      };
      const cur = s.header.base_currency;
      return append(
        { ...s, header, status: { ...s.status, phase: e.first_of_run ? "valuation" : s.status.phase } },
        seq,
        note(
          e.trading_state === "ACTIVE" ? "dim" : "warn",
          `${e.first_of_run ? "value" : "value after trading"} ${money(e.value, cur)} (cash ${money(e.cash, cur)}), peak ${money(e.peak)}, drawdown ${pct(e.drawdown_pct)} of max ${pct(e.max_drawdown_pct, 0)}, ${e.trading_state}, ${e.orders_left} order(s) left this month`,
        ),
      );
    }
    case "killswitch.tripped":
      return append(
        { ...s, header: { ...s.header, trading_state: "HALTED", value: e.value, peak: e.peak, drawdown_pct: e.drawdown_pct } },
        seq,
        note(
          "error",
          e.by === "operator"
            ? `KILL SWITCH TRIPPED by the operator: ${sanitizeLine(e.reason)} (drawdown ${pct(e.drawdown_pct)}, limit ${pct(e.limit_pct, 0)})`
            : `KILL SWITCH TRIPPED: ${sanitizeLine(e.reason)} (drawdown ${pct(e.drawdown_pct)} ≥ limit ${pct(e.limit_pct, 0)})`,
          e.liquidation.length ? e.liquidation.map((o) => `liquidate: ${o.side} ${o.quantity} ${sanitizeLine(o.symbol)} @ ${o.limit_price}`) : ["nothing to liquidate"],
        ),
      );
    case "run.note":
      return append(s, seq, note(e.level === "warn" ? "warn" : "dim", `note: ${sanitizeLine(e.message)}`));
    case "standing.fired":
      return append(s, seq, note(e.result === "placed" ? "ok" : e.result === "blocked" ? "warn" : "dim", standingFiredText(e)));
    case "model.turn_started": {
      const at = Date.parse(e.at);
      return {
        ...s,
        status: {
          ...s.status,
          phase: "agent",
          turn: e.turn,
          max_turns: e.max_turns,
          deadline_ms: Number.isFinite(at) ? at + e.time_left_ms : null,
          cost_usd: e.cost_usd,
          budget_usd: e.budget_usd,
          thinking: true,
          retry: null,
        },
        live: { turn: e.turn, text: "" },
      };
    }
    case "model.text": {
      const live = s.live && s.live.turn === e.turn ? { turn: e.turn, text: s.live.text + e.delta } : { turn: e.turn, text: e.delta };
      return { ...s, live };
    }
    case "model.response":
      return append(
        { ...s, status: { ...s.status, thinking: false, retry: null, cost_usd: e.total_cost_usd } },
        seq,
        note("dim", `turn ${e.turn}: ${sanitizeLine(e.stop_reason)} · ${e.usage.input_tokens + e.usage.cache_creation_input_tokens + e.usage.cache_read_input_tokens} in (${e.usage.cache_read_input_tokens} cached) / ${e.usage.output_tokens} out tokens · ${usd(e.cost_usd)} · ${(e.duration_ms / 1000).toFixed(1)}s`),
      );
    case "model.retry":
      return { ...s, status: { ...s.status, retry: `retry ${e.attempt}: ${sanitizeLine(e.message)}` } };
    case "tool.called": {
      const call: PendingToolCall = { call_id: sanitizeLine(e.call_id), tool: sanitizeLine(e.tool), args: sanitizeLine(compactJson(e.arguments)), turn: e.turn };
      return { ...s, pendingTools: [...s.pendingTools.filter((c) => c.call_id !== call.call_id), call] };
    }
    case "tool.rejected": {
      const callId = sanitizeLine(e.call_id);
      const call = s.pendingTools.find((c) => c.call_id === callId);
      const c = e.correction;
      const correction: ToolCorrectionView | undefined = c
        ? {
            instruction: sanitizeText(c.instruction),
            issues: (c.issues ?? []).map((i) => `${sanitizeLine(i.path || "(root)")}: ${sanitizeLine(i.message)}`),
            missing: (c.missing_fields ?? []).map(sanitizeLine),
            pending: (c.pending ?? []).map((p) => `${sanitizeLine(p.tool)} (${sanitizeLine(p.error_code)})`),
          }
        : undefined;
      return append({ ...s, pendingTools: s.pendingTools.filter((x) => x.call_id !== callId) }, seq, {
        kind: "tool",
        turn: e.turn,
        call_id: callId,
        tool: sanitizeLine(e.tool),
        args: call?.args ?? "",
        status: "rejected",
        error_code: sanitizeLine(e.error_code),
        message: sanitizeText(withoutCodePrefix(e.error, e.error_code)),
        retryable: e.retryable,
        ...(correction ? { correction } : {}),
      });
    }
    case "tool.result": {
      const callId = sanitizeLine(e.call_id);
      const call = s.pendingTools.find((c) => c.call_id === callId);
      return append({ ...s, pendingTools: s.pendingTools.filter((x) => x.call_id !== callId) }, seq, {
        kind: "tool",
        turn: e.turn,
        call_id: callId,
        tool: sanitizeLine(e.tool),
        args: call?.args ?? "",
        status: e.success ? "ok" : "failed",
        ...(e.error_code ? { error_code: sanitizeLine(e.error_code) } : {}),
        message: sanitizeText(withoutCodePrefix(e.summary, e.error_code)),
        truncated: e.truncated,
        duration_ms: e.duration_ms,
      });
    }
    case "tool.pending": {
      const pending = e.pending.map((p) => ({ tool: sanitizeLine(p.tool), error_code: sanitizeLine(p.error_code), error: sanitizeLine(p.error) }));
      return append({ ...s, pending }, seq, { kind: "pending", pending });
    }
    case "gate.dry_run": {
      const rows = verdictRows(e.decisions);
      const blocked = rows.filter((r) => !r.approved).length;
      return append(s, seq, { kind: "verdicts", tone: blocked ? "warn" : "ok", title: `gate dry run: ${rows.length - blocked} approved, ${blocked} blocked`, rows, footer: [] });
    }
    case "submit.bounced":
      return append(s, seq, { kind: "verdicts", tone: "warn", title: "submit bounced by the gate (one revision allowed)", rows: verdictRows(e.decisions), footer: [] });
    case "agent.finished":
      return append(
        { ...s, status: { ...s.status, thinking: false, cost_usd: Math.max(s.status.cost_usd, e.cost_usd), phase: "proposal" }, pendingTools: [], agent: { outcome: e.outcome, reason: sanitizeLine(e.reason), turns: e.turns, cost_usd: e.cost_usd } },
        seq,
        note(e.outcome === "submitted" || e.outcome === "hold" ? "accent" : "warn", `agent finished: ${e.outcome} (${sanitizeLine(e.reason)}) after ${e.turns} turn(s), ${usd(e.cost_usd)}`),
      );
    case "proposal": {
      const rows = verdictRows(e.decisions);
      const footer = [`summary: ${sanitizeLine(e.summary)}`, ...(e.abandoned.length ? [`abandoned corrections: ${e.abandoned.map(sanitizeLine).join(", ")}`] : [])];
      return append({ ...s, status: { ...s.status, phase: "proposal" } }, seq, {
        kind: "verdicts",
        tone: "accent",
        title: e.orders.length === 0 ? "proposal: hold (no orders)" : `proposal: ${e.orders.length} order(s)`,
        rows,
        footer,
      });
    }
    case "approval.requested":
      return append(
        { ...s, status: { ...s.status, phase: "approval" }, approval: { orders_hash: e.orders_hash, approvable: e.approvable, blocked: e.blocked } },
        seq,
        note("accent", `approval requested: ${e.approvable} approvable, ${e.blocked} blocked (orders ${sanitizeLine(e.orders_hash).slice(0, 12)})`),
      );
    case "approval.decided":
      return append(
        { ...s, status: { ...s.status, phase: "final_gate" }, approval: null },
        seq,
        note(
          e.decision === "approved" ? "ok" : e.decision === "killswitch" ? "error" : "warn",
          `decision: ${decisionText(e.decision, e.by)}${e.orders.length ? ` (${e.orders.length} order(s))` : ""}${e.reason ? `: ${sanitizeLine(e.reason)}` : ""}`,
          e.orders.map((o) => `${o.side} ${o.quantity} ${sanitizeLine(o.symbol)} @ ${o.limit_price}`),
        ),
      );
    case "gate.final": {
      const rows = verdictRows(e.decisions);
      const blocked = rows.filter((r) => !r.approved).length;
      return append({ ...s, status: { ...s.status, phase: "executing" } }, seq, { kind: "verdicts", tone: blocked ? "warn" : "ok", title: `final gate: ${rows.length - blocked} approved, ${blocked} blocked`, rows, footer: [] });
    }
    case "order.placed":
    case "order.partially_filled":
    case "order.filled":
    case "order.cancelled":
    case "order.rejected":
    case "order.uncertain":
    case "order.expired": {
      const head = `${e.side} ${e.quantity} ${sanitizeLine(e.symbol)} @ ${e.limit_price}`;
      let text: string;
      switch (e.type) {
        case "order.placed":
          text = `order placed: ${head} (${sanitizeLine(e.client_order_id)})`;
          break;
        case "order.partially_filled":
          text = `order partially filled: ${head}: ${e.filled_quantity}/${e.quantity} at ${e.avg_price}`;
          break;
        case "order.filled":
          text = `order filled: ${head}: ${e.filled_quantity} at ${e.avg_price} (commission ${money(e.commission)})`;
          break;
        case "order.cancelled":
          text = `order cancelled: ${head}: ${e.filled_quantity}/${e.quantity} filled: ${sanitizeLine(e.message)}`;
          break;
        case "order.expired":
          text = `order expired: ${head}: ${e.filled_quantity}/${e.quantity} filled`;
          break;
        case "order.rejected":
          text = `order rejected: ${head}: ${sanitizeLine(e.message)}`;
          break;
        case "order.uncertain":
          text = `order uncertain: ${head}: ${sanitizeLine(e.message)}`;
          break;
      }
      return append({ ...s, status: { ...s.status, phase: "executing" } }, seq, { kind: "order", tone: ORDER_TONE[e.type] ?? "plain", text });
    }
    case "run.finished": {
      const final: RunFinal = { outcome: e.outcome, exit_code: e.exit_code, message: sanitizeLine(e.message), cost_usd: e.cost_usd, ...(e.value_after !== undefined ? { value_after: e.value_after } : {}) };
      const good = e.exit_code === 0;
      return append(
        { ...s, final, pendingTools: [], status: { ...s.status, phase: "finished", thinking: false, cost_usd: Math.max(s.status.cost_usd, e.cost_usd) } },
        seq,
        note(good ? "ok" : "error", `run finished: ${e.outcome} (exit ${e.exit_code}): ${joinClauses(final.message, `LLM cost ${usd(e.cost_usd)}`, e.value_after !== undefined && `value ${money(e.value_after, s.header.base_currency)}`)}`),
      );
    }
    case "research.search":
    case "mask.enabled":
    case "mask.leak": {
      const plain = (x: string) => x;
      const line = describe(e, { red: plain, green: plain, yellow: plain, dim: plain }) ?? e.type;
      return append(s, seq, note(e.type === "mask.leak" ? "error" : e.type === "research.search" && e.status === "error" ? "warn" : "dim", line.trim()));
    }
    default: {
      const unknown: { type: string } = e;
      return append(s, seq, note("dim", `event ${sanitizeLine(String(unknown.type))}`));
    }
  }
}

/** A store the Ink tree reads with useSyncExternalStore; the reducer runs exactly once per event. */
export interface RunStore {
  dispatch(e: RunEvent): void;
  getState(): RunState;
  subscribe(listener: () => void): () => void;
}

export function createRunStore(initial: RunState = initialRunState()): RunStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    dispatch(e) {
      state = reduceRun(state, e);
      for (const l of listeners) l();
    },
    getState: () => state,
    subscribe(l) {
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
  };
}

