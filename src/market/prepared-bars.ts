/**
 * The bundled bars in a prepared form (`data/market/bars.bin`, written by `npm run data:build`):
 * what parsing the 20 CSV files gives, ready to use without parsing ~100k lines on every command.
 * tests/market/prepared-bars.test.ts checks it decodes to exactly what the CSVs parse to.
 *
 * Layout: the magic `TWBARS1\n`, a u32 (little-endian) header length, the header (JSON, padded
 * with spaces to a multiple of 8 bytes): the calendar's days and per series its symbol, the byte
 * size of its CSV (a prepared file that no longer matches the CSVs beside it is not used), the
 * index of its first day, its bar count and its currency when its CSV names one. Then each series' volumes (float64) and then each
 * series' open, high, low, close in cents (int32; the encoder refuses a price with more decimals).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Bar } from "../core/domain.js";

const MAGIC = "TWBARS1\n";

export interface PreparedSeriesInput {
  symbol: string;
  /** The byte size of the CSV the bars came from. */
  csvBytes: number;
  bars: readonly Bar[];
  currency?: string;
}

interface SeriesHeader {
  symbol: string;
  csv_bytes: number;
  start: number;
  count: number;
  currency?: string;
}

interface Header {
  days: string[];
  series: SeriesHeader[];
}

export interface PreparedSeries {
  symbol: string;
  csvBytes: number;
  /** Decoded on first read: a command pays only for the series it reads. */
  readonly bars: Bar[];
  /** Bars `from` (inclusive) to `to` (exclusive), decoding only those not decoded yet. */
  slice(from: number, to: number): Bar[];
  /** Its bars' dates (from the header, without decoding the bars). */
  readonly dates: readonly string[];
  currency?: string;
}

function cents(v: number, symbol: string, date: string): number {
  const c = Math.round(v * 100);
  if (c / 100 !== v || Math.abs(c) > 2 ** 31 - 1) throw new Error(`${symbol} ${date}: ${v} is not a whole number of cents`);
  return c;
}

/** The prepared form of series whose days are each a run of consecutive days of their union. */
export function encodePreparedBars(series: readonly PreparedSeriesInput[]): Buffer {
  const days = [...new Set(series.flatMap((s) => s.bars.map((b) => b.date)))].sort();
  const index = new Map(days.map((d, i) => [d, i]));
  const heads: SeriesHeader[] = series.map((s) => {
    const start = s.bars.length > 0 ? (index.get(s.bars[0]!.date) ?? 0) : 0;
    s.bars.forEach((b, i) => {
      if (days[start + i] !== b.date) throw new Error(`${s.symbol}: the bar of ${b.date} is not on the calendar's next day`);
    });
    return { symbol: s.symbol, csv_bytes: s.csvBytes, start, count: s.bars.length, ...(s.currency ? { currency: s.currency } : {}) };
  });
  let json = JSON.stringify({ days, series: heads } satisfies Header);
  while ((MAGIC.length + 4 + Buffer.byteLength(json)) % 8 !== 0) json += " ";
  const head = Buffer.alloc(MAGIC.length + 4);
  head.write(MAGIC, 0, "latin1");
  head.writeUInt32LE(Buffer.byteLength(json), MAGIC.length);
  const total = series.reduce((n, s) => n + s.bars.length, 0);
  const volumes = new Float64Array(total);
  const prices = new Int32Array(total * 4);
  let at = 0;
  for (const s of series) {
    for (const b of s.bars) {
      volumes[at] = b.volume;
      prices.set(
        [b.open, b.high, b.low, b.close].map((v) => cents(v, s.symbol, b.date)),
        at * 4,
      );
      at++;
    }
  }
  return Buffer.concat([head, Buffer.from(json), Buffer.from(volumes.buffer), Buffer.from(prices.buffer)]);
}

