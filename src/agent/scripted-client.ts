/**
 * The scripted model: a deterministic stand-in for Claude, the default when no API key is set. It
 * behaves like an agent — it emits tool_use blocks turn by turn and decides from the tool_result JSON
 * it gets back — and it keeps no hidden state: every decision is derived from the conversation, so a
 * replayed conversation gives the same answers.
 *
 * Default policy "momentum" (the run report shows it in each order's reason and the summary):
 *   1. get_portfolio and list_universe (one turn, two parallel calls);
 *   2. get_price_history for the holdings, then universe instruments in listed order, at most 12
 *      symbols, six parallel calls per turn;
 *   3. SELL a whole holding when its last close is below its SMA50, or it is more than 15% below its
 *      6-month high (limit = last close × 0.995, in cents);
 *   4. BUY (only when trading state is ACTIVE, at most 2 new positions, never adding to a holding)
 *      instruments whose 3-month return is positive, last close > SMA20 > SMA50, ranked by 3-month
 *      return; limit = last close × 1.005 in cents (inside the price band), quantity = whole shares
 *      so the position is ~80% of the position limit of the account value, and within the cash left
 *      after earlier buys (2% kept back for commissions);
 *   5. orders capped by the orders left this month (sells first); nothing qualifies → hold;
 *   6. search_news for each candidate's symbol (src/agent/scripted-news.ts): a buy with negative news from
 *      the last 30 days is dropped; the newest dated item naming the instrument is cited next to its history;
 *   7. check_orders on the candidates, drop what the gate blocks, submit_orders with the rest (or a
 *      hold), citing the portfolio's and each history's evidence_id. A bounce drops the blocked
 *      orders and submits once more; a pending-corrections refusal abandons the listed codes.
 *
 * Scenario scripts for tests (`model.script`): `invalid-then-repair`, `blocked-then-revise`,
 * `pending-abandoned`, `hold`, `no-submit` (ends its turn with text), `runaway` (never submits),
 * `slow` (waits until its call is aborted).
 */
import type { ProposedOrder } from "../core/domain.js";
import { applyNews, type NewsStep, newsToSearch } from "./scripted-news.js";
import {
  type CallHooks,
  type ContentBlock,
  type Message,
  ModelCallError,
  type ModelClient,
  type ModelRequest,
  type ModelResponse,
  type ToolUseBlock,
} from "./types.js";
import { isWatchTask, watchAction } from "./scripted-watch.js";

export const SCRIPTS = [
  "momentum",
  "invalid-then-repair",
  "blocked-then-revise",
  "pending-abandoned",
  "hold",
  "no-submit",
  "runaway",
  "slow",
] as const;
export type ScriptName = (typeof SCRIPTS)[number];

export function isScriptName(s: string): s is ScriptName {
  return (SCRIPTS as readonly string[]).includes(s);
}

export interface ScriptedOptions {
  script?: string;
  /** Limits the policy sizes against (the system prompt states them to a real model). */
  limits?: { max_position_pct?: number; max_price_deviation_pct?: number };
  /** Simulated thinking time per call, ms (0 by default). */
  delayMs?: number;
}

/** A past tool call and what came back. */
type Step = NewsStep;

interface Action {
  text: string;
  calls?: { name: string; input: Record<string, unknown> }[];
}

const cents = (n: number) => Math.round(n * 100) / 100;
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function parseJson(text: unknown): Record<string, unknown> {
  if (typeof text !== "string") return {};
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The tool calls of the conversation so far, each with its parsed result. */
export function stepsOf(messages: readonly Message[]): Step[] {
  const results = new Map<string, { ok: boolean; result: Record<string, unknown> }>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const b of m.content) {
      if (b.type === "tool_result") {
        const r = b as { tool_use_id: string; content: unknown; is_error?: boolean };
        const result = parseJson(r.content);
        results.set(r.tool_use_id, { ok: r.is_error !== true && result.success === true, result });
      }
    }
  }
  const steps: Step[] = [];
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const b of m.content) {
      if (b.type !== "tool_use") continue;
      const u = b as ToolUseBlock;
      const r = results.get(u.id);
      if (!r) continue;
      steps.push({ name: u.name, input: (u.input ?? {}) as Record<string, unknown>, ok: r.ok, result: r.result });
    }
  }
  return steps;
}

