/**
 * The canonical bar file format: `Date,Open,High,Low,Close,Volume`, one bar per line, dates
 * ascending. Lines starting with `#` are comments (imported files carry their metadata there).
 * Used for the bundled data (data/market/bars) and for imported bars (<home>/market).
 */
import { Buffer } from "node:buffer";
import type { Bar } from "../core/domain.js";

const BAR_HEADER = "Date,Open,High,Low,Close,Volume";

export interface BarFile {
  bars: Bar[];
  /** `key=value` pairs from `# key=value; key=value` comment lines. */
  meta: Record<string, string>;
}

export interface ParseBarOptions {
  /**
   * Day strings shared across files (keyed by YYYYMMDD as a number): series over the same calendar
   * then hold one string per day instead of one per bar (less to allocate and collect).
   */
  dayPool?: Map<number, string>;
}

/**
 * Largest price or volume a bar may hold (as the gate's MAX_GATE_NUMBER): products of it stay far
 * below 2^1023, so no valuation becomes Infinity or NaN.
 */
const MAX_BAR_NUMBER = 1e15;

const PRICE_FIELDS = ["open", "high", "low", "close"] as const;

/**
 * What is wrong with one bar's numbers (empty: a usable bar). The one rule for every bar, applied
 * by the reader of bar files and by every import (CSV and Alpaca) before anything is written, so
 * an import never writes a bar the reader would refuse: prices finite, > 0 and at most
 * MAX_BAR_NUMBER; volume finite, ≥ 0 and at most MAX_BAR_NUMBER; low ≤ open, close ≤ high.
 */
export function barProblems(b: Pick<Bar, "open" | "high" | "low" | "close" | "volume">): string[] {
  const out: string[] = [];
  for (const name of PRICE_FIELDS) {
    const v = b[name];
    if (!Number.isFinite(v)) out.push(`${name} ${v} is not a finite number`);
    else if (v <= 0) out.push(`${name} ${v} must be > 0`);
    else if (v > MAX_BAR_NUMBER) out.push(`${name} ${v} is beyond ${MAX_BAR_NUMBER}`);
  }
  const { open, high, low, close, volume } = b;
  if (!Number.isFinite(volume)) out.push(`volume ${volume} is not a finite number`);
  else if (volume < 0) out.push(`volume ${volume} must be ≥ 0`);
  else if (volume > MAX_BAR_NUMBER) out.push(`volume ${volume} is beyond ${MAX_BAR_NUMBER}`);
  if (out.length > 0) return out;
  if (high < low) out.push(`high ${high} is below low ${low}`);
  else {
    if (high < Math.max(open, close)) out.push(`high ${high} is below max(open ${open}, close ${close})`);
    if (low > Math.min(open, close)) out.push(`low ${low} is above min(open ${open}, close ${close})`);
  }
  return out;
}

