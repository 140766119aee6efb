/**
 * The canonical bar file format: `Date,Open,High,Low,Close,Volume`, one bar per line, dates
 * ascending. Lines starting with `#` are comments (imported files carry their metadata there).
 * Used for the bundled data (data/market/bars) and for imported bars (<home>/market).
 */
import { Buffer } from "node:buffer";
import type { Bar } from "../core/domain.js";

export const BAR_HEADER = "Date,Open,High,Low,Close,Volume";

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
export const MAX_BAR_NUMBER = 1e15;

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

/**
 * Parses a canonical bar file. Throws on a malformed line, naming the source and line number.
 *
 * Fast path: a data line of the strict shape `dddd-dd-dd` then five `digits[.digits]` fields (at
 * most 15 digits each) is read in place, byte by byte. Such a field's value m / 10^d (m < 2^53,
 * 10^d exact) is one correctly rounded division, so it is bit-identical to `Number(field)`. Any
 * other line (signs, exponents, spaces, empty fields, comments, the header, errors) goes through
 * the general path, which applies the format's rules exactly as before (`Number` per field).
 * (The text is read as UTF-8 bytes: a lone surrogate in `text`, which no file can hold, reads as U+FFFD.)
 */
export function parseBarFile(text: string, source = "bars", opts: ParseBarOptions = {}): BarFile {
  return parseBarBytes(Buffer.from(text, "utf8"), source, opts);
}

/**
 * `parseBarFile` over the file's bytes (UTF-8), without decoding the whole file: what the loader
 * uses. A line is decoded only when it leaves the fast path, so the results are those of parsing
 * the decoded text.
 */
export function parseBarBytes(bytes: Uint8Array, source = "bars", opts: ParseBarOptions = {}): BarFile {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pool = opts.dayPool;
  const bars: Bar[] = [];
  const meta: Record<string, string> = {};
  const n = buf.length;
  let sawHeader = false;
  let lineNo = 0;
  let start = 0;
  let prevKey = -1;
  const values = [0, 0, 0, 0, 0];
  while (start < n) {
    lineNo++;
    if (sawHeader) {
      // ---- fast path: the whole line in one pass over the bytes ---------------------------------
      let p = start;
      let ok = p + 10 < n;
      let key = 0;
      if (ok) {
        for (let q = 0; q < 10; q++) {
          const c = buf[p + q]!;
          if (q === 4 || q === 7) {
            if (c !== 45) ok = false;
          } else if (c >= 48 && c <= 57) key = key * 10 + (c - 48);
          else ok = false;
        }
        if (buf[p + 10] !== 44) ok = false;
      }
      if (ok) {
        p += 11;
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
            if (decimals === 0) ok = false;
          }
          if (!ok || digits === 0 || digits + decimals > MAX_FAST_DIGITS) {
            ok = false;
            break;
          }
          values[k] = decimals === 0 ? m : m / POW10[decimals]!;
          if (k < 4) {
            if (c !== 44) {
              ok = false;
              break;
            }
            p++;
          } else if (c === 13) {
            const next = p + 1 < n ? buf[p + 1]! : -1;
            if (next !== 10 && next !== -1) ok = false;
            else p++;
          } else if (c !== 10 && c !== -1) ok = false;
        }
      }
      if (ok) {
        let date = pool?.get(key);
        if (date === undefined) {
          date = String.fromCharCode(buf[start]!, buf[start + 1]!, buf[start + 2]!, buf[start + 3]!, 45, buf[start + 5]!, buf[start + 6]!, 45, buf[start + 8]!, buf[start + 9]!);
          pool?.set(key, date);
        }
        if (key <= prevKey) {
          const prev = bars[bars.length - 1]!;
          throw new Error(`${source}: line ${lineNo}: dates must be strictly ascending (${date} after ${prev.date})`);
        }
        prevKey = key;
        const bar: Bar = { date, open: values[0]!, high: values[1]!, low: values[2]!, close: values[3]!, volume: values[4]! };
        const problems = barProblems(bar);
        if (problems.length > 0) throw new Error(`${source}: line ${lineNo}: not a usable bar: ${problems.join("; ")}`);
        bars.push(bar);
        start = p + 1;
        continue;
      }
    }
    // ---- general path: the line as text, the format's rules as they always were -------------------
    let end = buf.indexOf(10, start);
    if (end < 0) end = n;
    let line = buf.toString("utf8", start, end);
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
    const bar: Bar = { date: f[0] ?? "", open: Number(f[1]), high: Number(f[2]), low: Number(f[3]), close: Number(f[4]), volume: Number(f[5]) };
    if (f.length !== 6 || !DATE_RE.test(bar.date) || !Number.isFinite(bar.open + bar.high + bar.low + bar.close + bar.volume)) {
      throw new Error(`${source}: line ${lineNo}: not a valid bar: ${line}`);
    }
    const problems = barProblems(bar);
    if (problems.length > 0) throw new Error(`${source}: line ${lineNo}: not a usable bar: ${problems.join("; ")}`);
    const key = dayKey(bar.date, 0);
    if (key <= prevKey) {
      const prev = bars[bars.length - 1]!;
      throw new Error(`${source}: line ${lineNo}: dates must be strictly ascending (${bar.date} after ${prev.date})`);
    }
    prevKey = key;
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
