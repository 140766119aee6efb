/** The kill-switch screen's keys: type the word, then a reason, then the reset is recorded. */
import { sanitizeLine } from "../util/sanitize.js";
import type { Keys } from "./input.js";
import { KILLSWITCH_DONE_KEYS, matchKey, overlayKeys } from "./keys.js";
import { EMPTY_LINE, type LineState, promptKey, promptKeys } from "./line-editor.js";

export const RESET_WORD = "RESET";

type KillSwitchMode = { kind: "word"; line: LineState } | { kind: "reason"; line: LineState } | { kind: "busy" } | { kind: "done" } | { kind: "idle" };

export interface KillSwitchState {
  mode: KillSwitchMode;
  message: { error: boolean; text: string } | null;
  help: boolean;
}

const LEAVE = "leave without changes";
const INTERRUPT = "leave without changes (exit 130)";
export const KILLSWITCH_WORD_KEYS = promptKeys("continue to the reason", LEAVE, INTERRUPT);
export const KILLSWITCH_REASON_KEYS = promptKeys("reset the kill switch", LEAVE, INTERRUPT);
const OVERLAY = overlayKeys("leave (exit 130)");

/** One key press and what the screen offers its handler. */
export interface KillSwitchKey {
  s: KillSwitchState;
  input: string;
  key: Keys;
  set: (next: KillSwitchState | ((prev: KillSwitchState) => KillSwitchState)) => void;
  onReset: (args: { reason: string }) => Promise<void>;
  onExit: () => void;
  interrupt: () => void;
}

export function killSwitchKey(k: KillSwitchKey) {
  const { s, input, key, set, onExit, interrupt } = k;
  const m = s.mode;
  if (s.help) {
    if (matchKey(OVERLAY, input, key) === "interrupt") return interrupt();
    return set({ ...s, help: false });
  }
  if (m.kind === "busy") return;
  if (m.kind === "idle" || m.kind === "done") {
    const a = matchKey(KILLSWITCH_DONE_KEYS, input, key);
    if (a === "interrupt") interrupt();
    else if (a === "exit") onExit();
    else if (a === "help") set({ ...s, help: true });
    return;
  }
  const out = promptKey(m.kind === "word" ? KILLSWITCH_WORD_KEYS : KILLSWITCH_REASON_KEYS, m.line, input, key);
  if (out.kind === "interrupt") return interrupt();
  if (out.kind === "cancel") return onExit();
  if (out.kind === "edit") return set({ ...s, mode: { ...m, line: out.line } });
  if (out.kind !== "submit") return;
  if (m.kind === "word") {
    if (out.line.text === RESET_WORD) return set({ ...s, mode: { kind: "reason", line: EMPTY_LINE }, message: null });
    return set({
      ...s,
      mode: { kind: "word", line: EMPTY_LINE },
      message: { error: true, text: `refused: "${sanitizeLine(out.line.text)}" is not ${RESET_WORD}. Type ${RESET_WORD} exactly (capitals), or Esc to leave.` },
    });
  }
  submitReason(k, out.line.text);
}

/** The reason typed: recorded with the reset (a blank one is refused); a failed reset starts over. */
function submitReason({ s, set, onReset }: KillSwitchKey, typed: string) {
  const reason = sanitizeLine(typed).trim();
  if (!reason) return set({ ...s, message: { error: true, text: "a reason is required: it is recorded in the journal" } });
  set({ ...s, mode: { kind: "busy" }, message: null });
  onReset({ reason }).then(
    () => set((p) => ({ ...p, mode: { kind: "done" }, message: null })),
    (e: unknown) =>
      set((p) => ({
        ...p,
        mode: { kind: "word", line: EMPTY_LINE },
        message: { error: true, text: `reset failed, nothing changed: ${sanitizeLine(e instanceof Error ? e.message : String(e))}` },
      })),
  );
}