/** 10^0 … 10^15, exact doubles. */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/** At most this many digits per number on the fast path: the integer mantissa stays below 2^53. */
const MAX_FAST_DIGITS = 15;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` (already checked to be digits and dashes) as the number YYYYMMDD: orders like the string. */
function dayKey(text: string, at: number): number {
  return (
    (text.charCodeAt(at) - 48) * 10_000_000 +
    (text.charCodeAt(at + 1) - 48) * 1_000_000 +
    (text.charCodeAt(at + 2) - 48) * 100_000 +
    (text.charCodeAt(at + 3) - 48) * 10_000 +
    (text.charCodeAt(at + 5) - 48) * 1000 +
    (text.charCodeAt(at + 6) - 48) * 100 +
    (text.charCodeAt(at + 8) - 48) * 10 +
    (text.charCodeAt(at + 9) - 48)
  );
}

/** What the parse of one file carries from line to line. */
interface BarParse {
  source: string;
  pool: Map<number, string> | undefined;
  bars: Bar[];
  meta: Record<string, string>;
  sawHeader: boolean;
  lineNo: number;
  /** The previous bar's day as YYYYMMDD (-1 before the first). */
  prevKey: number;
}

/**
 * Parses a canonical bar file from its bytes (UTF-8), without decoding the whole file: what the
 * loader uses. Throws on a malformed line, naming the source and line number.
 *
 * Fast path: a data line of the strict shape `dddd-dd-dd` then five `digits[.digits]` fields (at
 * most 15 digits each) is read in place, byte by byte. Such a field's value m / 10^d (m < 2^53,
 * 10^d exact) is one correctly rounded division, so it is bit-identical to `Number(field)`. Any
 * other line (signs, exponents, spaces, empty fields, comments, the header, errors) goes through
 * the general path, which applies the format's rules exactly as before (`Number` per field).
 * A line is decoded only when it leaves the fast path, so the results are those of parsing the
 * decoded text.
 */
export function parseBarBytes(bytes: Uint8Array, source = "bars", opts: ParseBarOptions = {}): BarFile {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const st: BarParse = { source, pool: opts.dayPool, bars: [], meta: {}, sawHeader: false, lineNo: 0, prevKey: -1 };
  const n = buf.length;
  let start = 0;
  const values = [0, 0, 0, 0, 0];
  while (start < n) {
    st.lineNo++;
    if (st.sawHeader) {
      // ---- fast path: the whole line in one pass over the bytes ---------------------------------
      const key = fastDayKey(buf, start);
      const end = key < 0 ? -1 : fastFields(buf, start + 11, values);
      if (end >= 0) {
        pushFastBar(st, buf, start, key, values);
        start = end + 1;
        continue;
      }
    }
    // ---- general path: the line as text, the format's rules as they always were -------------------
    let end = buf.indexOf(10, start);
    if (end < 0) end = n;
    const line = buf.toString("utf8", start, end);
    start = end + 1;
    readTextLine(st, line);
  }
  return { bars: st.bars, meta: st.meta };
}

/** Fast path: the line's leading `dddd-dd-dd,` as YYYYMMDD, or -1 when it is not of that shape. */
function fastDayKey(buf: Buffer, p: number): number {
  if (!(p + 10 < buf.length)) return -1;
  let ok = true;
  let key = 0;
  for (let q = 0; q < 10; q++) {
    const c = buf[p + q]!;
    if (q === 4 || q === 7) {
      if (c !== 45) ok = false;
    } else if (c >= 48 && c <= 57) key = key * 10 + (c - 48);
    else ok = false;
  }
  if (buf[p + 10] !== 44) ok = false;
  return ok ? key : -1;
}

/**
 * Fast path: five `digits[.digits]` fields from `p` into `values`; returns the position of the
 * line's end (its `\n`, or the end of the buffer), or -1 when the line is not of that shape.
 */
function fastFields(buf: Buffer, p: number, values: number[]): number {
  const n = buf.length;
  for (let k = 0; k < 5; k++) {
    let m = 0;
    let digits = 0;
    let c = p < n ? buf[p]! : -1;
    while (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      c = ++p < n ? buf[p]! : -1;
    }
    let decimals = 0;
    if (c === 46 && digits > 0) {
      c = ++p < n ? buf[p]! : -1;
      while (c >= 48 && c <= 57) {
        m = m * 10 + (c - 48);
        decimals++;
        c = ++p < n ? buf[p]! : -1;
      }
      if (decimals === 0) return -1;
    }
    if (digits === 0 || digits + decimals > MAX_FAST_DIGITS) return -1;
    values[k] = decimals === 0 ? m : m / POW10[decimals]!;
    if (k < 4) {
      if (c !== 44) return -1;
      p++;
    } else if (c === 13) {
      const next = p + 1 < n ? buf[p + 1]! : -1;
      if (next !== 10 && next !== -1) return -1;
      p++;
    } else if (c !== 10 && c !== -1) return -1;
  }
  return p;
}

/** Fails unless the day `key` comes strictly after the previous bar's; then it is the previous. */
function checkAscending(st: BarParse, key: number, date: string): void {
  if (key <= st.prevKey) {
    const prev = st.bars[st.bars.length - 1]!;
    throw new Error(`${st.source}: line ${st.lineNo}: dates must be strictly ascending (${date} after ${prev.date})`);
  }
  st.prevKey = key;
}

function checkUsable(st: BarParse, bar: Bar): void {
  const problems = barProblems(bar);
  if (problems.length > 0) throw new Error(`${st.source}: line ${st.lineNo}: not a usable bar: ${problems.join("; ")}`);
}

/** Fast path: the bar read in place (its day string shared through the pool). */
function pushFastBar(st: BarParse, buf: Buffer, start: number, key: number, values: number[]): void {
  let date = st.pool?.get(key);
  if (date === undefined) {
    date = String.fromCharCode(
      buf[start]!,
      buf[start + 1]!,
      buf[start + 2]!,
      buf[start + 3]!,
      45,
      buf[start + 5]!,
      buf[start + 6]!,
      45,
      buf[start + 8]!,
      buf[start + 9]!,
    );
    st.pool?.set(key, date);
  }
  checkAscending(st, key, date);
  const bar: Bar = { date, open: values[0]!, high: values[1]!, low: values[2]!, close: values[3]!, volume: values[4]! };
  checkUsable(st, bar);
  st.bars.push(bar);
}

/** General path: one line as text (comment, header or bar). */
function readTextLine(st: BarParse, text: string): void {
  const line = text.endsWith("\r") ? text.slice(0, -1) : text;
  if (line.length === 0) return;
  if (line.startsWith("#")) {
    for (const part of line.slice(1).split(";")) {
      const eq = part.indexOf("=");
      if (eq > 0) st.meta[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
    return;
  }
  if (!st.sawHeader) {
    if (line.trim().toLowerCase() !== BAR_HEADER.toLowerCase()) {
      throw new Error(`${st.source}: line ${st.lineNo}: expected the header ${BAR_HEADER}`);
    }
    st.sawHeader = true;
    return;
  }
  const f = line.split(",");
  const bar: Bar = { date: f[0] ?? "", open: Number(f[1]), high: Number(f[2]), low: Number(f[3]), close: Number(f[4]), volume: Number(f[5]) };
  if (f.length !== 6 || !DATE_RE.test(bar.date) || !Number.isFinite(bar.open + bar.high + bar.low + bar.close + bar.volume)) {
    throw new Error(`${st.source}: line ${st.lineNo}: not a valid bar: ${line}`);
  }
  checkUsable(st, bar);
  checkAscending(st, dayKey(bar.date, 0), bar.date);
  st.bars.push(bar);
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
