/** The journal browser's state: which view is open, what has loaded, the filter and the search. */
import { sanitizeLine } from "../util/sanitize.js";
import type { JournalAccount, JournalRunDetail, JournalRunSummary } from "./journal-data.js";
import { overlayKeys } from "./keys.js";
import { EMPTY_LINE, type LineState, promptKeys } from "./line-editor.js";

export type Load<T> = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; data: T };

export type View =
  | { kind: "list" }
  | { kind: "detail"; runId: string; offset: number }
  | { kind: "transcript"; runId: string; offset: number; back: number }
  | { kind: "account" };

interface Search {
  query: string;
  matches: number[];
  /** The line of the current match, or -1 before the first jump. */
  at: number;
}

export interface JState {
  view: View;
  runs: Load<JournalRunSummary[]>;
  filter: LineState;
  filtering: boolean;
  selected: number;
  detail: { runId: string; load: Load<JournalRunDetail | null> } | null;
  account: Load<JournalAccount> | null;
  help: boolean;
  /** The search prompt of the detail/transcript view, while open. */
  searching: LineState | null;
  search: Search | null;
}

/** Merge a partial state (or one made from the latest state) into the state. */
export type Patch = (p: Partial<JState> | ((s: JState) => Partial<JState>)) => void;

export function initialJournalState(): JState {
  return {
    view: { kind: "list" },
    runs: { state: "loading" },
    filter: EMPTY_LINE,
    filtering: false,
    selected: 0,
    detail: null,
    account: null,
    help: false,
    searching: null,
    search: null,
  };
}

const QUIT = "quit (exit 130)";
export const FILTER_KEYS = promptKeys("keep the filter", "clear the filter", QUIT);
export const SEARCH_KEYS = promptKeys("search", "cancel the search", QUIT);
export const OVERLAY = overlayKeys(QUIT);
export const errText = (e: unknown) => sanitizeLine(e instanceof Error ? e.message : String(e));
