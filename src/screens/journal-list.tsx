/**
 * The journal's runs list. Column priority (tested at 70/80/120/200 columns): the trading day and
 * the outcome never go; the wall-clock start goes first, then orders/fills, who started the run (`sched` by the scheduler, `you` by hand), mode, cost; where the whole
 * run id would push out the mode, the run id shortens to the shortest prefix that tells the runs
 * apart (a prefix `journal --run` accepts) and the mode stays (the cost goes first then).
 */
import { Box, Text } from "ink";
import { usd, wallClock } from "../core/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import { type Column, cells, fitColumns } from "./columns.js";
import { type JournalRunSummary, outcomeCell } from "./journal-data.js";
import { windowStart } from "./scroll.js";
import { type Tone, useTheme } from "./theme.js";

type RunColumn = "day" | "started" | "by" | "mode" | "outcome" | "orders" | "cost" | "run";
const COLUMNS: readonly Column<RunColumn>[] = [
  { id: "day", header: "day", width: 11, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "started", header: "started", width: 21, align: "left", priority: 1 },
  { id: "by", header: "by", width: 5, align: "left", priority: 3 },
  { id: "mode", header: "mode", width: 8, align: "left", priority: 4 },
  { id: "outcome", header: "outcome", width: 18, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "orders", header: "ord/fill", width: 9, align: "right", priority: 2 },
  { id: "cost", header: "cost", width: 9, align: "right", priority: 5 },
  { id: "run", header: "run", width: 24, align: "left", priority: 6 },
];
const MARKER = 2;

/** The fewest leading characters (at least 8) that tell every run id of the list apart. */
function uniquePrefixLength(ids: readonly string[]): number {
  const sorted = [...ids].sort();
  let n = 8;
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as string;
    const b = sorted[i] as string;
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    n = Math.max(n, Math.min(k + 1, b.length));
  }
  return n;
}

function runColumns(width: number, runs: readonly JournalRunSummary[]): Column<RunColumn>[] {
  const cols = fitColumns(COLUMNS, width, 0, MARKER);
  if (cols.some((c) => c.id === "mode")) return cols;
  const short = uniquePrefixLength(runs.map((r) => r.run_id)) + 1;
  return fitColumns(
    COLUMNS.map((c) => (c.id === "run" ? { ...c, width: Math.min(c.width, short) } : c.id === "mode" ? { ...c, priority: 5.5 } : c)),
    width,
    0,
    MARKER,
  );
}

function runsHeader(cols: readonly Column<RunColumn>[]): string {
  return `${" ".repeat(MARKER)}${cells(cols, Object.fromEntries(cols.map((c) => [c.id, c.header])) as Record<RunColumn, string>)}`.trimEnd();
}

function runRow(cols: readonly Column<RunColumn>[], r: JournalRunSummary, selected: boolean): string {
  return `${selected ? "›" : " "} ${cells(cols, {
    day: sanitizeLine(r.trading_day),
    started: wallClock(sanitizeLine(r.started_at), false),
    by: r.trigger === "scheduled" ? "sched" : "you",
    mode: sanitizeLine(r.mode),
    outcome: sanitizeLine(outcomeCell(r)),
    orders: `${r.orders}/${r.fills}`,
    cost: usd(r.cost_usd),
    run: sanitizeLine(r.run_id).slice(0, runWidth(cols)),
  })}`.trimEnd();
}

/** The run id's room: its column less the space after it (the id is cut to a prefix, never with an ellipsis). */
function runWidth(cols: readonly Column<RunColumn>[]): number {
  return (cols.find((c) => c.id === "run")?.width ?? 1) - 1;
}

function outcomeTone(outcome: string): Tone {
  return outcome === "executed" || outcome === "hold" || outcome === "no_trades" ? "ok" : outcome === "rejected" || outcome === "observed" ? "plain" : "warn";
}

export function RunsList({ runs, selected, height, width }: { runs: readonly JournalRunSummary[]; selected: number; height: number; width: number }) {
  const th = useTheme();
  const cols = runColumns(width, runs);
  const sel = Math.min(selected, Math.max(0, runs.length - 1));
  const start = windowStart(sel, runs.length, height);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {runsHeader(cols)}
      </Text>
      {runs.slice(start, start + height).map((r, k) => {
        const i = start + k;
        const isSel = i === sel;
        return (
          <Text
            key={r.run_id}
            wrap="truncate-end"
            bold={isSel}
            inverse={isSel && th.color}
            color={
              isSel && th.color
                ? undefined
                : th.c(outcomeTone(r.decided_by ? (r.decided_by.decision === "approved" ? "executed" : "rejected") : (r.outcome ?? "unfinished")))
            }
          >
            {runRow(cols, r, isSel)}
          </Text>
        );
      })}
    </Box>
  );
}
