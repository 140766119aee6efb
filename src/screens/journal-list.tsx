/**
 * The journal's runs list. Column priority (tested at 70/80/120/200 columns): the trading day and
 * the outcome never go; the wall-clock start goes first, then orders/fills, who started the run
 * (`sched` by the scheduler, `you` by hand), mode, cost; the run id is kept as long as anything else is.
 */
import { Box, Text } from "ink";
import { usd } from "../printers/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import { type Column, cells, fitColumns } from "./columns.js";
import { type JournalRunSummary, outcomeCell } from "./journal-data.js";
import { windowStart } from "./scroll.js";
import { type Tone, useTheme } from "./theme.js";

type RunColumn = "day" | "started" | "by" | "mode" | "outcome" | "orders" | "cost" | "run";
const COLUMNS: readonly Column<RunColumn>[] = [
  { id: "day", header: "day", width: 11, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "started", header: "started (UTC)", width: 17, align: "left", priority: 1 },
  { id: "by", header: "by", width: 5, align: "left", priority: 3 },
  { id: "mode", header: "mode", width: 8, align: "left", priority: 4 },
  { id: "outcome", header: "outcome", width: 18, align: "left", priority: Number.POSITIVE_INFINITY },
  { id: "orders", header: "ord/fill", width: 9, align: "right", priority: 2 },
  { id: "cost", header: "cost", width: 9, align: "right", priority: 5 },
  { id: "run", header: "run", width: 24, align: "left", priority: 6 },
];
const MARKER = 2;

function runColumns(width: number): Column<RunColumn>[] {
  return fitColumns(COLUMNS, width, 0, MARKER);
}

function runsHeader(cols: readonly Column<RunColumn>[]): string {
  return `${" ".repeat(MARKER)}${cells(cols, Object.fromEntries(cols.map((c) => [c.id, c.header])) as Record<RunColumn, string>)}`.trimEnd();
}

function runRow(cols: readonly Column<RunColumn>[], r: JournalRunSummary, selected: boolean): string {
  return `${selected ? "›" : " "} ${cells(cols, {
    day: sanitizeLine(r.trading_day),
    started: sanitizeLine(r.started_at).replace("T", " ").slice(0, 16),
    by: r.trigger === "scheduled" ? "sched" : "you",
    mode: sanitizeLine(r.mode),
    outcome: sanitizeLine(outcomeCell(r)),
    orders: `${r.orders}/${r.fills}`,
    cost: usd(r.cost_usd),
    run: sanitizeLine(r.run_id),
  })}`.trimEnd();
}

function outcomeTone(outcome: string): Tone {
  return outcome === "executed" || outcome === "hold" || outcome === "no_trades" ? "ok" : outcome === "rejected" || outcome === "observed" ? "plain" : "warn";
}

export function RunsList({ runs, selected, height, width }: { runs: readonly JournalRunSummary[]; selected: number; height: number; width: number }) {
  const th = useTheme();
  const cols = runColumns(width);
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
