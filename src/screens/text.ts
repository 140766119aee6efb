/** Small pure text helpers for fixed-width terminal layout (no Ink). */

/** Wrap one paragraph-free string to `width` columns: at the last space when there is one, else hard. */
export function wrapLine(line: string, width: number): string[] {
  const w = Math.max(1, width);
  if (line.length <= w) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > w) {
    let cut = rest.lastIndexOf(" ", w);
    if (cut <= 0) cut = w;
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

export function padEnd(s: string, width: number): string {
  if (s.length > width) return width <= 1 ? s.slice(0, width) : `${s.slice(0, width - 1)}…`;
  return s + " ".repeat(width - s.length);
}

export function padStart(s: string, width: number): string {
  if (s.length > width) return width <= 1 ? s.slice(0, width) : `${s.slice(0, width - 1)}…`;
  return " ".repeat(width - s.length) + s;
}

export function clip(s: string, width: number): string {
  if (s.length <= width) return s;
  return width <= 1 ? s.slice(0, Math.max(0, width)) : `${s.slice(0, width - 1)}…`;
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
  while (kept.length > 1 && join(kept).length > width) {
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