const last = (steps: Step[], name: string, ok?: boolean) => {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (s && s.name === name && (ok === undefined || s.ok === ok)) return s;
  }
  return undefined;
};

interface Holding {
  symbol: string;
  quantity: number;
}

function holdingsOf(portfolio: Record<string, unknown>): Holding[] {
  const raw = Array.isArray(portfolio.holdings) ? (portfolio.holdings as Record<string, unknown>[]) : [];
  return raw
    .map((h) => ({ symbol: String(h.symbol ?? ""), quantity: num(h.quantity) ?? 0 }))
    .filter((h) => h.symbol && h.quantity > 0);
}

function universeOf(steps: Step[]): string[] {
  const u = last(steps, "list_universe", true);
  const raw = u && Array.isArray(u.result.instruments) ? (u.result.instruments as Record<string, unknown>[]) : [];
  return raw.map((i) => String(i.symbol ?? "")).filter(Boolean);
}

function histories(steps: Step[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const s of steps) {
    if (s.name === "get_price_history" && s.ok) out.set(String(s.result.symbol ?? s.input.symbol), s.result);
  }
  return out;
}

function pendingCodes(result: Record<string, unknown>): string[] {
  const corr = result.correction as Record<string, unknown> | undefined;
  const pending = (corr?.pending ?? result.pending) as { error_code?: string }[] | undefined;
  const codes = Array.isArray(pending) ? pending.map((p) => String(p.error_code ?? "")).filter(Boolean) : [];
  return [...new Set(codes)];
}

function decisionsOf(result: Record<string, unknown>): Record<string, unknown>[] {
  const corr = result.correction as Record<string, unknown> | undefined;
  const d = result.decisions ?? corr?.decisions;
  return Array.isArray(d) ? (d as Record<string, unknown>[]) : [];
}

/** Keeps the orders the gate approved (matched by symbol and side). */
function keepApproved(orders: ProposedOrder[], decisions: Record<string, unknown>[]): ProposedOrder[] {
  if (decisions.length === 0) return orders;
  return orders.filter((o) => {
    const d = decisions.find((x) => {
      const order = (x.order ?? x) as Record<string, unknown>;
      return order.symbol === o.symbol && order.side === o.side;
    });
    return d ? d.approved === true : false;
  });
}

const MAX_HISTORIES = 12;
const HISTORY_BATCH = 6;
const MAX_BUYS = 2;
const STOP_DRAWDOWN_PCT = 15;

