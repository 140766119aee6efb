/**
 * Handlers for the journal's model-facing tools: get_portfolio, remember, recall. Arguments arrive
 * already schema-validated by the tool layer; failures map to the closed error-code set.
 */
import type { PriceSource } from "../core/domain.js";
import type { HandlerResult, ToolHandler } from "../tools/types.js";
import { TwError } from "../core/errors.js";
import type { Journal } from "./journal.js";
import { Dec, fromMinor } from "../core/money.js";
import { valueAccount } from "../core/valuation.js";
import { NOTES_PROVENANCE, noteForModel, type RecallQuery } from "./notes.js";
import type { Note, NoteKind } from "./types.js";

export interface JournalToolDeps {
  journal: Journal;
  prices: PriceSource;
  limits: { max_orders_per_month: number; max_drawdown_pct: number };
  now: () => Date;
  runId: string;
  tradingDay: string;
}

const round = (n: number, dp: number): number => new Dec(n).toDecimalPlaces(dp, Dec.ROUND_HALF_EVEN).toNumber();

/**
 * The portfolio as the model sees it: the one valuation (core/valuation.ts `valueAccount`, the same
 * the operator's view is made from) of ledger cash and holdings at reference prices.
 */
export function portfolioSnapshot(deps: Omit<JournalToolDeps, "now"> & { now: Date }) {
  const { journal, prices } = deps;
  const cur = journal.baseCurrency();
  const held = journal.holdings();
  const v = valueAccount(journal.cashMinor(), held, (s) => prices.referencePrice(s), cur);
  const value = fromMinor(v.valueMinor, cur);
  const peak = journal.peak() ?? value;
  const drawdown_pct = peak > 0 ? round(Math.max(0, ((peak - value) / peak) * 100), 4) : 0;
  const used = journal.ordersThisMonth(deps.now);
  return {
    as_of: deps.tradingDay,
    base_currency: cur,
    cash: fromMinor(v.cashMinor, cur),
    value,
    peak,
    drawdown_pct,
    max_drawdown_pct: deps.limits.max_drawdown_pct,
    trading_state: journal.tradingState(),
    orders_used_this_month: used,
    orders_left_this_month: Math.max(0, deps.limits.max_orders_per_month - used),
    holdings: v.holdings.map((r) => {
      const h = held[r.symbol] as (typeof held)[string];
      const mv = r.valueMinor === null ? null : fromMinor(r.valueMinor, cur);
      const pnl = r.pnlMinor === null ? null : fromMinor(r.pnlMinor, cur);
      return {
        symbol: r.symbol,
        quantity: r.quantity,
        currency: h.currency,
        reference_price: r.price,
        price_as_of: r.price_as_of,
        market_value: mv,
        weight_pct: mv === null || value <= 0 ? null : round((mv / value) * 100, 2),
        avg_cost: round(h.avg_cost, 6),
        unrealized_pnl: pnl,
        unrealized_pnl_pct: pnl === null || h.cost_basis <= 0 ? null : round((pnl / h.cost_basis) * 100, 2),
      };
    }),
  };
}

function failure(e: unknown): HandlerResult {
  if (e instanceof TwError && (e.code === "note_not_found" || e.code === "memory_full")) return { ok: false, code: e.code, message: e.message };
  return { ok: false, code: "tool_execution_failed", message: e instanceof Error ? e.message : String(e) };
}

/**
 * A note on a symbol that has live notes of the same kind may contradict them: unless the call
 * supersedes one or says to keep both, it is refused with the candidates and, for each, the
 * complete arguments that supersede it (plus the arguments that keep both).
 */
function conflictOf(journal: Journal, args: Record<string, unknown>, shown: (n: Note) => Record<string, unknown>): HandlerResult | null {
  if (typeof args.symbol !== "string" || typeof args.supersedes === "string" || args.keep_existing === true) return null;
  const { notes } = journal.recall({ kind: args.kind as NoteKind, symbol: args.symbol, limit: 5 });
  if (notes.length === 0) return null;
  const base = { kind: args.kind, text: args.text, symbol: args.symbol };
  return {
    ok: false,
    code: "memory_conflict",
    message: `${notes.length} live ${String(args.kind)} note(s) on ${args.symbol.toUpperCase()} may contradict this one (${notes.map((n) => n.id).join(", ")}); nothing was saved`,
    details: {
      conflict_candidates: notes.map((n) => ({ id: n.id, kind: n.kind, symbol: n.symbol ?? null, text: n.text, created_at: n.created_at, written_by: shown(n).written_by })),
      retry_argument_choices: [...notes.map((n) => ({ ...base, supersedes: n.id })), { ...base, keep_existing: true }],
    },
  };
}

export function makeJournalToolHandlers(deps: JournalToolDeps): { get_portfolio: ToolHandler; remember: ToolHandler; recall: ToolHandler } {
  const { journal } = deps;
  /** A note as the model is shown it: with where it came from (notes.ts). */
  const shown = (n: Note) => noteForModel(n, { tradingDay: journal.run(n.run_id)?.trading_day ?? null, currentRunId: deps.runId });
  const get_portfolio: ToolHandler = () => {
    try {
      const evidence_id = `portfolio:${deps.runId}`;
      const snap = portfolioSnapshot({ ...deps, now: deps.now() });
      // Time never runs backwards for the model: only runs of earlier trading days.
      const recent_activity = journal.recentActivity(10, { before: deps.tradingDay });
      return { ok: true, data: { evidence_id, ...snap, recent_activity }, evidenceIds: [evidence_id] };
    } catch (e) {
      return failure(e);
    }
  };
  const remember: ToolHandler = async (args, ctx) => {
    try {
      const conflict = conflictOf(journal, args, shown);
      if (conflict) return conflict;
      const note = await journal.remember({
        kind: args.kind as NoteKind,
        text: String(args.text),
        ...(typeof args.symbol === "string" ? { symbol: args.symbol } : {}),
        ...(typeof args.supersedes === "string" ? { supersedes: args.supersedes } : {}),
        run_id: deps.runId,
        // Provenance from the run, not from the model's arguments: what this run had seen so far.
        evidence_ids: [...ctx.seenEvidence],
        at: deps.now(),
      });
      return { ok: true, data: { note } };
    } catch (e) {
      return failure(e);
    }
  };
  const recall: ToolHandler = (args) => {
    try {
      // Notes of earlier trading days (and this run's own) only.
      const q: RecallQuery = { asOf: { tradingDay: deps.tradingDay, runId: deps.runId } };
      if (typeof args.kind === "string") q.kind = args.kind as NoteKind;
      if (typeof args.symbol === "string") q.symbol = args.symbol;
      if (typeof args.query === "string") q.query = args.query;
      q.limit = typeof args.limit === "number" ? args.limit : 20;
      const { notes, total } = journal.recall(q);
      return { ok: true, data: { about_these_notes: NOTES_PROVENANCE, notes: notes.map(shown), total } };
    } catch (e) {
      return failure(e);
    }
  };
  return { get_portfolio, remember, recall };
}
