/**
 * Adapters for the journal's model-facing tools: get_portfolio, remember, recall. Arguments arrive
 * already schema-validated by the tool layer; failures map to the closed error-code set.
 */
import { TwError } from "../../core/errors.js";
import type { Journal } from "../../journal/journal.js";
import { NOTES_PROVENANCE, noteForModel, type RecallQuery } from "../../journal/notes.js";
import { type JournalToolDeps, portfolioSnapshot } from "../../journal/tool-handlers.js";
import type { Note, NoteKind } from "../../journal/types.js";
import type { getPortfolio } from "../defs/get-portfolio.js";
import type { recall } from "../defs/recall.js";
import type { remember } from "../defs/remember.js";
import type { AnswerOf, ArgsOf, HandlerOf } from "../define.js";
import type { HandlerFailure } from "../types.js";

function failure(e: unknown): HandlerFailure {
  if (e instanceof TwError && (e.code === "note_not_found" || e.code === "memory_full")) return { ok: false, code: e.code, message: e.message };
  return { ok: false, code: "tool_execution_failed", message: e instanceof Error ? e.message : String(e) };
}

/**
 * A note on a symbol that has live notes of the same kind may contradict them: unless the call
 * supersedes one or says to keep both, it is refused with the candidates and, for each, the
 * complete arguments that supersede it (plus the arguments that keep both).
 */
function conflictOf(journal: Journal, args: ArgsOf<typeof remember>, shown: (n: Note) => Record<string, unknown>): HandlerFailure | null {
  if (typeof args.symbol !== "string" || typeof args.supersedes === "string" || args.keep_existing === true) return null;
  const { notes } = journal.recall({ kind: args.kind as NoteKind, symbol: args.symbol, limit: 5 });
  if (notes.length === 0) return null;
  const base = { kind: args.kind, text: args.text, symbol: args.symbol };
  return {
    ok: false,
    code: "memory_conflict",
    message: `${notes.length} live ${String(args.kind)} note(s) on ${args.symbol.toUpperCase()} may contradict this one (${notes.map((n) => n.id).join(", ")}); nothing was saved`,
    details: {
      conflict_candidates: notes.map((n) => ({
        id: n.id,
        kind: n.kind,
        symbol: n.symbol ?? null,
        text: n.text,
        created_at: n.created_at,
        written_by: shown(n).written_by,
      })),
      retry_argument_choices: [...notes.map((n) => ({ ...base, supersedes: n.id })), { ...base, keep_existing: true }],
    },
  };
}

export function makeJournalToolHandlers(deps: JournalToolDeps): {
  get_portfolio: HandlerOf<typeof getPortfolio>;
  remember: HandlerOf<typeof remember>;
  recall: HandlerOf<typeof recall>;
} {
  const { journal } = deps;
  /** A note as the model is shown it: with where it came from (notes.ts). */
  const shown = (n: Note) => noteForModel(n, { tradingDay: journal.run(n.run_id)?.trading_day ?? null, currentRunId: deps.runId });
  const get_portfolio: HandlerOf<typeof getPortfolio> = (): AnswerOf<typeof getPortfolio> => {
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
  const rememberHandler: HandlerOf<typeof remember> = async (args, ctx): Promise<AnswerOf<typeof remember>> => {
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
  const recallHandler: HandlerOf<typeof recall> = (args): AnswerOf<typeof recall> => {
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
  return { get_portfolio, remember: rememberHandler, recall: recallHandler };
}