/** The momentum policy's proposal from the gathered evidence (pure). */
export function momentumOrders(steps: Step[], limits: ScriptedOptions["limits"] = {}): { orders: ProposedOrder[]; notes: string[] } {
  const notes: string[] = [];
  const pf = last(steps, "get_portfolio", true)?.result;
  if (!pf) return { orders: [], notes: ["no portfolio data"] };
  const pfEvidence = String(pf.evidence_id ?? "");
  const state = String(pf.trading_state ?? "ACTIVE");
  const value = num(pf.value) ?? 0;
  let cash = (num(pf.cash) ?? 0) * 0.98;
  const ordersLeft = num(pf.orders_left_this_month) ?? 0;
  const positionPct = limits.max_position_pct ?? 10;
  const band = limits.max_price_deviation_pct ?? 2;
  const up = Math.min(0.005, (band / 100) * 0.5);
  if (state === "HALTED") return { orders: [], notes: ["trading is halted"] };
  if (ordersLeft <= 0) return { orders: [], notes: ["no orders left this month"] };
  const hist = histories(steps);
  const held = holdingsOf(pf);
  const heldSet = new Set(held.map((h) => h.symbol));
  const evidence = (h: Record<string, unknown>) => [pfEvidence, String(h.evidence_id ?? "")].filter(Boolean);

  const sells: ProposedOrder[] = [];
  for (const h of held) {
    const p = hist.get(h.symbol);
    const close = p && num(p.last_close);
    const sma50 = p && num(p.sma50);
    const high = p && num(p.high_6m);
    if (!p || close === undefined) continue;
    const drawdown = high ? ((high - close) / high) * 100 : 0;
    const below = sma50 !== undefined && close < sma50;
    if (below || drawdown > STOP_DRAWDOWN_PCT) {
      const why = below
        ? `Last close ${close} is below its SMA50 ${cents(sma50 ?? 0)}: the trend has turned.`
        : `Last close ${close} is ${drawdown.toFixed(1)}% below its 6-month high (stop at ${STOP_DRAWDOWN_PCT}%).`;
      sells.push({
        symbol: h.symbol,
        side: "SELL",
        quantity: h.quantity,
        limit_price: cents(close * (1 - up)),
        reason: why,
        evidence_ids: evidence(p),
      });
    }
  }

  const buys: ProposedOrder[] = [];
  if (state === "ACTIVE") {
    const ranked = [...hist.entries()]
      .filter(([sym]) => !heldSet.has(sym))
      .map(([sym, p]) => {
        // the market tool names it returns_pct (percent); accept the contract summary's `returns` too
        const r = (p.returns_pct ?? p.returns ?? {}) as Record<string, unknown>;
        return { sym, p, r3m: num(r["3m"]), close: num(p.last_close), sma20: num(p.sma20), sma50: num(p.sma50) };
      })
      .filter((c) => c.r3m !== undefined && c.r3m > 0 && c.close !== undefined && c.sma20 !== undefined && c.sma50 !== undefined)
      .filter((c) => (c.close as number) > (c.sma20 as number) && (c.sma20 as number) > (c.sma50 as number))
      .sort((a, b) => (b.r3m as number) - (a.r3m as number) || a.sym.localeCompare(b.sym));
    for (const c of ranked) {
      if (buys.length >= MAX_BUYS) break;
      const limit = cents((c.close as number) * (1 + up));
      const target = (value * positionPct * 0.8) / 100;
      const qty = Math.floor(Math.min(target, cash) / limit);
      if (qty < 1) {
        notes.push(`${c.sym} qualifies but one share does not fit the position limit or the cash`);
        continue;
      }
      cash -= qty * limit;
      buys.push({
        symbol: c.sym,
        side: "BUY",
        quantity: qty,
        limit_price: limit,
        reason: `3-month return ${c.r3m} is positive and last close ${c.close} > SMA20 ${cents(c.sma20 as number)} > SMA50 ${cents(c.sma50 as number)}; sized to ~${(positionPct * 0.8).toFixed(1)}% of the account.`,
        evidence_ids: evidence(c.p),
      });
    }
  } else {
    notes.push(`trading state ${state}: sells only`);
  }
  const orders = [...sells, ...buys].slice(0, ordersLeft);
  if (orders.length === 0) notes.push("no holding breaks its exit rule and no instrument meets the entry rule");
  return { orders, notes };
}

export class ScriptedClient implements ModelClient {
  readonly model = "scripted";
  readonly script: ScriptName;
  private readonly opts: ScriptedOptions;

  constructor(opts: ScriptedOptions = {}) {
    const script = opts.script ?? "momentum";
    if (!isScriptName(script)) throw new Error(`unknown scripted model script "${script}"; known: ${SCRIPTS.join(", ")}`);
    this.script = script;
    this.opts = opts;
  }

  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    if (req.signal?.aborted) throw new ModelCallError("aborted", "the model call was aborted");
    if (this.script === "slow") return this.hang(req.signal);
    if (this.opts.delayMs) await sleep(this.opts.delayMs, req.signal);
    const turn = req.messages.filter((m) => m.role === "assistant").length + 1;
    const steps = stepsOf(req.messages);
    const action = this.decide(steps, turn, isWatchTask(req.messages));
    const content: ContentBlock[] = [{ type: "text", text: action.text }];
    (action.calls ?? []).forEach((c, i) => {
      content.push({ type: "tool_use", id: `toolu_scripted_${String(turn).padStart(2, "0")}_${i}`, name: c.name, input: c.input });
    });
    if (hooks?.onText) for (const piece of action.text.match(/\S+\s*/g) ?? []) hooks.onText(piece);
    const inChars = req.system.length + JSON.stringify(req.tools).length + JSON.stringify(req.messages).length;
    const outChars = JSON.stringify(content).length;
    return {
      content,
      stop_reason: action.calls?.length ? "tool_use" : "end_turn",
      usage: {
        input_tokens: Math.ceil(inChars / 4),
        output_tokens: Math.ceil(outChars / 4),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
      model: this.model,
    };
  }

  private hang(signal: AbortSignal | undefined): Promise<never> {
    return new Promise((_, reject) => {
      const fail = () => reject(new ModelCallError("aborted", "the model call was aborted"));
      if (!signal) return; // never settles: the loop's deadline ends it
      if (signal.aborted) fail();
      signal.addEventListener("abort", fail, { once: true });
    });
  }

