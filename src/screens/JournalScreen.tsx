/**
 * The journal browser (`tradewarden journal`): runs list (filter with /), run detail (timeline,
 * orders and fills, verdicts, the operator's decision, cost) and transcript viewer (search with
 * /, n, N), and an account view charting value against peak and the drawdown limit line with
 * trip, reset and fill markers. `?` lists every key. Reads only; never writes.
 */
import { Box, Text } from "ink";
import { type ReactNode, useEffect, useMemo } from "react";
import { sanitizeLine } from "../util/sanitize.js";
import { HelpOverlay, KeyHelp, keyHelpRows, type Line, ScrollLines, Spinner } from "./components.js";
import { useKeys } from "./input.js";
import { AccountBody } from "./journal-chart.js";
import { filterRuns, type JournalAccount, type JournalRunDetail, type JournalRunSummary, type JournalScreenProps } from "./journal-data.js";
import { detailLines, transcriptLines } from "./journal-lines.js";
import { RunsList } from "./journal-list.js";
import { isMove, JOURNAL_ACCOUNT_KEYS, JOURNAL_DETAIL_KEYS, JOURNAL_LIST_KEYS, JOURNAL_TRANSCRIPT_KEYS, type KeyTable, matchKey, overlayKeys } from "./keys.js";
import { EMPTY_LINE, LineField, type LineState, promptKey, promptKeys } from "./line-editor.js";
import { moveSelection, nextMatch, positionLabel, rangeLabel, scrollBy, searchLines } from "./scroll.js";
import { useTerminalSize } from "./terminal.js";
import { clip } from "./text.js";
import { useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

export type { JournalAccount, JournalBrowserSource, JournalRunDetail, JournalRunSummary, JournalScreenProps } from "./journal-data.js";
export { filterRuns } from "./journal-data.js";

type Load<T> = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; data: T };

type View =
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

