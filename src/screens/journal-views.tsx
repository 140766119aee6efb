/** What the journal browser draws for each view: its title, its body and its status line. */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { sanitizeLine } from "../util/sanitize.js";
import { type Line, ScrollLines, Spinner } from "./components.js";
import { AccountBody } from "./journal-chart.js";
import type { JournalRunSummary } from "./journal-data.js";
import { RunsList } from "./journal-list.js";
import type { JState, View } from "./journal-state.js";
import { LineField } from "./line-editor.js";
import { positionLabel, rangeLabel } from "./scroll.js";
import { clip } from "./text.js";
import type { Theme } from "./theme.js";

export interface JournalView {
  title: string;
  body: ReactNode;
  status: ReactNode;
}

/** The frame every view draws into. */
export interface ViewFrame {
  th: Theme;
  width: number;
  bodyHeight: number;
}

const loading = (what: string) => (
  <Text>
    <Spinner /> loading {what}…
  </Text>
);

/** The runs list (`runs` filtered from `allRuns`, null while loading or failed). */
function listView(st: JState, runs: JournalRunSummary[], allRuns: JournalRunSummary[] | null, { th, width, bodyHeight }: ViewFrame): JournalView {
  const all = allRuns?.length ?? 0;
  const title = `Journal · ${st.filter.text ? `${runs.length} of ${all} run(s) match` : `${all} run(s)`}`;
  if (st.runs.state === "loading") return { title, body: loading("runs"), status: null };
  if (st.runs.state === "error") return { title, body: <Text color={th.c("error")}>could not read the journal: {st.runs.message}</Text>, status: null };
  const body = (
    <Box flexDirection="column">
      {runs.length === 0 ? (
        <Text dimColor>{all === 0 ? "no runs yet: start one with tradewarden run" : "no run matches the filter"}</Text>
      ) : (
        <RunsList runs={runs} selected={st.selected} height={Math.max(1, bodyHeight - 1)} width={width} />
      )}
    </Box>
  );
  const status =
    st.filtering || st.filter.text ? (
      <LineField
        label="filter /"
        line={st.filter}
        focused={st.filtering}
        width={width}
        hint={st.filtering ? "" : `(Esc clears) · run ${positionLabel(st.selected, runs.length)}`}
      />
    ) : (
      <Text dimColor>run {positionLabel(st.selected, runs.length)}</Text>
    );
  return { title, body, status };
}

function accountView(st: JState, { th, width, bodyHeight }: ViewFrame): JournalView {
  const title = "Account · value against peak and the drawdown limit";
  const acc = st.account;
  let body: ReactNode;
  if (!acc || acc.state === "loading") body = loading("the account history");
  else if (acc.state === "error") body = <Text color={th.c("error")}>could not read the account history: {acc.message}</Text>;
  else if (acc.data.points.length === 0) body = <Text dimColor>no valuations yet</Text>;
  else body = <AccountBody account={acc.data} width={width} height={bodyHeight + 1} />;
  return { title, body, status: null };
}

/** A run's detail or transcript: its lines scrolled to the view's offset, search matches marked. */
function runView(st: JState, v: Extract<View, { kind: "detail" | "transcript" }>, lines: Line[], { th, width, bodyHeight }: ViewFrame): JournalView {
  const title = `${v.kind === "detail" ? "Run" : "Transcript of run"} ${sanitizeLine(v.runId)}`;
  const l = st.detail?.load;
  if (!l || l.state === "loading") return { title, body: loading("the run"), status: null };
  if (l.state === "error") return { title, body: <Text color={th.c("error")}>could not read the run: {l.message}</Text>, status: null };
  if (!l.data) return { title, body: <Text color={th.c("warn")}>run not found in the journal</Text>, status: null };
  const offset = Math.min(v.offset, Math.max(0, lines.length - bodyHeight));
  const sr = st.search;
  const marked = sr
    ? lines.map((x, i) => (i === sr.at ? { text: `▶ ${x.text}`, tone: "warn" as const } : sr.matches.includes(i) ? { ...x, tone: "accent" as const } : x))
    : lines;
  const body = <ScrollLines lines={marked} offset={offset} height={bodyHeight} width={width} />;
  const where = rangeLabel(offset, bodyHeight, lines.length);
  const status = st.searching ? (
    <LineField label="search /" line={st.searching} width={width} />
  ) : (
    <Text dimColor wrap="truncate-end">
      {where}
      {sr ? ` · "${clip(sr.query, 30)}": ${sr.matches.length === 0 ? "no match" : `match ${sr.matches.indexOf(sr.at) + 1} of ${sr.matches.length} (n/N)`}` : ""}
    </Text>
  );
  return { title, body, status };
}

/** The view the state has open. */
export function journalView(st: JState, runs: JournalRunSummary[], allRuns: JournalRunSummary[] | null, lines: Line[], frame: ViewFrame): JournalView {
  if (st.view.kind === "list") return listView(st, runs, allRuns, frame);
  if (st.view.kind === "account") return accountView(st, frame);
  return runView(st, st.view, lines, frame);
}
