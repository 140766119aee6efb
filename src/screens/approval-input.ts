/**
 * The approval screen's keys: one handler per mode. The confirmation (`y`, then Enter) refuses a
 * burst (keys that arrived in one read) and a key sooner than the type-ahead guard after the prompt
 * opened or armed; either cancels, says why, and drops the rest of the burst and the type-ahead.
 */
import type { ApprovalDecision, ApprovalRequest } from "../run/approval.js";
import { sanitizeLine } from "../util/sanitize.js";
import { viewLines } from "./approval-layout.js";
import { applyEdit, buildApproval, isApprovable, restoreAll, restoreRow, toggleDrop } from "./approval-model.js";
import { type ApprovalMode, type ApprovalScreenState, HALT_WORD, OVERLAY_KEYS, promptTable } from "./approval-modes.js";
import { describeKeys, type KeyPress, type Keys } from "./input.js";
import { APPROVAL_DETAIL_KEYS, APPROVAL_KEYS, CONFIRM_KEYS, EDIT_KEYS, isMove, matchKey } from "./keys.js";
import { EMPTY_LINE, editLine, lineOf, promptKey } from "./line-editor.js";
import { moveSelection, scrollBy } from "./scroll.js";

/** One key press and what the screen offers its handlers. */
export interface ApprovalKey {
  s: ApprovalScreenState;
  input: string;
  key: Keys;
  press: KeyPress;
  request: ApprovalRequest;
  patch: (p: Partial<ApprovalScreenState>) => void;
  /** Ends the screen with the decision, showing `text`. */
  decide: (d: ApprovalDecision, text: string) => void;
  /** Cancels the confirmation, saying why; the rest of the read and the type-ahead are dropped. */
  cancelConfirm: (text: string, readId: number) => void;
  onInterrupt: () => void;
  now: () => number;
  typeAheadGuardMs: number;
  /** Rows of the order table a page move skips. */
  page: number;
  /** Rows available to the screen. */
  budget: number;
  width: number;
}

type ModeOf<K extends ApprovalMode["kind"]> = Extract<ApprovalMode, { kind: K }>;

const num = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));

export function approvalKey(k: ApprovalKey) {
  const { s, input, key, press } = k;
  // The rest of a burst that cancelled a confirmation is dropped with it.
  if (press.readId === s.swallowRead || (k.now() < s.quietUntil && !(key.ctrl && input === "c"))) return;
  const mode = s.mode;
  if (s.help) {
    if (matchKey(OVERLAY_KEYS, input, key) === "interrupt") return k.onInterrupt();
    return k.patch({ help: false });
  }
  switch (mode.kind) {
    case "done":
      if (key.ctrl && input === "c") k.onInterrupt();
      return;
    case "details":
    case "portfolio":
      return scrollKey(k, mode);
    case "browse":
      return browseKey(k);
    case "confirm":
      return confirmKey(k, mode);
    case "edit":
      return editKey(k, mode);
    case "reject":
    case "haltWord":
    case "haltReason":
      return promptModeKey(k, mode);
  }
}

function scrollKey({ s, input, key, patch, onInterrupt, request, budget, width }: ApprovalKey, mode: ModeOf<"details" | "portfolio">) {
  const a = matchKey(APPROVAL_DETAIL_KEYS, input, key);
  if (a === "interrupt") return onInterrupt();
  if (a === "help") return patch({ help: true });
  if (a === "back") return patch({ mode: { kind: "browse" } });
  if (isMove(a)) return patch({ mode: { ...mode, offset: scrollBy(a, mode.offset, viewLines(request, s, mode, width).length, budget - 3) } });
}

function browseKey({ s, input, key, press, patch, onInterrupt, request, now, page }: ApprovalKey) {
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
      return request.portfolio
        ? patch({ mode: { kind: "portfolio", offset: 0 }, message: null })
        : patch({ message: { tone: "dim", text: "no portfolio facts were passed to this screen" } });
    case "approve": {
      const count = s.rows.filter(isApprovable).length;
      if (count === 0) return patch({ message: { tone: "warn", text: "nothing to approve: every order is blocked or dropped (edit, or reject all with r)" } });
      if (press.burst > 1)
        return patch({
          message: { tone: "warn", text: `the approval prompt was not opened: ${describeKeys(press.chunk)} arrived together; press a on its own` },
          swallowRead: press.readId,
        });
      return patch({ mode: { kind: "confirm", armed: false, since: now() }, message: null });
    }
    case "edit": {
      const row = s.rows[s.selected];
      if (!row) return;
      return patch({
        mode: { kind: "edit", field: "quantity", quantity: lineOf(num(row.order.quantity)), limit: lineOf(num(row.order.limit_price)) },
        message: null,
      });
    }
    case "drop":
      return patch({ rows: toggleDrop(request, s.rows, s.selected), message: null });
    case "restore":
      return s.rows[s.selected]
        ? patch({ rows: restoreRow(request, s.rows, s.selected), message: { tone: "dim", text: `order ${s.selected + 1} is back as proposed (re-gated)` } })
        : undefined;
    case "restoreAll":
      return patch({ rows: restoreAll(request, s.rows), message: { tone: "dim", text: "every order is back as proposed (re-gated)" } });
    case "quit":
      return patch({
        message: {
          tone: "warn",
          text: "q does not leave: decide with a, r or K, or Ctrl+C to stop the run (nothing placed)",
        },
      });
    case "reject":
      return patch({ mode: { kind: "reject", line: EMPTY_LINE }, message: null });
    case "kill":
      return patch({ mode: { kind: "haltWord", line: EMPTY_LINE }, message: null });
    default:
      return; // digits and everything else do nothing here
  }
}

