/**
 * Width-adaptive tables: each column has a width and a priority; when the table does not fit,
 * the lowest-priority column goes first. Columns with priority Infinity never go.
 */
import { padEnd, padStart } from "./text.js";

export interface Column<Id extends string = string> {
  id: Id;
  header: string;
  width: number;
  align: "left" | "right";
  priority: number;
}

/** The columns that fit in `width` with `restMin` columns left for a last, free-width column. */
export function fitColumns<Id extends string>(all: readonly Column<Id>[], width: number, restMin = 0, fixed = 0): Column<Id>[] {
  let cols = [...all];
  const total = () => fixed + cols.reduce((a, c) => a + c.width, 0) + restMin;
  while (total() > width) {
    const droppable = cols.filter((c) => Number.isFinite(c.priority));
    if (droppable.length === 0) break;
    const lowest = droppable.reduce((a, b) => (b.priority < a.priority ? b : a));
    cols = cols.filter((c) => c !== lowest);
  }
  return cols;
}

/** One cell: padded to the column's width less one, then a space. */
export function cell(c: Column, s: string): string {
  return c.align === "left" ? `${padEnd(s, c.width - 1)} ` : `${padStart(s, c.width - 1)} `;
}

export function cells<Id extends string>(cols: readonly Column<Id>[], value: Record<Id, string>): string {
  return cols.map((c) => cell(c, value[c.id])).join("");
}
