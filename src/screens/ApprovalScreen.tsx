/**
 * The operator's decision on a proposal: the orders as a table with the gate's verdict for each,
 * and keys to approve (with a second confirmation: `y` then Enter — a stray digit or Enter can
 * never approve), edit quantity/limit (re-gated before it can be approved), drop, reject all, or
 * trip the kill switch (type HALT). Blocked orders are never part of an approval, and the approval
 * carries the hash of exactly the orders it sends.
 */
import { Box, Text, useInput } from "ink";
import type { ApprovalDecision, ApprovalRequest } from "../run/approval.js";
import { money } from "../run/format.js";
import { sanitizeLine } from "../util/sanitize.js";
import {
  type ApprovalRow,
  applyEdit,
  buildApproval,
  initialRows,
  isApprovable,
  isEdited,
  referencePrice,
  restoreRow,
  shareAfter,
  toggleDrop,
} from "./approval-model.js";
import { KeyHelp, PromptLine } from "./components.js";
import { APPROVAL_KEYS, CONFIRM_KEYS, EDIT_KEYS, type KeyTable, matchKey, type PromptAction, promptKeys } from "./keys.js";
import { useTerminalSize } from "./terminal.js";
import { clip, editBuffer, padEnd, padStart, wrapText } from "./text.js";
import { type Tone, useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

export const HALT_WORD = "HALT";

type Mode =
  | { kind: "browse" }
  | { kind: "confirm"; armed: boolean; since: number }
  | { kind: "edit"; field: "quantity" | "limit"; quantity: string; limit: string }
  | { kind: "reject"; text: string }
  | { kind: "haltWord"; text: string }
  | { kind: "haltReason"; text: string }
  | { kind: "done"; text: string };

interface ScreenState {
  rows: ApprovalRow[];
  selected: number;
  mode: Mode;
  message: { tone: Tone; text: string } | null;
}

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

const REJECT_KEYS = promptKeys("reject all");
const HALT_WORD_KEYS = promptKeys("continue");
const HALT_REASON_KEYS = promptKeys("trip the kill switch");

function keysFor(mode: Mode): KeyTable {
  switch (mode.kind) {
    case "browse":
      return APPROVAL_KEYS;
    case "confirm":
      return CONFIRM_KEYS;
    case "edit":
      return EDIT_KEYS;
    case "reject":
      return REJECT_KEYS;
    case "haltWord":
      return HALT_WORD_KEYS;
    case "haltReason":
      return HALT_REASON_KEYS;
    case "done":
      return [];
  }
}

const num = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));
const fmtShare = (s: ReturnType<typeof shareAfter>) => (s === null ? "—" : `${s.orderOnly && s.share >= 0 ? "+" : ""}${(s.share * 100).toFixed(1)}%`);