function confirmKey({ s, input, key, press, patch, decide, cancelConfirm, onInterrupt, request, now, typeAheadGuardMs }: ApprovalKey, mode: ModeOf<"confirm">) {
  const action = matchKey(CONFIRM_KEYS, input, key);
  if (action === "interrupt") return onInterrupt();
  if (press.burst > 1)
    return cancelConfirm(`${describeKeys(press.chunk)} arrived together (typed ahead or pasted); press y, then Enter, one at a time`, press.readId);
  const waited = now() - mode.since;
  if (waited < typeAheadGuardMs)
    return cancelConfirm(`${describeKeys(press.chunk)} came ${waited} ms after the prompt, before it could be read; press a again`, press.readId);
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

function editKey({ s, input, key, patch, onInterrupt, request }: ApprovalKey, mode: ModeOf<"edit">) {
  const action = matchKey(EDIT_KEYS, input, key);
  if (action === "interrupt") return onInterrupt();
  if (action === "cancel") return patch({ mode: { kind: "browse" }, message: { tone: "dim", text: "edit cancelled: the order is unchanged" } });
  if (action === "switch") return patch({ mode: { ...mode, field: mode.field === "quantity" ? "limit" : "quantity" } });
  if (action === "apply") {
    const res = applyEdit(request, s.rows, s.selected, { quantity: mode.quantity.text, limit: mode.limit.text });
    if (!res.ok) return patch({ message: { tone: "error", text: res.message } });
    const row = res.rows[s.selected];
    const verdict = row?.decision?.approved
      ? "the gate approves the edited order"
      : `the gate BLOCKS the edited order: ${row?.decision?.reasons.map((r) => r.code).join(", ") ?? "no verdict"}`;
    return patch({ rows: res.rows, mode: { kind: "browse" }, message: { tone: row?.decision?.approved ? "ok" : "error", text: `re-gated: ${verdict}` } });
  }
  const r = editLine(mode[mode.field], input, key, { allowed: /[0-9.]/ });
  return r.handled ? patch({ mode: { ...mode, [mode.field]: r.line } }) : undefined;
}

function promptModeKey({ input, key, patch, decide, onInterrupt }: ApprovalKey, mode: ModeOf<"reject" | "haltWord" | "haltReason">) {
  const out = promptKey(promptTable(mode.kind), mode.line, input, key);
  if (out.kind === "interrupt") return onInterrupt();
  if (out.kind === "cancel")
    return patch({
      mode: { kind: "browse" },
      message: { tone: "dim", text: mode.kind === "reject" ? "reject cancelled: nothing decided yet" : "kill switch not tripped" },
    });
  if (out.kind === "edit") return patch({ mode: { ...mode, line: out.line } });
  if (out.kind !== "submit") return;
  const text = sanitizeLine(out.line.text).trim();
  if (mode.kind === "reject") return decide({ kind: "reject", by: "operator", ...(text ? { reason: text } : {}) }, "rejected: nothing will be placed");
  if (mode.kind === "haltWord") {
    if (out.line.text === HALT_WORD) return patch({ mode: { kind: "haltReason", line: EMPTY_LINE }, message: null });
    return patch({
      mode: { kind: "haltWord", line: EMPTY_LINE },
      message: { tone: "error", text: `refused: "${sanitizeLine(out.line.text)}" is not ${HALT_WORD}; type ${HALT_WORD} exactly (capitals), or Esc` },
    });
  }
  if (!text) return patch({ message: { tone: "error", text: "a reason is required to trip the kill switch" } });
  return decide({ kind: "killswitch", reason: text, by: "operator" }, "kill switch: trading halts and holdings are liquidated…");
}
