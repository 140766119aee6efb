/** Moving a selection or a scroll offset through a list or a long view (pure). */
import type { MoveAction } from "./keys.js";

/** The selection after a move key in a list of `total` rows with `page` rows visible. */
export function moveSelection(action: MoveAction, index: number, total: number, page: number): number {
  if (total <= 0) return 0;
  const step = Math.max(1, page - 1);
  const next =
    action === "up"
      ? index - 1
      : action === "down"
        ? index + 1
        : action === "pageUp"
          ? index - step
          : action === "pageDown"
            ? index + step
            : action === "top"
              ? 0
              : total - 1;
  return Math.min(total - 1, Math.max(0, next));
}

/** The scroll offset after a move key in a view of `total` lines, `height` visible. */
export function scrollBy(action: MoveAction, offset: number, total: number, height: number): number {
  const maxOff = Math.max(0, total - height);
  const page = Math.max(1, height - 1);
  const next =
    action === "up"
      ? offset - 1
      : action === "down"
        ? offset + 1
        : action === "pageUp"
          ? offset - page
          : action === "pageDown"
            ? offset + page
            : action === "top"
              ? 0
              : maxOff;
  return Math.min(maxOff, Math.max(0, next));
}

/** First visible row so that `selected` stays in a window of `height` rows (centred when it can). */
export function windowStart(selected: number, total: number, height: number): number {
  return Math.min(Math.max(0, selected - Math.floor(height / 2)), Math.max(0, total - height));
}

/** "n of N" for a selection (1-based), "0 of 0" when empty. */
export function positionLabel(index: number, total: number): string {
  return total === 0 ? "0 of 0" : `${Math.min(total, index + 1)} of ${total}`;
}

/** "lines a–b of N" for a scrolled view. */
export function rangeLabel(offset: number, height: number, total: number): string {
  return total === 0 ? "lines 0 of 0" : `lines ${offset + 1}–${Math.min(total, offset + height)} of ${total}`;
}

/** Indexes of the lines containing `query` (case-insensitive). */
export function searchLines(lines: readonly { text: string }[], query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (l.text.toLowerCase().includes(q)) out.push(i);
  });
  return out;
}

/** The next (or previous) match from the line at `from`, wrapping around; undefined when none. */
export function nextMatch(matches: readonly number[], from: number, dir: 1 | -1): number | undefined {
  if (matches.length === 0) return undefined;
  if (dir === 1) return matches.find((m) => m > from) ?? matches[0];
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i];
    if (m !== undefined && m < from) return m;
  }
  return matches[matches.length - 1];
}