export function ApprovalScreen({ request, onDecide, onInterrupt, maxRows, typeAheadGuardMs = TYPE_AHEAD_GUARD_MS, now = Date.now }: ApprovalScreenProps) {
  const th = useTheme();
  const { columns, rows: termRows } = useTerminalSize();
  const [get, set] = useRefState<ScreenState>(() => ({ rows: initialRows(request), selected: 0, mode: { kind: "browse" }, message: null }));
  const st = get();

  const patch = (p: Partial<ScreenState>) => set((prev) => ({ ...prev, ...p }));
  const decide = (d: ApprovalDecision, text: string) => {
    patch({ mode: { kind: "done", text }, message: null });
    onDecide(d);
  };

  useInput((input, key) => {
    const s = get();
    const mode = s.mode;
    switch (mode.kind) {
      case "done":
        if (key.ctrl && input === "c") onInterrupt();
        return;
      case "browse": {
        const action = matchKey(APPROVAL_KEYS, input, key);
        const n = s.rows.length;
        switch (action) {
          case "interrupt":
            onInterrupt();
            return;
          case "up":
            patch({ selected: n ? (s.selected - 1 + n) % n : 0, message: null });
            return;
          case "down":
            patch({ selected: n ? (s.selected + 1) % n : 0, message: null });
            return;
          case "approve": {
            const count = s.rows.filter(isApprovable).length;
            if (count === 0) patch({ message: { tone: "warn", text: "nothing to approve: every order is blocked or dropped (edit, or reject all with r)" } });
            else patch({ mode: { kind: "confirm", armed: false, since: now() }, message: null });
            return;
          }
          case "edit": {
            const row = s.rows[s.selected];
            if (!row) return;
            patch({ mode: { kind: "edit", field: "quantity", quantity: num(row.order.quantity), limit: num(row.order.limit_price) }, message: null });
            return;
          }
          case "drop":
            patch({ rows: toggleDrop(request, s.rows, s.selected), message: null });
            return;
          case "restore":
            patch({ rows: restoreRow(request, s.rows, s.selected), message: null });
            return;
          case "reject":
            patch({ mode: { kind: "reject", text: "" }, message: null });
            return;
          case "kill":
            patch({ mode: { kind: "haltWord", text: "" }, message: null });
            return;
          default:
            return; // digits, Enter and everything else do nothing here
        }
      }
      case "confirm": {
        const action = matchKey(CONFIRM_KEYS, input, key);
        if (action === "interrupt") return onInterrupt();
        if (now() - mode.since < typeAheadGuardMs) {
          return patch({ mode: { kind: "browse" }, message: { tone: "warn", text: "approval cancelled: keys arrived faster than the prompt could be read; nothing sent (press a again)" } });
        }
        if (action === "yes" && !mode.armed) return patch({ mode: { kind: "confirm", armed: true, since: now() } });
        if (action === "send" && mode.armed) {
          const built = buildApproval(request, s.rows);
          if (!built.ok) return patch({ mode: { kind: "browse" }, message: { tone: "error", text: built.message }, ...(built.rows ? { rows: built.rows } : {}) });
          return decide(built.decision, `approved ${built.decision.orders.length} order(s); handing them to the final gate…`);
        }
        return patch({ mode: { kind: "browse" }, message: { tone: "dim", text: "approval cancelled: nothing sent" } });
      }
      case "edit": {
        const action = matchKey(EDIT_KEYS, input, key);
        if (action === "interrupt") return onInterrupt();
        if (action === "cancel") return patch({ mode: { kind: "browse" }, message: { tone: "dim", text: "edit cancelled" } });
        if (action === "switch") return patch({ mode: { ...mode, field: mode.field === "quantity" ? "limit" : "quantity" } });
        if (action === "apply") {
          const res = applyEdit(request, s.rows, s.selected, { quantity: mode.quantity, limit: mode.limit });
          if (!res.ok) return patch({ message: { tone: "error", text: res.message } });
          const row = res.rows[s.selected];
          const verdict = row?.decision?.approved ? "the gate approves the edited order" : `the gate BLOCKS the edited order: ${row?.decision?.reasons.map((r) => r.code).join(", ") ?? "no verdict"}`;
          return patch({ rows: res.rows, mode: { kind: "browse" }, message: { tone: row?.decision?.approved ? "ok" : "error", text: `re-gated: ${verdict}` } });
        }
        const field = mode.field;
        const next = editBuffer(mode[field], input, key, /[0-9.]/);
        return patch({ mode: { ...mode, [field]: next } });
      }
      case "reject":
      case "haltWord":
      case "haltReason": {
        // Pasted text that ends with Enter arrives as one chunk: the text, then Enter.
        const nl = input.length > 1 ? input.search(/[\r\n]/) : -1;
        const pm = nl >= 0 ? { ...mode, text: editBuffer(mode.text, input.slice(0, nl), key) } : mode;
        const action = nl >= 0 ? "submit" : matchKey<PromptAction>(keysFor(mode) as KeyTable<PromptAction>, input, key);
        if (action === "interrupt") return onInterrupt();
        if (action === "cancel") return patch({ mode: { kind: "browse" }, message: { tone: "dim", text: "cancelled" } });
        if (action === "submit") {
          const text = sanitizeLine(pm.text).trim();
          if (pm.kind === "reject") return decide({ kind: "reject", by: "operator", ...(text ? { reason: text } : {}) }, "rejected: nothing will be placed");
          if (pm.kind === "haltWord") {
            if (pm.text === HALT_WORD) return patch({ mode: { kind: "haltReason", text: "" }, message: null });
            return patch({ mode: { kind: "haltWord", text: "" }, message: { tone: "error", text: `refused: type ${HALT_WORD} exactly (capitals) to trip the kill switch, or Esc` } });
          }
          if (!text) return patch({ mode: pm, message: { tone: "error", text: "a reason is required to trip the kill switch" } });
          return decide({ kind: "killswitch", reason: text, by: "operator" }, "kill switch: trading halts and holdings are liquidated…");
        }
        return patch({ mode: { ...mode, text: editBuffer(mode.text, input, key) } });
      }
    }
  });

  // ── layout ──────────────────────────────────────────────────────────────────────────────
  const width = Math.max(40, columns - 1);
  const budget = maxRows ?? Math.max(8, termRows - 3);
  const approvable = st.rows.filter(isApprovable);
  const blocked = st.rows.filter((r) => !r.dropped && !isApprovable(r)).length;
  const dropped = st.rows.filter((r) => r.dropped).length;
  const cur = request.baseCurrency ?? "";
  const summaryLines = wrapText(sanitizeLine(request.summary || "(no summary)"), width - 9);
  const summary = summaryLines.length > 2 ? [summaryLines[0] ?? "", `${clip(summaryLines[1] ?? "", width - 10)}…`] : summaryLines;
  const sel = st.rows[st.selected];

  const detail: Array<{ tone: Tone; text: string }> = [];
  if (sel) {
    const o = sel.order;
    const d = sel.decision;
    detail.push({
      tone: "plain",
      text: `#${st.selected + 1} ${o.side} ${num(o.quantity)} ${sanitizeLine(o.symbol)} @ ${num(o.limit_price)}${isEdited(sel) ? ` (edited; proposed ${num(sel.proposed.quantity)} @ ${num(sel.proposed.limit_price)})` : ""}${sel.dropped ? " — DROPPED" : ""}`,
    });
    if (sel.dropped) detail.push({ tone: "dim", text: "gate: not evaluated (dropped; d keeps it again)" });
    else if (d?.approved) detail.push({ tone: "ok", text: `gate: approved · notional ${money(d.notional, cur)} · commission ${money(d.commission)}` });
    else {
      const reasons = d?.reasons ?? [];
      detail.push({ tone: "error", text: `gate: BLOCKED${reasons.length ? "" : " (no verdict)"}` });
      for (const r of reasons.slice(0, 3)) detail.push({ tone: "error", text: `  ${r.code}: ${sanitizeLine(r.message)}` });
      if (reasons.length > 3) detail.push({ tone: "error", text: `  …and ${reasons.length - 3} more` });
    }
    detail.push({ tone: "plain", text: `reason: ${clip(sanitizeLine(o.reason || "(none)"), width - 9)}` });
    detail.push({ tone: "dim", text: `evidence: ${o.evidence_ids.length ? o.evidence_ids.map(sanitizeLine).join(", ") : "(none)"}` });
  }

  const fixed = 1 + summary.length + 1 + detail.length + 2 + 2 + (st.message ? 1 : 0);
  const tableRows = Math.max(1, budget - fixed);
  const start = Math.min(Math.max(0, st.selected - Math.floor(tableRows / 2)), Math.max(0, st.rows.length - tableRows));
  const visible = st.rows.slice(start, start + tableRows);

  const headerCells = `  ${padEnd("#", 3)}${padEnd("side", 5)}${padEnd("symbol", 9)}${padStart("qty", 8)} ${padStart("limit", 10)} ${padStart("ref", 10)} ${padStart("notional", 13)} ${padStart("after", 7)}  verdict`;

  return (
    <Box flexDirection="column" width={columns}>
      <Text bold color={th.c("accent")} wrap="truncate-end">
        Approve orders? {st.rows.length} proposed · {approvable.length} approvable · {blocked} blocked · {dropped} dropped
        {request.portfolioValue !== undefined ? ` · portfolio ${money(request.portfolioValue, cur)}` : ""}
      </Text>
      {summary.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: line positions
        <Text key={i} wrap="truncate-end">
          {i === 0 ? "summary: " : "         "}
          {l}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {headerCells}
      </Text>
      {visible.map((r, k) => {
        const i = start + k;
        const selected = i === st.selected;
        const d = r.decision;
        const ref = referencePrice(request, r);
        const notional = d?.notional ?? r.order.quantity * r.order.limit_price;
        const cells = `${selected ? "›" : " "} ${padEnd(String(i + 1), 3)}${padEnd(r.order.side, 5)}${padEnd(sanitizeLine(r.order.symbol), 9)}${padStart(num(r.order.quantity), 8)} ${padStart(num(r.order.limit_price), 10)} ${padStart(ref === null ? "—" : num(ref), 10)} ${padStart(money(notional), 13)} ${padStart(fmtShare(shareAfter(request, r)), 7)}  `;
        const verdict = r.dropped ? "dropped" : d?.approved ? `ok${isEdited(r) ? " (edited)" : ""}` : `BLOCKED ${d?.reasons.map((x) => x.code).join(",") ?? ""}`;
        const tone: Tone = r.dropped ? "dim" : d?.approved ? "ok" : "error";
        return (
          <Text key={`${i}:${r.proposed.symbol}`} wrap="truncate-end" bold={selected} dimColor={r.dropped}>
            {cells}
            <Text color={th.c(tone)}>{verdict}</Text>
          </Text>
        );
      })}
      <Box flexDirection="column" marginTop={1}>
        {detail.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: line positions
          <Text key={i} wrap="truncate-end" color={th.c(l.tone)} dimColor={th.dim(l.tone)}>
            {l.text}
          </Text>
        ))}
      </Box>
      {st.message ? (
        <Text wrap="truncate-end" color={th.c(st.message.tone)} dimColor={th.dim(st.message.tone)}>
          {st.message.text}
        </Text>
      ) : null}
      <ModeLine mode={st.mode} approvable={approvable.length} excluded={blocked + dropped} />
      <KeyHelp table={keysFor(st.mode)} width={columns} />
    </Box>
  );
}