  private decide(steps: Step[], turn: number, watch: boolean): Action {
    switch (this.script) {
      case "hold":
        if (!last(steps, "get_portfolio")) return { text: "Reading the account first.", calls: [{ name: "get_portfolio", input: {} }] };
        return submit([], "Holding: the scripted hold scenario proposes no trades.");
      case "no-submit":
        return { text: "I have looked enough and will not propose anything today." };
      case "runaway":
        return { text: `Checking the account again (turn ${turn}).`, calls: [{ name: "get_portfolio", input: {} }] };
      case "invalid-then-repair":
        return this.invalidThenRepair(steps);
      case "blocked-then-revise":
        return this.blockedThenRevise(steps);
      case "pending-abandoned":
        return this.pendingAbandoned(steps);
      default:
        return this.momentum(steps, watch);
    }
  }

  private opening(steps: Step[]): Action | undefined {
    if (!last(steps, "get_portfolio") || !last(steps, "list_universe")) {
      return {
        text: "Reading the account and the tradable universe first.",
        calls: [
          { name: "get_portfolio", input: {} },
          { name: "list_universe", input: { limit: 50 } },
        ],
      };
    }
    return undefined;
  }

  private momentum(steps: Step[], watch = false): Action {
    const open = this.opening(steps);
    if (open) return open;
    const pf = last(steps, "get_portfolio", true)?.result;
    if (!pf) return submit([], "Holding: the portfolio could not be read, so no trade can be sized safely.");

    const lastSubmit = last(steps, "submit_orders");
    if (lastSubmit && !lastSubmit.ok) return this.afterRefusedSubmit(lastSubmit);

    // Histories: holdings first, then the universe in listed order.
    const wanted = [...new Set([...holdingsOf(pf).map((h) => h.symbol), ...universeOf(steps)])].slice(0, MAX_HISTORIES);
    const asked = new Set(steps.filter((s) => s.name === "get_price_history").map((s) => String(s.input.symbol)));
    const limitHit = steps.some((s) => s.name === "get_price_history" && s.result.error_code === "tool_call_limit_reached");
    const todo = limitHit ? [] : wanted.filter((s) => !asked.has(s)).slice(0, HISTORY_BATCH);
    if (todo.length > 0) {
      return {
        text: `Looking at the price history of ${todo.join(", ")}.`,
        calls: todo.map((symbol) => ({ name: "get_price_history", input: { symbol } })),
      };
    }

    const momentum = momentumOrders(steps, this.opts.limits);
    if (watch) return watchAction(steps, momentum.orders);
    const toSearch = newsToSearch(momentum.orders, steps);
    if (toSearch.length > 0) {
      return {
        text: `Checking the news before the trading day for ${toSearch.join(", ")}.`,
        calls: toSearch.map((symbol) => ({ name: "search_news", input: { query: symbol, max_results: 3 } })),
      };
    }
    const news = applyNews(momentum.orders, steps);
    const orders = news.orders;
    const notes = [...momentum.notes, ...news.notes];
    if (orders.length === 0) return submit([], `Holding: ${notes.join("; ") || "nothing qualifies"}. Doing nothing is the right call today.`);
    const check = last(steps, "check_orders");
    if (!check) {
      return {
        text: `Momentum candidates: ${orders.map((o) => `${o.side} ${o.quantity} ${o.symbol} @ ${o.limit_price}`).join(", ")}. Dry-running them through the gate.`,
        calls: [{ name: "check_orders", input: { orders } }],
      };
    }
    const approved = check.ok ? keepApproved(orders, decisionsOf(check.result)) : orders;
    const dropped = orders.length - approved.length;
    const summary =
      approved.length === 0
        ? `Holding: the gate blocked every momentum candidate (${orders.map((o) => o.symbol).join(", ")}).`
        : `Momentum: ${approved.map((o) => `${o.side} ${o.quantity} ${o.symbol} @ ${o.limit_price}`).join(", ")}.${dropped ? ` ${dropped} candidate(s) dropped after the gate's dry run.` : ""} Exit rule: below SMA50 or >${STOP_DRAWDOWN_PCT}% under the 6-month high; entry: positive 3-month return with close > SMA20 > SMA50.`;
    return submit(approved, summary, this.abandonable(steps));
  }

