/**
 * Small pure text helpers for fixed-width terminal layout (no Ink). Widths are display columns as
 * the terminal draws them (`string-width`, the measure Ink itself uses): a CJK character or an emoji
 * takes two, a combining mark none; a cut never splits a character (grapheme).
 */
import stringWidth from "string-width";

/** Printable ASCII only: one column per code unit (the common case, measured without the library). */
const NARROW = /^[\x20-\x7e]*$/;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The columns `s` takes on a terminal. */
function displayWidth(s: string): number {
  return NARROW.test(s) ? s.length : stringWidth(s);
}

/** The longest start of `s` at most `width` columns wide (at least one character when `s` is not empty and `atLeastOne`). */
export function sliceToWidth(s: string, width: number, atLeastOne = false): string {
  if (NARROW.test(s)) return s.slice(0, Math.max(atLeastOne ? 1 : 0, width));
  let used = 0;
  let end = 0;
  for (const { segment, index } of graphemes.segment(s)) {
    const w = stringWidth(segment);
    if (used + w > width && !(atLeastOne && end === 0)) break;
    used += w;
    end = index + segment.length;
  }
  return s.slice(0, end);
}

/** Wrap one paragraph-free string to `width` columns: at the last space when there is one, else hard. */
export function wrapLine(line: string, width: number): string[] {
  const w = Math.max(1, width);
  if (displayWidth(line) <= w) return [line];
  const out: string[] = [];
  let rest = line;
  while (displayWidth(rest) > w) {
    const fit = sliceToWidth(rest, w, true).length;
    let cut = rest.lastIndexOf(" ", fit);
    if (cut <= 0) cut = fit;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^ /, "");
  }
  out.push(rest);
  return out;
}

export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  for (const l of text.split("\n")) out.push(...wrapLine(l, width));
  return out;
}

/**
 * The last `maxLines` wrapped lines of `text`, looking only at its tail (so a long stream costs the
 * same to draw at its end as at its start). Returns whether anything above was clipped.
 */
export function tailLines(text: string, width: number, maxLines: number): { lines: string[]; clipped: boolean } {
  const n = Math.max(0, maxLines);
  if (n === 0) return { lines: [], clipped: text.length > 0 };
  const budget = (Math.max(1, width) + 1) * (n + 1);
  const sliced = text.length > budget;
  const tail = sliced ? text.slice(text.length - budget) : text;
  let lines = wrapText(tail, width);
  // The first line of a sliced tail is probably partial: drop it when we have more than enough.
  if (sliced && lines.length > 1) lines = lines.slice(1);
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const clipped = sliced || lines.length > n;
  return { lines: lines.slice(Math.max(0, lines.length - n)), clipped };
}

/** `s` cut to `width` columns with an ellipsis (assumes it is wider). */
function cut(s: string, width: number): string {
  return width <= 1 ? sliceToWidth(s, Math.max(0, width)) : `${sliceToWidth(s, width - 1)}…`;
}

/** `s` exactly `width` columns wide: cut with an ellipsis, or padded with spaces after it. */
export function padEnd(s: string, width: number): string {
  const t = displayWidth(s) > width ? cut(s, width) : s;
  return t + " ".repeat(Math.max(0, width - displayWidth(t)));
}

/** `s` exactly `width` columns wide: cut with an ellipsis, or padded with spaces before it. */
export function padStart(s: string, width: number): string {
  const t = displayWidth(s) > width ? cut(s, width) : s;
  return " ".repeat(Math.max(0, width - displayWidth(t))) + t;
}

/** `s` at most `width` columns wide (cut with an ellipsis). */
export function clip(s: string, width: number): string {
  return displayWidth(s) <= width ? s : cut(s, width);
}

/** A compact one-line JSON rendering of tool arguments. */
export function compactJson(v: unknown, max = 400): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return clip(s, max);
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(s % 60).padStart(2, "0")}s`;
}

export interface Segment {
  text: string;
  /** Higher stays longer when the line is too narrow. */
  priority: number;
}

/**
 * The segments that fit in `width` joined by `sep`, in their given order: the lowest-priority
 * segment goes first until the rest fits (the highest one is clipped as a last resort).
 */
export function fitSegments(segments: readonly Segment[], width: number, sep = " · "): string {
  let kept = segments.filter((s) => s.text !== "");
  const join = (xs: readonly Segment[]) => xs.map((s) => s.text).join(sep);
  while (kept.length > 1 && displayWidth(join(kept)) > width) {
    const lowest = kept.reduce((a, b) => (b.priority < a.priority ? b : a));
    kept = kept.filter((s) => s !== lowest);
  }
  return clip(join(kept), width);
}

/** Text as shown: JSON documents pretty-printed (2 spaces), anything else as it is. */
export function prettyText(text: string): string {
  const t = text.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return text;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return text;
  }
}

/** Wrap preserving a line's indentation on its continuation lines (for pretty-printed JSON). */
export function wrapIndented(text: string, width: number): string[] {
  const out: string[] = [];
  for (const l of text.split("\n")) {
    const indent = /^\s*/.exec(l)?.[0] ?? "";
    const room = Math.max(8, width - indent.length);
    const body = wrapLine(l.slice(indent.length), room);
    for (const b of body) out.push(indent + b);
  }
  return out;
}