interface JState {
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

const QUIT = "quit (exit 130)";
const FILTER_KEYS = promptKeys("keep the filter", "clear the filter", QUIT);
const SEARCH_KEYS = promptKeys("search", "cancel the search", QUIT);
const OVERLAY = overlayKeys(QUIT);
const errText = (e: unknown) => sanitizeLine(e instanceof Error ? e.message : String(e));

export function JournalScreen({ source, onExit, onInterrupt }: JournalScreenProps) {
  const th = useTheme();
  const { columns, rows } = useTerminalSize();
  const [get, set] = useRefState<JState>(() => ({
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
  }));
  const st = get();
  const patch = (p: Partial<JState> | ((s: JState) => Partial<JState>)) => set((prev) => ({ ...prev, ...(typeof p === "function" ? p(prev) : p) }));
  const interrupt = onInterrupt ?? onExit;

  useEffect(() => {
    let live = true;
    Promise.resolve()
      .then(() => source.listRuns())
      .then(
        (runs) => live && set((prev) => ({ ...prev, runs: { state: "ready", data: runs } })),
        (e: unknown) => live && set((prev) => ({ ...prev, runs: { state: "error", message: errText(e) } })),
      );
    return () => {
      live = false;
    };
  }, [source, set]);

  const load = <T,>(get: () => T | Promise<T>, put: (l: Load<T>) => void) => {
    Promise.resolve()
      .then(get)
      .then(
        (data) => put({ state: "ready", data }),
        (e: unknown) => put({ state: "error", message: errText(e) }),
      );
  };
  const openRun = (runId: string) => {
    patch({ view: { kind: "detail", runId, offset: 0 }, detail: { runId, load: { state: "loading" } }, search: null });
    load(
      () => source.runDetail(runId),
      (l) => patch((s) => (s.detail?.runId === runId ? { detail: { runId, load: l } } : {})),
    );
  };
  const openAccount = () => {
    patch({ view: { kind: "account" }, account: { state: "loading" } });
    load(
      () => source.account(),
      (l) => patch({ account: l }),
    );
  };

  const width = Math.max(20, columns - 1);
  const allRuns = st.runs.state === "ready" ? st.runs.data : null;
  const runs = useMemo(() => (allRuns ? filterRuns(allRuns, st.filter.text) : []), [allRuns, st.filter.text]);
  const viewKind = st.view.kind;
  const linesOf = (kind: View["kind"], d: JournalRunDetail | null): Line[] => {
    if (!d) return [];
    if (kind === "detail") return detailLines(d, allRuns?.find((r) => r.run_id === d.run_id), width);
    return kind === "transcript" ? transcriptLines(d.transcript, width) : [];
  };
  const detailData = st.detail?.load.state === "ready" ? st.detail.load.data : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: linesOf reads exactly these
  const lines = useMemo(() => linesOf(viewKind, detailData), [viewKind, detailData, allRuns, width]);
  const linesFor = (s: JState): Line[] => {
    const d = s.detail?.load.state === "ready" ? s.detail.load.data : null;
    // The drawn lines when the key comes in the view that was drawn (the usual case): no re-wrap per key.
    return s.view.kind === viewKind && d === detailData ? lines : linesOf(s.view.kind, d);
  };
  const keys: KeyTable =
    st.view.kind === "list" ? (st.filtering ? FILTER_KEYS : JOURNAL_LIST_KEYS) : st.view.kind === "account" ? JOURNAL_ACCOUNT_KEYS : st.searching ? SEARCH_KEYS : st.view.kind === "detail" ? JOURNAL_DETAIL_KEYS : JOURNAL_TRANSCRIPT_KEYS;
  const helpRows = keyHelpRows(keys, width);
  // title + help line(s) + the view's own status line
  const bodyHeight = Math.max(3, rows - 2 - helpRows - 1);

  useKeys((input, key) => {
    const s = get();
    if (s.help) {
      if (matchKey(OVERLAY, input, key) === "interrupt") return interrupt();
      return patch({ help: false });
    }
    const v = s.view;
    if (v.kind === "list") {
      const list = s.runs.state === "ready" ? filterRuns(s.runs.data, s.filter.text) : [];
      if (s.filtering) {
        const out = promptKey(FILTER_KEYS, s.filter, input, key);
        if (out.kind === "interrupt") return interrupt();
        if (out.kind === "submit") return patch({ filtering: false });
        if (out.kind === "cancel") return patch({ filtering: false, filter: EMPTY_LINE, selected: 0 });
        if (out.kind === "edit") return patch({ filter: out.line, selected: 0 });
        return;
      }
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
    if (v.kind === "account") {
      const a = matchKey(JOURNAL_ACCOUNT_KEYS, input, key);
      if (a === "interrupt") return interrupt();
      if (a === "quit") return onExit();
      if (a === "help") return patch({ help: true });
      if (a === "back") return patch({ view: { kind: "list" } });
      return;
    }
    const all = linesFor(s);
    if (s.searching) {
      const out = promptKey(SEARCH_KEYS, s.searching, input, key);
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
    const a = matchKey(v.kind === "detail" ? JOURNAL_DETAIL_KEYS : JOURNAL_TRANSCRIPT_KEYS, input, key);
    if (!a) return;
    if (a === "interrupt") return interrupt();
    if (a === "quit") return onExit();
    if (a === "help") return patch({ help: true });
    if (a === "search") return patch({ searching: EMPTY_LINE });
    if (a === "back") return patch({ search: null, view: v.kind === "detail" ? { kind: "list" } : { kind: "detail", runId: v.runId, offset: v.back } });
    if (a === "transcript") {
      if (v.kind === "detail" && s.detail?.load.state === "ready") patch({ search: null, view: { kind: "transcript", runId: v.runId, offset: 0, back: v.offset } });
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
  });

  // ── views ──
  let title: string;
  let body: ReactNode;
  let status: ReactNode = null;
  const loading = (what: string) => (
    <Text>
      <Spinner /> loading {what}…
    </Text>
  );
  if (st.view.kind === "list") {
    const all = allRuns?.length ?? 0;
    title = `Journal · ${st.filter.text ? `${runs.length} of ${all} run(s) match` : `${all} run(s)`}`;
    if (st.runs.state === "loading") body = loading("runs");
    else if (st.runs.state === "error") body = <Text color={th.c("error")}>could not read the journal: {st.runs.message}</Text>;
    else {
      body = (
        <Box flexDirection="column">
          {runs.length === 0 ? (
            <Text dimColor>{all === 0 ? "no runs yet: start one with tradewarden run" : "no run matches the filter"}</Text>
          ) : (
            <RunsList runs={runs} selected={st.selected} height={Math.max(1, bodyHeight - 1)} width={width} />
          )}
        </Box>
      );
      status =
        st.filtering || st.filter.text ? (
          <LineField label="filter /" line={st.filter} focused={st.filtering} width={width} hint={st.filtering ? "" : `(Esc clears) · run ${positionLabel(st.selected, runs.length)}`} />
        ) : (
          <Text dimColor>run {positionLabel(st.selected, runs.length)}</Text>
        );
    }
  } else if (st.view.kind === "account") {
    title = "Account · value against peak and the drawdown limit";
    const acc = st.account;
    if (!acc || acc.state === "loading") body = loading("the account history");
    else if (acc.state === "error") body = <Text color={th.c("error")}>could not read the account history: {acc.message}</Text>;
    else if (acc.data.points.length === 0) body = <Text dimColor>no valuations yet</Text>;
    else body = <AccountBody account={acc.data} width={width} height={bodyHeight + 1} />;
  } else {
    const v = st.view;
    title = `${v.kind === "detail" ? "Run" : "Transcript of run"} ${sanitizeLine(v.runId)}`;
    const l = st.detail?.load;
    if (!l || l.state === "loading") body = loading("the run");
    else if (l.state === "error") body = <Text color={th.c("error")}>could not read the run: {l.message}</Text>;
    else if (!l.data) body = <Text color={th.c("warn")}>run not found in the journal</Text>;
    else {
      const offset = Math.min(v.offset, Math.max(0, lines.length - bodyHeight));
      const sr = st.search;
      const marked = sr ? lines.map((x, i) => (i === sr.at ? { text: `▶ ${x.text}`, tone: "warn" as const } : sr.matches.includes(i) ? { ...x, tone: "accent" as const } : x)) : lines;
      body = <ScrollLines lines={marked} offset={offset} height={bodyHeight} width={width} />;
      const where = rangeLabel(offset, bodyHeight, lines.length);
      status = st.searching ? (
        <LineField label="search /" line={st.searching} width={width} />
      ) : (
        <Text dimColor wrap="truncate-end">
          {where}
          {sr ? ` · "${clip(sr.query, 30)}": ${sr.matches.length === 0 ? "no match" : `match ${sr.matches.indexOf(sr.at) + 1} of ${sr.matches.length} (n/N)`}` : ""}
        </Text>
      );
    }
  }

  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={th.c("accent")} wrap="truncate-end">
        tradewarden · {clip(title, width - 14)}
      </Text>
      {st.help ? <HelpOverlay title={`journal · ${st.view.kind}`} table={keys} width={width} /> : body}
      {st.help ? null : status}
      {st.help ? null : <KeyHelp table={keys} width={width} />}
    </Box>
  );
}
