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
import type { ApprovalDecision, ApprovalRequest } from "../run/approval.js";
import { approvalKey } from "./approval-input.js";
import { initialRows } from "./approval-model.js";
import { type ApprovalScreenState, modeKeys } from "./approval-modes.js";
import { type ApprovalFrame, browseView, helpView, scrollView, ticketView, titleLine } from "./approval-views.js";
import { keyHelpRows } from "./components.js";
import { useKeys } from "./input.js";
import { useTerminalSize } from "./terminal.js";
import { useTheme } from "./theme.js";
import { useRefState } from "./use-ref-state.js";

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

export function ApprovalScreen({ request, onDecide, onInterrupt, maxRows, typeAheadGuardMs = TYPE_AHEAD_GUARD_MS, now = Date.now }: ApprovalScreenProps) {
  const th = useTheme();
  const { columns, rows: termRows } = useTerminalSize();
  const [get, set] = useRefState<ApprovalScreenState>(() => ({
    rows: initialRows(request),
    selected: 0,
    mode: { kind: "browse" },
    message: null,
    help: false,
    swallowRead: 0,
    quietUntil: 0,
  }));
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
    patch({
      mode: { kind: "browse" },
      message: { tone: "warn", text: `approval cancelled: ${text}; nothing sent` },
      swallowRead: readId,
      quietUntil: now() + typeAheadGuardMs,
    });

  useKeys((input, key, press) =>
    approvalKey({ s: get(), input, key, press, request, patch, decide, cancelConfirm, onInterrupt, now, typeAheadGuardMs, page, budget, width }),
  );

  const keys = modeKeys(st.mode);
  const frame: ApprovalFrame = { request, st, th, width, budget, keys, helpRows: keyHelpRows(keys, width) };
  const title = titleLine(frame);
  if (st.help) return helpView(frame, title);
  if (st.mode.kind === "details" || st.mode.kind === "portfolio") return scrollView(frame, title, st.mode);
  if (st.mode.kind === "confirm") return ticketView(frame, title);
  return browseView(frame, title);
}
