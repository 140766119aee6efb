/**
 * The operator's decision on a proposal: the orders as a table with the gate's verdict for each,
 * the portfolio (holdings, cash now and after, the last run's fills), and keys to approve (with a
 * second confirmation: `y` then Enter — a stray digit or Enter can never approve), edit
 * quantity/limit (re-gated before it can be approved), drop, reject all, or trip the kill switch
 * (type HALT). Enter opens an order's full reason and evidence; `?` lists every key. Blocked
 * orders are never part of an approval, and the approval carries the hash of exactly the orders
 * it sends. Every key of a burst (keys that arrived in one read) is handled in turn; a burst
 * never confirms, and a cancelled confirmation always says why.
 */
import { Box, Text } from "ink";
import type { ApprovalDecision, ApprovalRequest } from "../run/approval.js";
import { money } from "../run/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import { applyEdit, buildApproval, initialRows, isApprovable, restoreRow, toggleDrop } from "./approval-model.js";
import { briefLines, cashAfterRows, detailLines, headerRow, orderColumns, orderRow } from "./approval-layout.js";
import { portfolioLines } from "./portfolio-lines.js";
import { type ApprovalMode, type ApprovalScreenState, ModeLine, modeKeys, OVERLAY_KEYS, promptTable } from "./approval-modes.js";
import { HelpOverlay, KeyHelp, keyHelpRows, ScrollLines } from "./components.js";
import { describeKeys, type Keys, type KeyPress, useKeys } from "./input.js";
import { APPROVAL_DETAIL_KEYS, APPROVAL_KEYS, CONFIRM_KEYS, EDIT_KEYS, isMove, matchKey } from "./keys.js";
import { EMPTY_LINE, editLine, lineOf, promptKey } from "./line-editor.js";
import { moveSelection, rangeLabel, scrollBy, windowStart } from "./scroll.js";
import { useTerminalSize } from "./terminal.js";
import { fitSegments, sliceToWidth, wrapText } from "./text.js";
import { useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

export { HALT_WORD } from "./approval-modes.js";
import { HALT_WORD } from "./approval-modes.js";

export interface ApprovalScreenProps {
  request: ApprovalRequest;
  onDecide: (decision: ApprovalDecision) => void;
  onInterrupt: () => void;
  /** Rows available to this screen (the caller's header excluded). Default: terminal rows − 3. */
  maxRows?: number;
  /**
   * Type-ahead guard: in the confirmation, a key that arrives sooner than this after the prompt
   * opened (or armed) cancels instead of confirming, so text typed or pasted into the wrong place
   * ("say⏎") can never send orders. Default 300 ms.
   */
  typeAheadGuardMs?: number;
  now?: () => number;
}

export const TYPE_AHEAD_GUARD_MS = 300;

const num = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));