/** The series of a prepared file (throws on a file that is not one); each series' bars are decoded when first read. */
export function decodePreparedBars(bytes: Buffer): PreparedSeries[] {
  if (bytes.toString("latin1", 0, MAGIC.length) !== MAGIC) throw new Error("not a prepared bar file");
  const jsonLength = bytes.readUInt32LE(MAGIC.length);
  const bodyAt = MAGIC.length + 4 + jsonLength;
  const header: unknown = JSON.parse(bytes.toString("utf8", MAGIC.length + 4, bodyAt));
  if (!isHeader(header)) throw new Error("the prepared bar file's header is not one");
  const total = header.series.reduce((n, s) => n + s.count, 0);
  // Typed views need aligned offsets: copy the body when the buffer does not start on one.
  const body = (bytes.byteOffset + bodyAt) % 8 === 0 ? bytes.subarray(bodyAt) : Buffer.from(bytes.subarray(bodyAt));
  if (body.length !== total * 24) throw new Error("the prepared bar file is truncated");
  const volumes = new Float64Array(body.buffer, body.byteOffset, total);
  const prices = new Int32Array(body.buffer, body.byteOffset + total * 8, total * 4);
  const out: PreparedSeries[] = [];
  // Series over the same days share one (read-only) list of them: the calendar then sees at once,
  // by identity, that they add no day (comparing ~20 lists of thousands of dates was ~13 ms a load).
  const dayLists = new Map<string, readonly string[]>();
  let at = 0;
  for (const s of header.series) {
    const range = `${s.start}:${s.count}`;
    let dates = dayLists.get(range);
    if (!dates) {
      dates = header.days.slice(s.start, s.start + s.count);
      dayLists.set(range, dates);
    }
    out.push(lazySeries(header.days, s, volumes, prices, at, dates));
    at += s.count;
  }
  return out;
}

/** One series whose bars (`s.count` of them from the file's `first`-th) are decoded as they are read, each once. */
function lazySeries(
  days: readonly string[],
  s: SeriesHeader,
  volumes: Float64Array,
  prices: Int32Array,
  first: number,
  dates: readonly string[],
): PreparedSeries {
  const decoded: (Bar | undefined)[] = new Array(s.count);
  let all: Bar[] | undefined;
  const slice = (from: number, to: number): Bar[] => {
    const lo = Math.max(0, from);
    const hi = Math.min(s.count, to);
    if (hi <= lo) return [];
    for (let i = lo; i < hi; i++) {
      if (decoded[i]) continue;
      const at = first + i;
      const p = at * 4;
      decoded[i] = {
        date: days[s.start + i]!,
        open: prices[p]! / 100,
        high: prices[p + 1]! / 100,
        low: prices[p + 2]! / 100,
        close: prices[p + 3]! / 100,
        volume: volumes[at]!,
      };
    }
    // Every bar of the range is decoded now: one copy of them (a day reads ~300 bars of each symbol, several times).
    return decoded.slice(lo, hi) as Bar[];
  };
  return {
    symbol: s.symbol,
    csvBytes: s.csv_bytes,
    get bars() {
      all ??= slice(0, s.count);
      return all;
    },
    slice,
    dates,
    ...(s.currency ? { currency: s.currency } : {}),
  };
}

function isHeader(h: unknown): h is Header {
  if (typeof h !== "object" || h === null || !("days" in h) || !("series" in h)) return false;
  const { days, series } = h;
  return (
    Array.isArray(days) &&
    days.every((d) => typeof d === "string") &&
    Array.isArray(series) &&
    series.every(
      (s: unknown) =>
        typeof s === "object" &&
        s !== null &&
        "symbol" in s &&
        typeof s.symbol === "string" &&
        (!("currency" in s) || typeof s.currency === "string") &&
        ["csv_bytes", "start", "count"].every((k) => k in s && Number.isSafeInteger((s as Record<string, unknown>)[k])),
    )
  );
}

/**
 * The bars of `<dir>/bars.bin` when it was prepared from exactly the CSV files now in `<dir>/bars`
 * (the same symbols, each of the same size); undefined otherwise (the CSVs are then parsed).
 */
export function readPreparedBars(dir: string): PreparedSeries[] | undefined {
  const path = join(dir, "bars.bin");
  if (!existsSync(path)) return undefined;
  const series = decodePreparedBars(readFileSync(path));
  const csvs = readdirSync(join(dir, "bars")).filter((n) => n.endsWith(".csv"));
  if (csvs.length !== series.length) return undefined;
  for (const s of series) {
    const csv = join(dir, "bars", `${s.symbol}.csv`);
    if (!existsSync(csv) || statSync(csv).size !== s.csvBytes) return undefined;
  }
  return series;
}
