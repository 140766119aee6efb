/** The journal browser's keys: one handler per view (list, filter prompt, account, run pager, search prompt). */
import type { Line } from "./components.js";
import type { Keys } from "./input.js";
import { filterRuns } from "./journal-data.js";
import { FILTER_KEYS, type JState, OVERLAY, type Patch, SEARCH_KEYS, type View } from "./journal-state.js";
import { isMove, JOURNAL_ACCOUNT_KEYS, JOURNAL_DETAIL_KEYS, JOURNAL_LIST_KEYS, JOURNAL_TRANSCRIPT_KEYS, matchKey } from "./keys.js";
import { EMPTY_LINE, type LineState, promptKey } from "./line-editor.js";
import { moveSelection, nextMatch, scrollBy, searchLines } from "./scroll.js";

/** One key press and what the screen offers its handlers. */
export interface JournalKey {
  s: JState;
  input: string;
  key: Keys;
  patch: Patch;
  interrupt: () => void;
  onExit: () => void;
  openRun: (runId: string) => void;
  openAccount: () => void;
  /** The lines of the run view of a state (the drawn ones when nothing changed). */
  linesFor: (s: JState) => Line[];
  bodyHeight: number;
}

type PagerView = Extract<View, { kind: "detail" | "transcript" }>;

export function journalKey(k: JournalKey) {
  const { s } = k;
  if (s.help) {
    if (matchKey(OVERLAY, k.input, k.key) === "interrupt") return k.interrupt();
    return k.patch({ help: false });
  }
  const v = s.view;
  if (v.kind === "list") return s.filtering ? filterKey(k) : listKey(k);
  if (v.kind === "account") return accountKey(k);
  const all = k.linesFor(s);
  if (s.searching) return searchKey(k, v, s.searching, all);
  return pagerKey(k, v, all);
}

function filterKey({ s, input, key, patch, interrupt }: JournalKey) {
  const out = promptKey(FILTER_KEYS, s.filter, input, key);
  if (out.kind === "interrupt") return interrupt();
  if (out.kind === "submit") return patch({ filtering: false });
  if (out.kind === "cancel") return patch({ filtering: false, filter: EMPTY_LINE, selected: 0 });
  if (out.kind === "edit") return patch({ filter: out.line, selected: 0 });
}

function listKey({ s, input, key, patch, interrupt, onExit, openRun, openAccount, bodyHeight }: JournalKey) {
  const list = s.runs.state === "ready" ? filterRuns(s.runs.data, s.filter.text) : [];
  const a = matchKey(JOURNAL_LIST_KEYS, input, key);
  if (isMove(a)) return patch({ selected: moveSelection(a, s.selected, list.length, bodyHeight - 2) });
  switch (a) {
    case "interrupt":
      return interrupt();
    case "quit":
      return onExit();
    case "help":
      return patch({ help: true });
    case "filter":
      return patch({ filtering: true });
    case "clear":
      return patch({ filter: EMPTY_LINE, selected: 0 });
    case "account":
      return openAccount();
    case "open": {
      const run = list[s.selected];
      if (run) openRun(run.run_id);
      return;
    }
    default:
      return;
  }
}

function accountKey({ input, key, patch, interrupt, onExit }: JournalKey) {
  const a = matchKey(JOURNAL_ACCOUNT_KEYS, input, key);
  if (a === "interrupt") return interrupt();
  if (a === "quit") return onExit();
  if (a === "help") return patch({ help: true });
  if (a === "back") return patch({ view: { kind: "list" } });
}

function searchKey({ input, key, patch, interrupt, bodyHeight }: JournalKey, v: PagerView, searching: LineState, all: Line[]) {
  const out = promptKey(SEARCH_KEYS, searching, input, key);
  if (out.kind === "interrupt") return interrupt();
  if (out.kind === "cancel") return patch({ searching: null });
  if (out.kind === "edit") return patch({ searching: out.line });
  if (out.kind !== "submit") return;
  const matches = searchLines(all, out.line.text);
  const at = nextMatch(matches, v.offset - 1, 1);
  return patch({
    searching: null,
    search: out.line.text.trim() ? { query: out.line.text.trim(), matches, at: at ?? -1 } : null,
    ...(at !== undefined ? { view: { ...v, offset: Math.min(at, Math.max(0, all.length - bodyHeight)) } } : {}),
  });
}

function pagerKey({ s, input, key, patch, interrupt, onExit, bodyHeight }: JournalKey, v: PagerView, all: Line[]) {
  const a = matchKey(v.kind === "detail" ? JOURNAL_DETAIL_KEYS : JOURNAL_TRANSCRIPT_KEYS, input, key);
  if (!a) return;
  if (a === "interrupt") return interrupt();
  if (a === "quit") return onExit();
  if (a === "help") return patch({ help: true });
  if (a === "search") return patch({ searching: EMPTY_LINE });
  if (a === "back") return patch({ search: null, view: v.kind === "detail" ? { kind: "list" } : { kind: "detail", runId: v.runId, offset: v.back } });
  if (a === "transcript") {
    if (v.kind === "detail" && s.detail?.load.state === "ready")
      patch({ search: null, view: { kind: "transcript", runId: v.runId, offset: 0, back: v.offset } });
    return;
  }
  if (a === "next" || a === "previous") {
    const sr = s.search;
    if (!sr) return;
    const at = nextMatch(sr.matches, sr.at < 0 ? v.offset - 1 : sr.at, a === "next" ? 1 : -1);
    if (at === undefined) return;
    return patch({ search: { ...sr, at }, view: { ...v, offset: Math.min(at, Math.max(0, all.length - bodyHeight)) } });
  }
  if (isMove(a)) patch({ view: { ...v, offset: scrollBy(a, v.offset, all.length, bodyHeight) } });
}