  /** Pending retryable codes left over from earlier calls that the policy gives up on. */
  private abandonable(steps: Step[]): string[] {
    const pending = new Map<string, string>();
    for (const s of steps) {
      if (s.ok) pending.delete(s.name);
      else if (s.result.retryable === true && s.name !== "submit_orders") pending.set(s.name, String(s.result.error_code));
      else pending.delete(s.name);
    }
    return [...new Set(pending.values())];
  }

  private afterRefusedSubmit(refused: Step): Action {
    const prev = (refused.input.orders ?? []) as ProposedOrder[];
    const code = String(refused.result.error_code ?? "");
    if (code === "orders_blocked") {
      const kept = keepApproved(prev, decisionsOf(refused.result));
      return submit(
        kept,
        `Revised after the gate's verdicts: kept ${kept.length} of ${prev.length} order(s); blocked ones removed.`,
        (refused.input.abandon_error_codes as string[] | undefined) ?? [],
      );
    }
    if (code === "pending_corrections") {
      const codes = pendingCodes(refused.result);
      return submit(prev, String(refused.input.summary ?? "Proposal."), codes, "These calls could not be repaired within this run; the proposal does not depend on them.");
    }
    return submit([], `Holding: submit_orders failed (${code}); proposing no trades.`, pendingCodes(refused.result));
  }

  private invalidThenRepair(steps: Step[]): Action {
    const open = this.opening(steps);
    if (open) return open;
    const symbol = universeOf(steps)[0] ?? "ALFA";
    const ph = steps.filter((s) => s.name === "get_price_history");
    if (ph.length === 0) {
      return { text: `Fetching ${symbol}'s history.`, calls: [{ name: "get_price_history", input: { ticker: symbol, lookback_days: "six months" } }] };
    }
    if (!ph.some((s) => s.ok)) {
      return { text: "My arguments were invalid; repairing them as the correction says.", calls: [{ name: "get_price_history", input: { symbol } }] };
    }
    return submit([], `Holding after reviewing ${symbol}.`);
  }

  private blockedThenRevise(steps: Step[]): Action {
    const open = this.opening(steps);
    if (open) return open;
    const pf = last(steps, "get_portfolio", true)?.result ?? {};
    const symbol = universeOf(steps)[0] ?? "ALFA";
    const h = last(steps, "get_price_history", true);
    if (!last(steps, "get_price_history")) return { text: `Fetching ${symbol}'s history.`, calls: [{ name: "get_price_history", input: { symbol } }] };
    const close = num(h?.result.last_close) ?? 100;
    const evidence = [String(pf.evidence_id ?? ""), String(h?.result.evidence_id ?? "")].filter(Boolean);
    const order = (limit: number): ProposedOrder => ({
      symbol,
      side: "BUY",
      quantity: 1,
      limit_price: limit,
      reason: "Scenario: one share to exercise the gate.",
      evidence_ids: evidence,
    });
    const submits = steps.filter((s) => s.name === "submit_orders");
    if (submits.length === 0) return submit([order(cents(close * 1.1))], "One share, limit 10% over the reference (deliberately outside the band).");
    return submit([order(cents(close))], "Revised: limit at the reference price.");
  }

  private pendingAbandoned(steps: Step[]): Action {
    const open = this.opening(steps);
    if (open) return open;
    if (!last(steps, "get_price_history")) {
      return { text: "Fetching a history with arguments I will not repair.", calls: [{ name: "get_price_history", input: {} }] };
    }
    const submits = steps.filter((s) => s.name === "submit_orders");
    if (submits.length === 0) return submit([], "Holding.");
    const refused = submits[submits.length - 1] as Step;
    const codes = pendingCodes(refused.result);
    return submit([], "Holding.", codes.length ? codes : ["invalid_tool_arguments"], "The history call is not needed for a hold.");
  }
}

function submit(orders: ProposedOrder[], summary: string, abandon: string[] = [], explanation?: string): Action {
  const input: Record<string, unknown> = { orders, summary };
  if (abandon.length > 0) {
    input.abandon_error_codes = abandon;
    input.abandon_explanation = explanation ?? "These retryable errors concern calls this proposal does not depend on.";
  }
  return {
    text: orders.length === 0 ? "Submitting a hold." : `Submitting ${orders.length} order(s).`,
    calls: [{ name: "submit_orders", input }],
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(new ModelCallError("aborted", "the model call was aborted"));
      },
      { once: true },
    );
  });
}
