/**
 * The canonical bar file format: `Date,Open,High,Low,Close,Volume`, one bar per line, dates
 * ascending. Lines starting with `#` are comments (imported files carry their metadata there).
 * Used for the bundled data (data/market/bars) and for imported bars (<home>/market).
 */
import type { Bar } from "../domain.js";

export const BAR_HEADER = "Date,Open,High,Low,Close,Volume";

export interface BarFile {
  bars: Bar[];
  /** `key=value` pairs from `# key=value; key=value` comment lines. */
  meta: Record<string, string>;
}

/** Parses a canonical bar file (fast path: no quoting in this format). Throws on a malformed line. */
export function parseBarFile(text: string, source = "bars"): BarFile {
  const bars: Bar[] = [];
  const meta: Record<string, string> = {};
  let sawHeader = false;
  let lineNo = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lineNo++;
    let line = text.slice(start, end);
    start = end + 1;
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.length === 0) continue;
    if (line.startsWith("#")) {
      for (const part of line.slice(1).split(";")) {
        const eq = part.indexOf("=");
        if (eq > 0) meta[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
      }
      continue;
    }
    if (!sawHeader) {
      if (line.trim().toLowerCase() !== BAR_HEADER.toLowerCase()) {
        throw new Error(`${source}: line ${lineNo}: expected the header ${BAR_HEADER}`);
      }
      sawHeader = true;
      continue;
    }
    const f = line.split(",");
    const bar: Bar = {
      date: f[0] ?? "",
      open: Number(f[1]),
      high: Number(f[2]),
      low: Number(f[3]),
      close: Number(f[4]),
      volume: Number(f[5]),
    };
    if (f.length !== 6 || !/^\d{4}-\d{2}-\d{2}$/.test(bar.date) || !Number.isFinite(bar.open + bar.high + bar.low + bar.close + bar.volume)) {
      throw new Error(`${source}: line ${lineNo}: not a valid bar: ${line}`);
    }
    const prev = bars[bars.length - 1];
    if (prev && prev.date >= bar.date) throw new Error(`${source}: line ${lineNo}: dates must be strictly ascending (${bar.date} after ${prev.date})`);
    bars.push(bar);
  }
  return { bars, meta };
}

export function formatBarFile(bars: readonly Bar[], meta?: Record<string, string>): string {
  let out = "";
  if (meta && Object.keys(meta).length > 0) {
    out += `# ${Object.entries(meta)
      .map(([k, v]) => `${k}=${v.replace(/[;\n\r]/g, " ")}`)
      .join("; ")}\n`;
  }
  out += `${BAR_HEADER}\n`;
  for (const b of bars) out += `${b.date},${b.open},${b.high},${b.low},${b.close},${b.volume}\n`;
  return out;
}

/** Index of the first bar whose date is ≥ `day` (bars sorted ascending): the count of bars strictly before `day`. */
export function countBefore(bars: readonly Bar[], day: string): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bars[mid]!.date < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
