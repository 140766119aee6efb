/**
 * The line editor's pure model: a text and a cursor, changed one key at a time. Every text field
 * of the console (reject reason, quantity and limit, filter, confirmation words, reset reason) is
 * one of these, so the keys behave the same everywhere:
 *   printable → insert at the cursor · Backspace / Delete · ←/→ · Home/End (Ctrl+A/Ctrl+E) ·
 *   Ctrl+U deletes to the start · Ctrl+K to the end · Ctrl+W (Alt+Backspace) the word before.
 * Enter, Esc and Ctrl+C belong to the prompt around the editor, not to the editor.
 */
import type { Keys } from "./input.js";

export interface LineState {
  readonly text: string;
  /** 0..text.length, in UTF-16 code units, always on a code point boundary. */
  readonly cursor: number;
}

export interface LineOptions {
  /** Characters the field accepts (e.g. /[0-9.]/ for numbers); others are dropped. */
  allowed?: RegExp;
  maxLength?: number;
}

export const EMPTY_LINE: LineState = { text: "", cursor: 0 };

export function lineOf(text: string): LineState {
  return { text, cursor: text.length };
}

const isPrintable = (ch: string) => ch >= " " && ch !== "\u007f" && !/[\u0080-\u009f\u2028\u2029]/.test(ch);

/** Code-point-safe step left/right from `i`. */
function prev(text: string, i: number): number {
  if (i <= 0) return 0;
  const c = text.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? i - 2 : i - 1;
}
function next(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
}

function insertText(s: LineState, raw: string, opts: LineOptions = {}): LineState {
  let clean = [...raw].filter((ch) => isPrintable(ch) && (!opts.allowed || opts.allowed.test(ch))).join("");
  if (opts.maxLength !== undefined) clean = clean.slice(0, Math.max(0, opts.maxLength - s.text.length));
  if (!clean) return s;
  return { text: s.text.slice(0, s.cursor) + clean + s.text.slice(s.cursor), cursor: s.cursor + clean.length };
}

/** Start of the word before the cursor (spaces, then non-spaces). */
function wordStart(text: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(text[i - 1] ?? "")) i--;
  while (i > 0 && !/\s/.test(text[i - 1] ?? "")) i--;
  return i;
}

/**
 * Apply one key. Returns the new state and whether the key was an editing key (a key the editor
 * does not know — Enter, Esc, Tab, ↑/↓ — is left to the caller with `handled: false`).
 */
export function editLine(s: LineState, input: string, key: Keys, opts: LineOptions = {}): { line: LineState; handled: boolean } {
  const done = (line: LineState) => ({ line, handled: true });
  const { text, cursor } = s;
  if (key.return || key.escape || key.tab || key.upArrow || key.downArrow || key.pageUp || key.pageDown) return { line: s, handled: false };
  if (key.backspace && (key.meta || key.ctrl)) {
    const w = wordStart(text, cursor);
    return done({ text: text.slice(0, w) + text.slice(cursor), cursor: w });
  }
  if (key.backspace) {
    const p = prev(text, cursor);
    return done({ text: text.slice(0, p) + text.slice(cursor), cursor: p });
  }
  if (key.delete) return done({ text: text.slice(0, cursor) + text.slice(next(text, cursor)), cursor });
  if (key.leftArrow) return done({ text, cursor: key.ctrl || key.meta ? wordStart(text, cursor) : prev(text, cursor) });
  if (key.rightArrow) return done({ text, cursor: next(text, cursor) });
  if (key.home) return done({ text, cursor: 0 });
  if (key.end) return done({ text, cursor: text.length });
  if (key.ctrl) {
    switch (input) {
      case "a":
        return done({ text, cursor: 0 });
      case "e":
        return done({ text, cursor: text.length });
      case "b":
        return done({ text, cursor: prev(text, cursor) });
      case "f":
        return done({ text, cursor: next(text, cursor) });
      case "u":
        return done({ text: text.slice(cursor), cursor: 0 });
      case "k":
        return done({ text: text.slice(0, cursor), cursor });
      case "w": {
        const w = wordStart(text, cursor);
        return done({ text: text.slice(0, w) + text.slice(cursor), cursor: w });
      }
      default:
        return { line: s, handled: false };
    }
  }
  if (key.meta) return { line: s, handled: false };
  if (input === "") return { line: s, handled: false };
  return done(insertText(s, input, opts));
}

/** The line split around the cursor, for drawing (the cursor cell is a space at the end). */
export function cursorParts(s: LineState): { before: string; at: string; after: string } {
  const end = next(s.text, s.cursor);
  return { before: s.text.slice(0, s.cursor), at: s.cursor < s.text.length ? s.text.slice(s.cursor, end) : " ", after: s.text.slice(end) };
}

/**
 * A window of the line that keeps the cursor visible in `width` columns (long reasons scroll
 * sideways instead of wrapping the prompt).
 */
export function visibleWindow(s: LineState, width: number): { text: string; cursor: number; clippedLeft: boolean; clippedRight: boolean } {
  const w = Math.max(4, width);
  if (s.text.length < w) return { text: s.text, cursor: s.cursor, clippedLeft: false, clippedRight: false };
  const start = Math.max(0, Math.min(s.cursor - Math.floor((w * 2) / 3), s.text.length + 1 - w));
  const end = Math.min(s.text.length, start + w - 1);
  return { text: s.text.slice(start, end), cursor: s.cursor - start, clippedLeft: start > 0, clippedRight: end < s.text.length };
}
