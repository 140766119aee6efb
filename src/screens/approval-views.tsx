/** What the approval screen draws: the title, the help overlay, the details/portfolio view and the order table. */
import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { ApprovalRequest } from "../run/approval.js";
import { money } from "../printers/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import { briefLines, cashAfterRows, headerRow, orderColumns, orderRow, viewLines } from "./approval-layout.js";
import { isApprovable } from "./approval-model.js";
import { type ApprovalMode, type ApprovalScreenState, ModeLine } from "./approval-modes.js";
import { orderTicket } from "./approval-ticket.js";
import { ticketLines } from "./approval-ticket-lines.js";
import { HelpOverlay, KeyHelp, ScrollLines } from "./components.js";
import type { KeyTable } from "./keys.js";
import { portfolioLines } from "./portfolio-lines.js";
import { rangeLabel, windowStart } from "./scroll.js";
import { fitSegments, sliceToWidth, wrapText } from "./text.js";
import type { Theme } from "./theme.js";

/** What every view of the screen is drawn with. */
export interface ApprovalFrame {
  request: ApprovalRequest;
  st: ApprovalScreenState;
  th: Theme;
  width: number;
  /** Rows available to the screen. */
  budget: number;
  keys: KeyTable;
  helpRows: number;
}

/** The order counts the title and the prompt line show. */
function rowCounts(st: ApprovalScreenState) {
  const approvable = st.rows.filter(isApprovable);
  const blocked = st.rows.filter((r) => !r.dropped && !isApprovable(r)).length;
  const dropped = st.rows.filter((r) => r.dropped).length;
  return { approvable, blocked, dropped };
}

export function titleLine({ request, st, th, width }: ApprovalFrame): ReactNode {
  const { approvable, blocked, dropped } = rowCounts(st);
  const cur = request.baseCurrency ?? "";
  const title = fitSegments(
    [
      { text: `Approve orders? ${st.rows.length} proposed`, priority: 10 },
      { text: `${approvable.length} approvable`, priority: 9 },
      { text: `${blocked} blocked`, priority: 8 },
      { text: dropped ? `${dropped} dropped` : "", priority: 7 },
      { text: request.tradingDay ? `day ${request.tradingDay}` : "", priority: 4 },
      { text: request.portfolioValue !== undefined ? `portfolio ${money(request.portfolioValue, cur)}` : "", priority: 6 },
    ],
    width,
  );
  return (
    <Text bold color={th.c("accent")} wrap="truncate-end">
      {title}
    </Text>
  );
}

export function helpView(f: ApprovalFrame, title: ReactNode): ReactNode {
  const { st, keys, width } = f;
  return (
    <Box flexDirection="column" width={width}>
      {title}
      <HelpOverlay title={st.mode.kind === "browse" ? "approval" : `approval · ${st.mode.kind}`} table={keys} width={width} />
    </Box>
  );
}

/** The selected order's details, or the portfolio, scrolled. */
export function scrollView(f: ApprovalFrame, title: ReactNode, mode: Extract<ApprovalMode, { kind: "details" | "portfolio" }>): ReactNode {
  const { request, st, width, budget, keys, helpRows } = f;
  const lines = viewLines(request, st, mode, width);
  const h = Math.max(3, budget - 2 - helpRows);
  const offset = Math.min(mode.offset, Math.max(0, lines.length - h));
  return (
    <Box flexDirection="column" width={width}>
      {title}
      <ScrollLines lines={lines} offset={offset} height={h} width={width} />
      <Text dimColor>
        {mode.kind === "details" ? "order details" : "portfolio"} · {rangeLabel(offset, h, lines.length)}
      </Text>
      <KeyHelp table={keys} width={width} />
    </Box>
  );
}

/** The summary, the portfolio, the order table, the selected order's brief, the message and the prompt line. */
export function browseView(f: ApprovalFrame, title: ReactNode): ReactNode {
  const { request, st, th, width, budget, keys, helpRows } = f;
  const { approvable, blocked, dropped } = rowCounts(st);
  const summaryLines = wrapText(sanitizeLine(request.summary || "(no summary)"), width - 9);
  const summary = summaryLines.length > 2 ? [summaryLines[0] ?? "", `${sliceToWidth(summaryLines[1] ?? "", width - 11)}…`] : summaryLines;
  const sel = st.rows[st.selected];
  const brief = sel ? briefLines(request, sel, st.selected) : [];
  const showPortfolio = request.portfolio !== undefined && budget >= 20;
  const maxHoldings = Math.max(0, Math.min(5, budget - 24));
  const folio = showPortfolio && request.portfolio ? portfolioLines(request.portfolio, cashAfterRows(request, st.rows), width, maxHoldings) : [];
  const message = st.message ? wrapText(st.message.text, width) : [];
  const fixed = 1 + summary.length + folio.length + 1 + 1 + brief.length + message.length + 1 + helpRows;
  const tableRows = Math.max(1, budget - fixed);
  const start = windowStart(st.selected, st.rows.length, tableRows);
  const cols = orderColumns(width);

  return (
    <Box flexDirection="column" width={width}>
      {title}
      {summary.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: line positions
        <Text key={i} wrap="truncate-end">
          {i === 0 ? "summary: " : "         "}
          {l}
        </Text>
      ))}
      <ScrollLines lines={folio} offset={0} height={folio.length} width={width} />
      <Text dimColor wrap="truncate-end">
        {headerRow(cols, request.baseCurrency ?? request.portfolio?.currency ?? "")}
      </Text>
      {st.rows.slice(start, start + tableRows).map((r, k) => {
        const i = start + k;
        const row = orderRow(request, cols, r, i, i === st.selected);
        return (
          <Text key={`${i}:${r.proposed.symbol}`} wrap="truncate-end" bold={i === st.selected} dimColor={r.dropped}>
            {row.cells}
            <Text color={th.c(row.tone)}>{row.verdict}</Text>
          </Text>
        );
      })}
      <Box flexDirection="column" marginTop={1}>
        <ScrollLines lines={brief} offset={0} height={brief.length} width={width} />
      </Box>
      {st.message ? (
        <ScrollLines lines={message.map((text) => ({ text, tone: st.message?.tone ?? "plain" }))} offset={0} height={message.length} width={width} />
      ) : null}
      <ModeLine mode={st.mode} approvable={approvable.length} excluded={blocked + dropped} width={width} />
      <KeyHelp table={keys} width={width} />
    </Box>
  );
}

/** The confirmation: the order ticket (what is sent, totals, what is left out), the prompt line and the keys. */
export function ticketView(f: ApprovalFrame, title: ReactNode): ReactNode {
  const { request, st, width, budget, keys, helpRows } = f;
  const { approvable, blocked, dropped } = rowCounts(st);
  const lines = ticketLines(orderTicket(request, st.rows), width, Math.max(6, budget - 2 - helpRows));
  return (
    <Box flexDirection="column" width={width}>
      {title}
      <ScrollLines lines={lines} offset={0} height={lines.length} width={width} />
      <ModeLine mode={st.mode} approvable={approvable.length} excluded={blocked + dropped} width={width} />
      <KeyHelp table={keys} width={width} />
    </Box>
  );
}
