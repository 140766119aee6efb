/**
 * Validation of a user's daily-bar CSV (`tradewarden data import`). Pure: text in, bars or every
 * problem (by line number) out. The command writes the result atomically.
 */
import { parse } from "csv-parse/sync";
import type { Bar } from "../core/domain.js";
import { barProblems } from "./bars.js";
import { isIsoDay } from "./calendar.js";

const IMPORT_COLUMNS = ["date", "open", "high", "low", "close", "volume"] as const;
export const SYMBOL_PATTERN = /^[A-Z0-9][A-Z0-9.-]{0,14}$/;

/**
 * A symbol as the user wrote it, upper-cased only within ASCII: "spx" → "SPX", but "ſpx", "ﬀ" or
 * "ı" (which Unicode case mapping folds to ASCII letters) are refused (undefined), never turned
 * into another instrument's symbol.
 */
export function asciiSymbol(raw: string): string | undefined {
  const s = raw.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,14}$/.test(s)) return undefined;
  return s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** "Saturday" or "Sunday" when an ISO day falls on a weekend (no exchange trades then), else undefined. */
export function weekendOf(day: string): string | undefined {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 || d === 6 ? WEEKDAYS[d] : undefined;
}

interface ImportProblem {
  /** 1-based line in the file (0: the file as a whole). */
  line: number;
  message: string;
}

export type ImportParse = { ok: true; bars: Bar[] } | { ok: false; problems: ImportProblem[] };

function toNumber(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const s = raw.trim().replace(/_/g, "");
  if (s.length === 0 || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

export function parseImportCsv(text: string): ImportParse {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text.replace(/^\uFEFF/, ""), {
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      trim: true,
    }) as { record: string[]; info: { lines: number } }[];
  } catch (e) {
    const line = (e as { lines?: number }).lines ?? 0;
    return { ok: false, problems: [{ line, message: `not a readable CSV file: ${(e as Error).message}` }] };
  }
  const first = records[0];
  if (!first) return { ok: false, problems: [{ line: 0, message: "the file is empty" }] };
  const header = first.record.map((h) => h.toLowerCase().replace(/\s+/g, ""));
  const cols: Record<string, number> = {};
  const problems: ImportProblem[] = [];
  for (const c of IMPORT_COLUMNS) {
    const i = header.indexOf(c);
    if (i < 0)
      problems.push({ line: first.info.lines, message: `missing column ${c[0]!.toUpperCase()}${c.slice(1)} (expected Date,Open,High,Low,Close,Volume)` });
    else cols[c] = i;
  }
  if (problems.length > 0) return { ok: false, problems };

  const bars: Bar[] = [];
  const seen = new Map<string, number>();
  let prevDate: string | undefined;
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    const rowProblems: string[] = [];
    const date = (record[cols.date!] ?? "").trim();
    if (!isIsoDay(date)) rowProblems.push(`bad date "${date}" (expected YYYY-MM-DD)`);
    else if (weekendOf(date)) rowProblems.push(`date ${date} is a ${weekendOf(date)}, not a trading day`);
    const values: Record<string, number> = {};
    for (const c of ["open", "high", "low", "close", "volume"] as const) {
      const raw = record[cols[c]!];
      const n = toNumber(raw);
      if (n === undefined) rowProblems.push(`${c} "${raw ?? ""}" is not a number`);
      else values[c] = n;
    }
    const { open, high, low, close, volume } = values;
    // The reader's own rule (range, sign, low ≤ open, close ≤ high): nothing imported is refused later.
    if (open !== undefined && high !== undefined && low !== undefined && close !== undefined && volume !== undefined) {
      rowProblems.push(...barProblems({ open, high, low, close, volume }));
    }
    if (isIsoDay(date)) {
      const dup = seen.get(date);
      if (dup !== undefined) rowProblems.push(`duplicate date ${date} (first on line ${dup})`);
      else if (prevDate !== undefined && date < prevDate)
        rowProblems.push(`date ${date} is before the previous row's ${prevDate} (rows must be sorted by date, oldest first)`);
      if (dup === undefined) seen.set(date, line);
      if (prevDate === undefined || date > prevDate) prevDate = date;
    }
    if (rowProblems.length > 0) {
      problems.push({ line, message: rowProblems.join("; ") });
      continue;
    }
    bars.push({ date, open: open!, high: high!, low: low!, close: close!, volume: volume! });
  }
  if (problems.length > 0) return { ok: false, problems };
  if (bars.length === 0) return { ok: false, problems: [{ line: 0, message: "the file has a header but no bars" }] };
  return { ok: true, bars };
}
