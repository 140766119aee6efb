/**
 * The kill-switch screen's keys: to reset a halt, type RESET, then a reason; to trip the switch on
 * an account that trades (`K`), type HALT, then a reason. Either is recorded in the journal, and
 * the screen then shows the state read back from the journal. ↑/↓ PgUp/PgDn scroll the facts.
 */
import { sanitizeLine } from "../util/sanitize.js";
import type { Keys } from "./input.js";
import { char, KILLSWITCH_DONE_KEYS, type KeyTable, type KillSwitchIdleAction, matchKey, type MoveAction, overlayKeys } from "./keys.js";
import { EMPTY_LINE, type LineState, promptKey, promptKeys } from "./line-editor.js";
import type { KillSwitchFacts } from "./KillSwitchScreen.js";

export const RESET_WORD = "RESET";
export const TRIP_WORD = "HALT";

/** What the typed word confirms: a reset of a halt, or an operator's trip. */
export type KillSwitchAction = "reset" | "trip";

type KillSwitchMode =
  | { kind: "word"; action: KillSwitchAction; line: LineState }
  | { kind: "reason"; action: KillSwitchAction; line: LineState }
  | { kind: "busy"; action: KillSwitchAction }
  | { kind: "done"; action: KillSwitchAction }
  | { kind: "idle" };

export interface KillSwitchState {
  mode: KillSwitchMode;
  message: { error: boolean; text: string } | null;
  help: boolean;
  /** The facts read back from the journal after the last action (null: the ones the screen opened with). */
  facts: KillSwitchFacts | null;
  /** The first line of the facts shown (they scroll when the terminal is short). */
  offset: number;
}

const LEAVE = "leave without changes";
const INTERRUPT = "leave without changes (exit 130)";
const KILLSWITCH_WORD_KEYS = promptKeys("continue to the reason", LEAVE, INTERRUPT);
const KILLSWITCH_REASON_KEYS = promptKeys("reset the kill switch", LEAVE, INTERRUPT);
const KILLSWITCH_TRIP_REASON_KEYS = promptKeys("trip the kill switch", LEAVE, INTERRUPT);
const OVERLAY = overlayKeys("leave (exit 130)");

/** An account that trades: `K` trips the kill switch (type HALT, then a reason); the rest as after an action. */
const KILLSWITCH_IDLE_KEYS: KeyTable<KillSwitchIdleAction | "trip"> = [
  { action: "trip", label: "K", help: "trip the kill switch", match: char("K") },
  ...KILLSWITCH_DONE_KEYS,
];

/** The keys of a mode (the help line and the `?` overlay show these). */
export function keysOf(mode: KillSwitchMode, canTrip: boolean): KeyTable {
  if (mode.kind === "word") return KILLSWITCH_WORD_KEYS;
  if (mode.kind === "reason") return mode.action === "reset" ? KILLSWITCH_REASON_KEYS : KILLSWITCH_TRIP_REASON_KEYS;
  if (mode.kind === "busy") return [];
  return mode.kind === "idle" && canTrip ? KILLSWITCH_IDLE_KEYS : KILLSWITCH_DONE_KEYS;
}

/** One key press and what the screen offers its handler. */
export interface KillSwitchKey {
  s: KillSwitchState;
  input: string;
  key: Keys;
  set: (next: KillSwitchState | ((prev: KillSwitchState) => KillSwitchState)) => void;
  // biome-ignore lint/suspicious/noConfusingVoidType: a caller that reads nothing back resolves with nothing
  onReset: (args: { reason: string }) => Promise<KillSwitchFacts | undefined | void>;
  onTrip?: ((args: { reason: string }) => Promise<KillSwitchFacts>) | undefined;
  onExit: () => void;
  interrupt: () => void;
  /** Scroll the facts (arrows and pages; j/k too when no prompt takes letters). */
  scroll: (action: MoveAction) => void;
}

const scrollOf = (input: string, key: Keys, letters: boolean): MoveAction | undefined =>
  key.upArrow || (letters && input === "k")
    ? "up"
    : key.downArrow || (letters && input === "j")
      ? "down"
      : key.pageUp
        ? "pageUp"
        : key.pageDown
          ? "pageDown"
          : undefined;

export function killSwitchKey(k: KillSwitchKey) {
  const { s, input, key, set, onExit, interrupt } = k;
  const m = s.mode;
  if (s.help) {
    if (matchKey(OVERLAY, input, key) === "interrupt") return interrupt();
    return set({ ...s, help: false });
  }
  if (m.kind === "busy") return;
  const move = scrollOf(input, key, m.kind === "idle" || m.kind === "done");
  if (move) return k.scroll(move);
  if (m.kind === "idle" || m.kind === "done") {
    const a = matchKey(KILLSWITCH_IDLE_KEYS, input, key);
    if (a === "interrupt") interrupt();
    else if (a === "exit") onExit();
    else if (a === "help") set({ ...s, help: true });
    else if (a === "trip" && m.kind === "idle" && k.onTrip) set({ ...s, mode: { kind: "word", action: "trip", line: EMPTY_LINE }, message: null });
    return;
  }
  const out = promptKey(m.kind === "word" ? KILLSWITCH_WORD_KEYS : KILLSWITCH_REASON_KEYS, m.line, input, key);
  if (out.kind === "interrupt") return interrupt();
  if (out.kind === "cancel") return m.action === "trip" ? set({ ...s, mode: { kind: "idle" }, message: null }) : onExit();
  if (out.kind === "edit") return set({ ...s, mode: { ...m, line: out.line } });
  if (out.kind !== "submit") return;
  if (m.kind === "word") {
    const word = m.action === "reset" ? RESET_WORD : TRIP_WORD;
    if (out.line.text === word) return set({ ...s, mode: { kind: "reason", action: m.action, line: EMPTY_LINE }, message: null });
    return set({
      ...s,
      mode: { ...m, line: EMPTY_LINE },
      message: { error: true, text: `refused: "${sanitizeLine(out.line.text)}" is not ${word}. Type ${word} exactly (capitals), or Esc to leave.` },
    });
  }
  submitReason(k, m.action, out.line.text);
}

/** The reason typed: recorded with the action (a blank one is refused); the facts are read back; a failure starts over. */
function submitReason({ s, set, onReset, onTrip }: KillSwitchKey, action: KillSwitchAction, typed: string) {
  const reason = sanitizeLine(typed).trim();
  if (!reason) return set({ ...s, message: { error: true, text: "a reason is required: it is recorded in the journal" } });
  const record = action === "reset" ? onReset : onTrip;
  if (!record) return;
  set({ ...s, mode: { kind: "busy", action }, message: null });
  record({ reason }).then(
    (facts) => set((p) => ({ ...p, mode: { kind: "done", action }, message: null, facts: facts ?? p.facts, offset: 0 })),
    (e: unknown) =>
      set((p) => ({
        ...p,
        mode: { kind: "word", action, line: EMPTY_LINE },
        message: { error: true, text: `${action} failed, nothing changed: ${sanitizeLine(e instanceof Error ? e.message : String(e))}` },
      })),
  );
}