function ModeLine({ mode, approvable, excluded }: { mode: Mode; approvable: number; excluded: number }) {
  const th = useTheme();
  switch (mode.kind) {
    case "browse":
      return <Text dimColor>Orders reach the broker only after you approve them; blocked orders are never sent.</Text>;
    case "confirm":
      return mode.armed ? (
        <Text bold color={th.c("warn")} wrap="truncate-end">
          Press Enter to SEND {approvable} order(s) to the broker (any other key cancels).
        </Text>
      ) : (
        <Text bold color={th.c("warn")} wrap="truncate-end">
          Send {approvable} order(s){excluded ? ` (${excluded} left out)` : ""}? Cannot be undone: y, then Enter; any other key cancels.
        </Text>
      );
    case "edit":
      return (
        <Box>
          <Text bold color={th.c("accent")}>
            Edit:{" "}
          </Text>
          <Text bold={mode.field === "quantity"}>{mode.field === "quantity" ? "▸" : " "}quantity </Text>
          <Text inverse={mode.field === "quantity"}>[{mode.quantity}]</Text>
          <Text bold={mode.field === "limit"}> {mode.field === "limit" ? "▸" : " "}limit </Text>
          <Text inverse={mode.field === "limit"}>[{mode.limit}]</Text>
          <Text dimColor> (quantity can only shrink; the edit is re-gated)</Text>
        </Box>
      );
    case "reject":
      return <PromptLine label="Reject all orders. Reason (optional):" value={mode.text} />;
    case "haltWord":
      return <PromptLine tone="error" label={`KILL SWITCH halts trading and liquidates holdings. Type ${HALT_WORD}:`} value={mode.text} />;
    case "haltReason":
      return <PromptLine tone="error" label="Reason for tripping the kill switch (required):" value={mode.text} />;
    case "done":
      return (
        <Text bold color={th.c("accent")}>
          {mode.text}
        </Text>
      );
  }
}

