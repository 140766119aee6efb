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

/** Apply one keystroke to a text buffer: printable input appends, Backspace/Delete removes. */
export function editBuffer(buf: string, input: string, key: { backspace: boolean; delete: boolean; ctrl: boolean; meta: boolean }, allowed?: RegExp): string {
  if (key.backspace || key.delete) return buf.slice(0, -1);
  if (key.ctrl || key.meta || input === "") return buf;
  // Pasted text arrives as one string: keep the printable characters only.
  const clean = [...input].filter((ch) => ch >= " " && ch !== "\u007f" && (!allowed || allowed.test(ch))).join("");
  return buf + clean;
}