export function ApprovalScreen({ request, onDecide, onInterrupt, maxRows, typeAheadGuardMs = TYPE_AHEAD_GUARD_MS, now = Date.now }: ApprovalScreenProps) {
  const th = useTheme();
  const { columns, rows: termRows } = useTerminalSize();
  const [get, set] = useRefState<ApprovalScreenState>(() => ({ rows: initialRows(request), selected: 0, mode: { kind: "browse" }, message: null, help: false, swallowRead: 0, quietUntil: 0 }));
  const st = get();
  const width = Math.max(40, columns - 1);
  const budget = maxRows ?? Math.max(8, termRows - 3);
  const page = Math.max(3, budget - 12);

  const patch = (p: Partial<ApprovalScreenState>) => set((prev) => ({ ...prev, ...p }));
  const decide = (d: ApprovalDecision, text: string) => {
    patch({ mode: { kind: "done", text }, message: null });
    onDecide(d);
  };
  // The rest of the burst, and keys typed ahead within the guard time, are dropped with the cancel.
  const cancelConfirm = (text: string, readId: number) =>
    patch({ mode: { kind: "browse" }, message: { tone: "warn", text: `approval cancelled: ${text}; nothing sent` }, swallowRead: readId, quietUntil: now() + typeAheadGuardMs });

  const onKey = (input: string, key: Keys, press: KeyPress) => {
    const s = get();
    // The rest of a burst that cancelled a confirmation is dropped with it.
    if (press.readId === s.swallowRead || (now() < s.quietUntil && !(key.ctrl && input === "c"))) return;
    const mode = s.mode;
    if (s.help) {
      if (matchKey(OVERLAY_KEYS, input, key) === "interrupt") return onInterrupt();
      return patch({ help: false });
    }
    switch (mode.kind) {
      case "done":
        if (key.ctrl && input === "c") onInterrupt();
        return;
      case "details":
      case "portfolio": {
        const a = matchKey(APPROVAL_DETAIL_KEYS, input, key);
        if (a === "interrupt") return onInterrupt();
        if (a === "help") return patch({ help: true });
        if (a === "back") return patch({ mode: { kind: "browse" } });
        if (isMove(a)) return patch({ mode: { ...mode, offset: scrollBy(a, mode.offset, viewLines(s, mode).length, budget - 3) } });
        return;
      }
      case "browse": {
        const action = matchKey(APPROVAL_KEYS, input, key);
        if (isMove(action)) return patch({ selected: moveSelection(action, s.selected, s.rows.length, page), message: null });
        switch (action) {
          case "interrupt":
            return onInterrupt();
          case "help":
            return patch({ help: true });
          case "details":
            return s.rows[s.selected] ? patch({ mode: { kind: "details", offset: 0 }, message: null }) : undefined;
          case "portfolio":
            return request.portfolio ? patch({ mode: { kind: "portfolio", offset: 0 }, message: null }) : patch({ message: { tone: "dim", text: "no portfolio facts were passed to this screen" } });
          case "approve": {
            const count = s.rows.filter(isApprovable).length;
            if (count === 0) return patch({ message: { tone: "warn", text: "nothing to approve: every order is blocked or dropped (edit, or reject all with r)" } });
            if (press.burst > 1) return patch({ message: { tone: "warn", text: `the approval prompt was not opened: ${describeKeys(press.chunk)} arrived together; press a on its own` }, swallowRead: press.readId });
            return patch({ mode: { kind: "confirm", armed: false, since: now() }, message: null });
          }
          case "edit": {
            const row = s.rows[s.selected];
            if (!row) return;
            return patch({ mode: { kind: "edit", field: "quantity", quantity: lineOf(num(row.order.quantity)), limit: lineOf(num(row.order.limit_price)) }, message: null });
          }
          case "drop":
            return patch({ rows: toggleDrop(request, s.rows, s.selected), message: null });
          case "restore":
            return patch({ rows: restoreRow(request, s.rows, s.selected), message: null });
          case "reject":
            return patch({ mode: { kind: "reject", line: EMPTY_LINE }, message: null });
          case "kill":
            return patch({ mode: { kind: "haltWord", line: EMPTY_LINE }, message: null });
          default:
            return; // digits and everything else do nothing here
        }
      }
      case "confirm": {
        const action = matchKey(CONFIRM_KEYS, input, key);
        if (action === "interrupt") return onInterrupt();
        if (press.burst > 1) return cancelConfirm(`${describeKeys(press.chunk)} arrived together (typed ahead or pasted); press y, then Enter, one at a time`, press.readId);
        const waited = now() - mode.since;
        if (waited < typeAheadGuardMs) return cancelConfirm(`${describeKeys(press.chunk)} came ${waited} ms after the prompt, before it could be read; press a again`, press.readId);
        if (action === "yes" && !mode.armed) return patch({ mode: { kind: "confirm", armed: true, since: now() } });
        if (action === "send" && mode.armed) {
          const built = buildApproval(request, s.rows);
          if (!built.ok) return patch({ mode: { kind: "browse" }, message: { tone: "error", text: built.message }, ...(built.rows ? { rows: built.rows } : {}) });
          return decide(built.decision, `approved ${built.decision.orders.length} order(s); handing them to the final gate…`);
        }
        if (action === "send") return cancelConfirm("Enter came before y (the confirmation is y, then Enter)", press.readId);
        if (action === "yes") return cancelConfirm("y pressed twice (after y, only Enter sends)", press.readId);
        return cancelConfirm(`${describeKeys(press.chunk)} is not y${mode.armed ? " or Enter" : ""}`, press.readId);
      }
      case "edit": {
        const action = matchKey(EDIT_KEYS, input, key);
        if (action === "interrupt") return onInterrupt();
        if (action === "cancel") return patch({ mode: { kind: "browse" }, message: { tone: "dim", text: "edit cancelled: the order is unchanged" } });
        if (action === "switch") return patch({ mode: { ...mode, field: mode.field === "quantity" ? "limit" : "quantity" } });
        if (action === "apply") {
          const res = applyEdit(request, s.rows, s.selected, { quantity: mode.quantity.text, limit: mode.limit.text });
          if (!res.ok) return patch({ message: { tone: "error", text: res.message } });
          const row = res.rows[s.selected];
          const verdict = row?.decision?.approved ? "the gate approves the edited order" : `the gate BLOCKS the edited order: ${row?.decision?.reasons.map((r) => r.code).join(", ") ?? "no verdict"}`;
          return patch({ rows: res.rows, mode: { kind: "browse" }, message: { tone: row?.decision?.approved ? "ok" : "error", text: `re-gated: ${verdict}` } });
        }
        const r = editLine(mode[mode.field], input, key, { allowed: /[0-9.]/ });
        return r.handled ? patch({ mode: { ...mode, [mode.field]: r.line } }) : undefined;
      }
      case "reject":
      case "haltWord":
      case "haltReason": {
        const out = promptKey(promptTable(mode.kind), mode.line, input, key);
        if (out.kind === "interrupt") return onInterrupt();
        if (out.kind === "cancel") return patch({ mode: { kind: "browse" }, message: { tone: "dim", text: mode.kind === "reject" ? "reject cancelled: nothing decided yet" : "kill switch not tripped" } });
        if (out.kind === "edit") return patch({ mode: { ...mode, line: out.line } });
        if (out.kind !== "submit") return;
        const text = sanitizeLine(out.line.text).trim();
        if (mode.kind === "reject") return decide({ kind: "reject", by: "operator", ...(text ? { reason: text } : {}) }, "rejected: nothing will be placed");
        if (mode.kind === "haltWord") {
          if (out.line.text === HALT_WORD) return patch({ mode: { kind: "haltReason", line: EMPTY_LINE }, message: null });
          return patch({ mode: { kind: "haltWord", line: EMPTY_LINE }, message: { tone: "error", text: `refused: "${sanitizeLine(out.line.text)}" is not ${HALT_WORD}; type ${HALT_WORD} exactly (capitals), or Esc` } });
        }
        if (!text) return patch({ message: { tone: "error", text: "a reason is required to trip the kill switch" } });
        return decide({ kind: "killswitch", reason: text, by: "operator" }, "kill switch: trading halts and holdings are liquidated…");
      }
    }
  };
  useKeys(onKey);

  function viewLines(s: ApprovalScreenState, mode: ApprovalMode) {
    const row = s.rows[s.selected];
    if (mode.kind === "details" && row) return detailLines(request, row, s.selected, width);
    if (mode.kind === "portfolio" && request.portfolio) return portfolioLines(request.portfolio, cashAfterRows(request, s.rows), width, 10_000);
    return [];
  }

  // ── layout ──────────────────────────────────────────────────────────────────────────────
  const approvable = st.rows.filter(isApprovable);
  const blocked = st.rows.filter((r) => !r.dropped && !isApprovable(r)).length;
  const dropped = st.rows.filter((r) => r.dropped).length;
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
  const keys = modeKeys(st.mode);
  const helpRows = keyHelpRows(keys, width);
  const titleLine = (
    <Text bold color={th.c("accent")} wrap="truncate-end">
      {title}
    </Text>
  );

  if (st.help) {
    return (
      <Box flexDirection="column" width={width}>
        {titleLine}
        <HelpOverlay title={st.mode.kind === "browse" ? "approval" : `approval · ${st.mode.kind}`} table={keys} width={width} />
      </Box>
    );
  }
  if (st.mode.kind === "details" || st.mode.kind === "portfolio") {
    const lines = viewLines(st, st.mode);
    const h = Math.max(3, budget - 2 - helpRows);
    const offset = Math.min(st.mode.offset, Math.max(0, lines.length - h));
    return (
      <Box flexDirection="column" width={width}>
        {titleLine}
        <ScrollLines lines={lines} offset={offset} height={h} width={width} />
        <Text dimColor>
          {st.mode.kind === "details" ? "order details" : "portfolio"} · {rangeLabel(offset, h, lines.length)}
        </Text>
        <KeyHelp table={keys} width={width} />
      </Box>
    );
  }

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
      {titleLine}
      {summary.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: line positions
        <Text key={i} wrap="truncate-end">
          {i === 0 ? "summary: " : "         "}
          {l}
        </Text>
      ))}
      <ScrollLines lines={folio} offset={0} height={folio.length} width={width} />
      <Text dimColor wrap="truncate-end">
        {headerRow(cols)}
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
      {st.message ? <ScrollLines lines={message.map((text) => ({ text, tone: st.message?.tone ?? "plain" }))} offset={0} height={message.length} width={width} /> : null}
      <ModeLine mode={st.mode} approvable={approvable.length} excluded={blocked + dropped} width={width} />
      <KeyHelp table={keys} width={width} />
    </Box>
  );
}
