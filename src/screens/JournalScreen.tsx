/**
 * The journal browser (`tradewarden journal`): runs list (filter with /), run detail (timeline,
 * orders and fills, verdicts, the operator's decision, cost) and transcript viewer (search with
 * /, n, N), and an account view charting value against peak and the drawdown limit line with
 * trip, reset and fill markers. `?` lists every key. Reads only; never writes.
 */
import { Box, Text } from "ink";
import { useEffect, useMemo } from "react";
import { HelpOverlay, KeyHelp, keyHelpRows, type Line } from "./components.js";
import { useKeys } from "./input.js";
import { filterRuns, type JournalBrowserSource, type JournalRunDetail, type JournalRunSummary, type JournalScreenProps } from "./journal-data.js";
import { journalKey } from "./journal-input.js";
import { detailLines, transcriptLines } from "./journal-lines.js";
import { errText, FILTER_KEYS, initialJournalState, type JState, type Load, type Patch, SEARCH_KEYS, type View } from "./journal-state.js";
import { journalView } from "./journal-views.js";
import { JOURNAL_ACCOUNT_KEYS, JOURNAL_DETAIL_KEYS, JOURNAL_LIST_KEYS, JOURNAL_TRANSCRIPT_KEYS, type KeyTable } from "./keys.js";
import { useTerminalSize } from "./terminal.js";
import { clip } from "./text.js";
import { useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

export type { JournalBrowserSource, JournalRunSummary, JournalScreenProps } from "./journal-data.js";
export { filterRuns } from "./journal-data.js";

/** Loads the runs list once, and opens a run's detail or the account view (loading each). */
function useJournalLoads(source: JournalBrowserSource, set: (next: (prev: JState) => JState) => void, patch: Patch) {
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
  return { openRun, openAccount };
}

/** The lines of the open run view, wrapped once per view and width; `linesFor` gives a key's state its lines. */
function useRunLines(st: JState, allRuns: JournalRunSummary[] | null, width: number) {
  const viewKind = st.view.kind;
  const linesOf = (kind: View["kind"], d: JournalRunDetail | null): Line[] => {
    if (!d) return [];
    if (kind === "detail")
      return detailLines(
        d,
        allRuns?.find((r) => r.run_id === d.run_id),
        width,
      );
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
  return { lines, linesFor };
}

/** The keys the state answers to. */
function keysOf(st: JState): KeyTable {
  return st.view.kind === "list"
    ? st.filtering
      ? FILTER_KEYS
      : JOURNAL_LIST_KEYS
    : st.view.kind === "account"
      ? JOURNAL_ACCOUNT_KEYS
      : st.searching
        ? SEARCH_KEYS
        : st.view.kind === "detail"
          ? JOURNAL_DETAIL_KEYS
          : JOURNAL_TRANSCRIPT_KEYS;
}

export function JournalScreen({ source, onExit, onInterrupt }: JournalScreenProps) {
  const th = useTheme();
  const { columns, rows } = useTerminalSize();
  const [get, set] = useRefState<JState>(initialJournalState);
  const st = get();
  const patch: Patch = (p) => set((prev) => ({ ...prev, ...(typeof p === "function" ? p(prev) : p) }));
  const interrupt = onInterrupt ?? onExit;
  const { openRun, openAccount } = useJournalLoads(source, set, patch);

  const width = Math.max(20, columns - 1);
  const allRuns = st.runs.state === "ready" ? st.runs.data : null;
  const runs = useMemo(() => (allRuns ? filterRuns(allRuns, st.filter.text) : []), [allRuns, st.filter.text]);
  const { lines, linesFor } = useRunLines(st, allRuns, width);
  const keys = keysOf(st);
  const helpRows = keyHelpRows(keys, width);
  // title + help line(s) + the view's own status line
  const bodyHeight = Math.max(3, rows - 2 - helpRows - 1);

  useKeys((input, key) => journalKey({ s: get(), input, key, patch, interrupt, onExit, openRun, openAccount, linesFor, bodyHeight }));

  const { title, body, status } = journalView(st, runs, allRuns, lines, { th, width, bodyHeight });
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
