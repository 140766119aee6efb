/**
 * A width-aware text chart of account value against its peak and the drawdown limit line
 * (peak × (1 − max drawdown)). The value is drawn in braille (2×4 dots per cell, so it is smooth at
 * any width); the peak (─) and the limit (┄) are drawn per cell with their own glyphs, so the
 * three lines stay apart without colour (NO_COLOR).
 */

export interface ChartPoint {
  label: string;
  value: number;
  peak: number;
  /** Events of this point's run, drawn on the marker row under the plot. */
  marks?: { trip?: boolean; reset?: boolean; fills?: number };
}

/** Marker glyphs (letters, so they read without colour): trip, reset, fills. */
export const MARKS = { trip: "T", reset: "R", fill: "f" } as const;

export type ChartSeries = "value" | "peak" | "limit" | "axis" | "blank";

interface ChartCell {
  ch: string;
  series: ChartSeries;
}

export interface Chart {
  /** Rows of cells, top first; each row is exactly `width` cells including the axis gutter. */
  rows: ChartCell[][];
  /** The x-axis line under the plot (labels of the first and last point). */
  xAxis: string;
  /** The marker row (same columns as the plot): T trip, R reset, f fills; "" when no point has a mark. */
  markers: string;
  min: number;
  max: number;
  /** Some cell shows the peak line (under the value's braille it is hidden: a legend names only what is drawn). */
  peakDrawn: boolean;
}

const DOT = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
];

