/**
 * The line editor as used by every prompt of the console: the pure model (line-editor-model.ts),
 * the prompt's key table (Enter, Esc, Ctrl+C around the editing keys), one function that turns a
 * key into what the prompt should do, and the field as drawn (label, text, cursor).
 * Reusable by any screen: keep the `LineState` in the screen's (ref) state, feed every key to
 * `promptKey`, draw `<LineField>`.
 */
import { Box, Text } from "ink";
import type { Keys } from "./input.js";
import { type KeyTable, matchKey } from "./keys.js";
import { cursorParts, editLine, type LineOptions, type LineState, visibleWindow } from "./line-editor-model.js";
import { type Tone, useTheme } from "./theme.js";

export { EMPTY_LINE, editLine, type LineOptions, type LineState, lineOf } from "./line-editor-model.js";

export type PromptAction = "submit" | "cancel" | "interrupt" | "type";

const isCtrl = (c: string) => (input: string, key: Keys) => key.ctrl && input === c;

/** The keys of a prompt: what Enter, Esc and Ctrl+C do here, and the editing keys. */
export function promptKeys(submitHelp: string, cancelHelp: string, interruptHelp: string): KeyTable<PromptAction> {
  return [
    { action: "submit", label: "Enter", help: submitHelp, match: (_i, k) => k.return },
    { action: "cancel", label: "Esc", help: cancelHelp, match: (_i, k) => k.escape },
    { action: "interrupt", label: "Ctrl+C", help: interruptHelp, match: isCtrl("c") },
    { action: "type", label: "←/→ Home/End", help: "move", match: (_i, k) => k.leftArrow || k.rightArrow || k.home || k.end },
    { action: "type", label: "Ctrl+U", help: "delete to start", match: isCtrl("u") },
    { action: "type", label: "Ctrl+W", help: "delete word", match: (i, k) => isCtrl("w")(i, k) || (k.backspace && k.meta) },
    { action: "type", label: "Ctrl+K", help: "delete to end", match: isCtrl("k"), hidden: true },
    { action: "type", label: "⌫/Del", help: "delete", match: (_i, k) => k.backspace || k.delete, hidden: true },
    { action: "type", label: "type", help: "text", match: () => true, hidden: true },
  ];
}

export type PromptOutcome =
  | { kind: "submit"; line: LineState }
  | { kind: "cancel" }
  | { kind: "interrupt" }
  | { kind: "edit"; line: LineState }
  | { kind: "ignored" };

/** One key at a prompt. */
export function promptKey(table: KeyTable<PromptAction>, line: LineState, input: string, key: Keys, opts: LineOptions = {}): PromptOutcome {
  const action = matchKey(table, input, key);
  if (action === "submit") return { kind: "submit", line };
  if (action === "cancel") return { kind: "cancel" };
  if (action === "interrupt") return { kind: "interrupt" };
  const r = editLine(line, input, key, opts);
  return r.handled ? { kind: "edit", line: r.line } : { kind: "ignored" };
}

/** A one-line field: label, the text (scrolled sideways to keep the cursor in view), the cursor. */
export function LineField({
  label,
  line,
  width,
  tone,
  hint,
  focused = true,
}: {
  label: string;
  line: LineState;
  width?: number;
  tone?: Tone;
  hint?: string;
  focused?: boolean;
}) {
  const th = useTheme();
  const room = width !== undefined ? Math.max(8, width - label.length - 2 - (hint ? hint.length + 1 : 0)) : 10_000;
  const win = visibleWindow(line, room);
  const parts = cursorParts({ text: win.text, cursor: win.cursor });
  return (
    <Box>
      <Text bold color={th.c(tone ?? "accent")}>
        {label}{" "}
      </Text>
      <Text wrap="truncate-end">
        {win.clippedLeft ? "…" : ""}
        {parts.before}
        {focused ? <Text inverse>{parts.at}</Text> : parts.at}
        {parts.after}
        {win.clippedRight ? "…" : ""}
      </Text>
      {hint ? <Text dimColor> {hint}</Text> : null}
    </Box>
  );
}