function fmtAxis(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e9) return `${(n / 1e9).toFixed(2)}B`;
  if (a >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (a >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return n.toFixed(0);
}

const GUTTER = 9;

/** The plot's size and scale: cells, braille dots, and where a value and a point fall. */
interface Geometry {
  plotW: number;
  H: number;
  PW: number;
  PH: number;
  min: number;
  max: number;
  py: (v: number) => number;
  px: (i: number) => number;
}

/** The value range every line fits in, padded 4% each way (widened when flat). */
function valueRange(points: readonly ChartPoint[], limits: readonly number[]): { min: number; max: number } {
  const all = [...points.flatMap((p) => [p.value, p.peak]), ...limits].filter(Number.isFinite);
  let min = all.length ? Math.min(...all) : 0;
  let max = all.length ? Math.max(...all) : 1;
  if (max - min < 1e-9) {
    max += Math.max(1, Math.abs(max) * 0.01);
    min -= Math.max(1, Math.abs(min) * 0.01);
  }
  const pad = (max - min) * 0.04;
  min -= pad;
  max += pad;
  return { min, max };
}

function geometry(points: readonly ChartPoint[], limits: readonly number[], width: number, height: number): Geometry {
  const plotW = Math.max(4, width - GUTTER);
  const H = Math.max(3, height);
  const { min, max } = valueRange(points, limits);
  const PW = plotW * 2;
  const PH = H * 4;
  const py = (v: number) => Math.min(PH - 1, Math.max(0, Math.round(((max - v) / (max - min)) * (PH - 1))));
  const px = (i: number) => (points.length <= 1 ? 0 : Math.round((i * (PW - 1)) / (points.length - 1)));
  return { plotW, H, PW, PH, min, max, py, px };
}

/** The value line in braille dots: segments between consecutive points (Bresenham); one bit mask per cell. */
function valueDots(points: readonly ChartPoint[], { plotW, H, py, px }: Geometry): number[][] {
  const bits: number[][] = Array.from({ length: H }, () => new Array<number>(plotW).fill(0));
  const plot = (x: number, y: number) => {
    const row = bits[Math.floor(y / 4)];
    if (!row) return;
    const dotRow = DOT[y % 4];
    const bit = dotRow?.[x % 2] ?? 0;
    const c = Math.floor(x / 2);
    row[c] = (row[c] ?? 0) | bit;
  };
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (!p || !Number.isFinite(p.value)) continue;
    const x1 = px(i);
    const y1 = py(p.value);
    const prev = i > 0 ? points[i - 1] : undefined;
    if (!prev || !Number.isFinite(prev.value)) {
      plot(x1, y1);
      continue;
    }
    let x0 = px(i - 1);
    let y0 = py(prev.value);
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      plot(x0, y0);
      if (x0 === x1 && y0 === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }
  return bits;
}

/** The plot's rows: the axis gutter, then per cell the value's braille, else the peak's or the limit's step, else blank. */
function plotRows(points: readonly ChartPoint[], limits: readonly number[], g: Geometry, bits: number[][]): ChartCell[][] {
  const { plotW, H, PW, PH, min, max, py } = g;
  // Peak and limit: a step per cell column, from the point under the column's centre.
  const stepAt = (c: number, ys: readonly number[]): number | null => {
    if (ys.length === 0) return null;
    const i = ys.length === 1 ? 0 : Math.round(((c * 2 + 0.5) / (PW - 1)) * (ys.length - 1));
    const v = ys[Math.min(ys.length - 1, Math.max(0, i))];
    return v === undefined || !Number.isFinite(v) ? null : Math.floor(py(v) / 4);
  };
  // The peak's own line only where it stands above the value: at a new high the value line is the peak.
  const peaks = points.map((p) => (p.peak > p.value ? p.peak : Number.NaN));
  const rows: ChartCell[][] = [];
  for (let r = 0; r < H; r++) {
    const yv = max - ((r * 4 + 1.5) / (PH - 1)) * (max - min);
    const label = r === 0 || r === H - 1 || r === Math.floor(H / 2) ? fmtAxis(yv) : "";
    const row: ChartCell[] = [...`${label.padStart(GUTTER - 2)} ┤`].map((ch) => ({ ch, series: "axis" as const }));
    for (let c = 0; c < plotW; c++) {
      const b = bits[r]?.[c] ?? 0;
      if (points.length > 0 && b) row.push({ ch: String.fromCharCode(0x2800 + b), series: "value" });
      else if (stepAt(c, peaks) === r) row.push({ ch: "─", series: "peak" });
      else if (stepAt(c, limits) === r) row.push({ ch: "┄", series: "limit" });
      else row.push({ ch: " ", series: "blank" });
    }
    rows.push(row);
  }
  return rows;
}

/** The x-axis: the first point's label under the plot's start, the last one's at its end. */
function xAxisLine(points: readonly ChartPoint[], plotW: number): string {
  const first = points[0]?.label ?? "";
  const last = points[points.length - 1]?.label ?? "";
  const span = plotW;
  return `${" ".repeat(GUTTER)}${first}${last && last !== first ? `${" ".repeat(Math.max(1, span - first.length - last.length))}${last}` : ""}`;
}

/** The marker row: T trip, R reset, f fills, in the column of their run; "" when no point has a mark. */
function markerRow(points: readonly ChartPoint[], { plotW, px }: Geometry): string {
  const markCells = new Array<string>(plotW).fill(" ");
  let anyMark = false;
  points.forEach((p, i) => {
    const m = p.marks;
    if (!m) return;
    const ch = m.trip ? MARKS.trip : m.reset ? MARKS.reset : (m.fills ?? 0) > 0 ? MARKS.fill : "";
    if (!ch) return;
    const c = Math.min(plotW - 1, Math.floor(px(i) / 2));
    const prev = markCells[c];
    // A trip outranks a reset, a reset outranks fills, when runs share a column.
    if (prev === " " || prev === MARKS.fill || (prev === MARKS.reset && ch === MARKS.trip)) markCells[c] = ch;
    anyMark = true;
  });
  return anyMark ? `${" ".repeat(GUTTER)}${markCells.join("")}`.trimEnd() : "";
}

export function renderChart(points: readonly ChartPoint[], opts: { width: number; height: number; maxDrawdownPct: number }): Chart {
  const dd = Math.min(100, Math.max(0, opts.maxDrawdownPct)) / 100;
  const limits = points.map((p) => p.peak * (1 - dd));
  const g = geometry(points, limits, opts.width, opts.height);
  const rows = plotRows(points, limits, g, valueDots(points, g));
  const peakDrawn = rows.some((row) => row.some((cell) => cell.series === "peak"));
  return { rows, xAxis: xAxisLine(points, g.plotW), min: g.min, max: g.max, markers: markerRow(points, g), peakDrawn };
}
