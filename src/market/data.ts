/**
 * Market data: daily bars per symbol (bundled `data/market/bars` + the user's imported bars under
 * `<home>/market`), a trading calendar, and point-in-time views.
 *
 * Point in time: `asOf(tradingDay)` is what tools and reference prices see — bars strictly before
 * the trading day. `barOn(symbol, day)` is the trading day's own bar, for the simulated broker only.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Bar, Instrument, PriceSource, ReferencePrice } from "../core/domain.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { bundledDataDir, homePaths } from "../util/paths.js";
import { READ_LIMITS, readRegularBytes } from "../util/regular-file.js";
import { countBefore, parseBarBytes } from "./bars.js";
import { TradingCalendar } from "./calendar.js";
import { type PreparedSeries, readPreparedBars } from "./prepared-bars.js";
import { asciiSymbol, weekendOf } from "./import.js";
import type { SeriesMemo } from "./series-memo.js";

export interface SymbolSeries {
  symbol: string;
  readonly bars: readonly Bar[];
  /** Its bars' dates when known without reading the bars (the prepared bundled series, whose bars are decoded as they are read). */
  readonly dates?: readonly string[];
  /** `bars.slice(from, to)` without decoding the rest (the prepared bundled series). */
  slice?(from: number, to: number): readonly Bar[];
  /** Currency recorded with the bars (imported files), if any. */
  currency?: string;
  origin: "bundled" | "imported" | "memory";
}

export interface MarketLoadOptions {
  /** The user's home: imported bars are read from `<home>/market`. */
  home?: string;
  /** Bundled data folder (default: the package's data/). Bars are read from `<dir>/market/bars`. */
  dataDir?: string;
  /** Skip the bundled bars (tests). */
  bundled?: boolean;
}

export interface ViewOptions {
  /** Instruments (the universe) for currencies; a symbol not listed falls back to its series' currency, then USD. */
  universe?: readonly Instrument[];
  /** The account's base currency (default USD). */
  baseCurrency?: string;
  /** Instrument currency → base multiplier; without a rate a foreign-currency symbol has no reference price. */
  fxToBase?: (currency: string) => number | undefined;
}

export class MarketData {
  readonly calendar: TradingCalendar;
  private readonly series: Map<string, SymbolSeries>;

  constructor(series: Iterable<SymbolSeries>) {
    this.series = new Map();
    // Kept as given (not spread): a prepared series' bars are read only when a command asks for them.
    for (const s of series) this.series.set(s.symbol.toUpperCase(), s.symbol === s.symbol.toUpperCase() ? s : upperCased(s));
    this.calendar = calendarOf([...this.series.values()]);
  }

  /** From in-memory bars (tests, benches). */
  static fromBars(bars: Record<string, readonly Bar[]>, currencies: Record<string, string> = {}): MarketData {
    return new MarketData(
      Object.entries(bars).map(([symbol, b]) => ({
        symbol,
        bars: [...b].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0)),
        ...(currencies[symbol] ? { currency: currencies[symbol] } : {}),
        origin: "memory" as const,
      })),
    );
  }

  /** Loads the bundled bars and the home's imported bars (imported bars replace bundled ones of the same symbol). */
  static load(opts: MarketLoadOptions = {}): MarketData {
    const out = new Map<string, SymbolSeries>();
    const dayPool = new Map<number, string>();
    try {
      if (opts.bundled !== false) {
        const marketDir = join(opts.dataDir ?? bundledDataDir(), "market");
        // The prepared form when it matches the CSVs (no parse of ~100k lines); the CSVs otherwise.
        const prepared = readPreparedBars(marketDir);
        if (prepared) for (const s of prepared) out.set(s.symbol, bundledSeries(s));
        else for (const s of readBarDir(join(marketDir, "bars"), "bundled", dayPool)) out.set(s.symbol, s);
      }
      if (opts.home) {
        const dir = homePaths(opts.home).imported;
        if (existsSync(dir)) for (const s of readBarDir(dir, "imported", dayPool)) out.set(s.symbol, s);
      }
    } catch (e) {
      if (e instanceof TwError) throw e;
      throw new TwError("data_unavailable", `market data could not be read: ${(e as Error).message}`, EXIT.BROKER_OR_DATA_UNAVAILABLE);
    }
    if (out.size === 0) throw new TwError("data_unavailable", "no market data found", EXIT.BROKER_OR_DATA_UNAVAILABLE);
    return new MarketData(out.values());
  }

  symbols(): string[] {
    return [...this.series.keys()].sort();
  }

  has(symbol: string): boolean {
    return this.series.has(symbol.toUpperCase());
  }

  seriesOf(symbol: string): SymbolSeries | undefined {
    return this.series.get(symbol.toUpperCase());
  }

  /** The trading day's own bar — for the simulated broker's fills only, never for tools. */
  barOn(symbol: string, day: string): Bar | undefined {
    const s = this.series.get(symbol.toUpperCase());
    if (!s) return undefined;
    const i = countBeforeIn(s, day);
    const b = sliceOf(s, i, i + 1)[0];
    return b && b.date === day ? b : undefined;
  }

  /** What is known before `tradingDay` opens: bars strictly before it. */
  asOf(tradingDay: string, opts: ViewOptions = {}): MarketView {
    return new MarketView(this, tradingDay, opts);
  }
}

/** A point-in-time view: only bars strictly before the trading day. Also the run's PriceSource. */
export class MarketView implements PriceSource {
  private readonly currencies: Map<string, string>;
  /** Each series' count of bars before the trading day, searched once per view (a day's tools ask ~50 times). */
  private readonly counts = new Map<SymbolSeries, number>();

  constructor(
    private readonly market: MarketData,
    readonly tradingDay: string,
    private readonly opts: ViewOptions = {},
  ) {
    this.currencies = new Map((opts.universe ?? []).map((i) => [i.symbol.toUpperCase(), i.currency.toUpperCase()]));
  }

  private countOf(s: SymbolSeries): number {
    let n = this.counts.get(s);
    if (n === undefined) {
      n = countBeforeIn(s, this.tradingDay);
      this.counts.set(s, n);
    }
    return n;
  }

  /** Bars strictly before the trading day (at most the last `limit` of them). */
  history(symbol: string, limit?: number): readonly Bar[] {
    const s = this.market.seriesOf(symbol);
    if (!s) return [];
    const n = this.countOf(s);
    const from = limit === undefined ? 0 : Math.max(0, n - limit);
    return sliceOf(s, from, n);
  }

  /**
   * `memo`'s value of the symbol's bars strictly before the trading day: never of a bar on or after
   * it. Undefined for a symbol the market has no series of.
   */
  memoised<T>(memo: SeriesMemo<T>, symbol: string): T | undefined {
    return this.memoisedBack(memo, symbol, 1)?.[0];
  }

  /**
   * `memo`'s values of the symbol's bars strictly before the trading day and before each of the last
   * `points − 1` of them (oldest first; none before the first bar): never of a bar on or after the
   * trading day. Undefined for a symbol the market has no series of.
   */
  memoisedBack<T>(memo: SeriesMemo<T>, symbol: string, points: number): T[] | undefined {
    const s = this.market.seriesOf(symbol);
    if (!s) return undefined;
    const count = this.countOf(s);
    return memo.valuesTo(s, count, Math.min(points, count + 1), (from, to) => sliceOf(s, from, to));
  }

  /** The last bar strictly before the trading day. */
  lastBar(symbol: string): Bar | undefined {
    const s = this.market.seriesOf(symbol);
    if (!s) return undefined;
    const n = this.countOf(s);
    return n > 0 ? sliceOf(s, n - 1, n)[0] : undefined;
  }

  currencyOf(symbol: string): string {
    return this.currencies.get(symbol.toUpperCase()) ?? this.market.seriesOf(symbol)?.currency?.toUpperCase() ?? "USD";
  }

  /** Reference price: the last close strictly before the trading day (undefined when unknown or no FX rate). */
  referencePrice(symbol: string): ReferencePrice | undefined {
    const bar = this.lastBar(symbol);
    if (!bar || !(bar.close > 0)) return undefined;
    const currency = this.currencyOf(symbol);
    const base = (this.opts.baseCurrency ?? "USD").toUpperCase();
    const fx = currency === base ? 1 : this.opts.fxToBase?.(currency);
    if (fx === undefined || !(fx > 0) || !Number.isFinite(fx)) return undefined;
    return { symbol: symbol.toUpperCase(), price: bar.close, as_of: bar.date, currency, fx_to_base: fx };
  }
}

/** A prepared bundled series as the market holds it: its bars still decoded on first read. */
function bundledSeries(s: PreparedSeries): SymbolSeries {
  return {
    symbol: s.symbol,
    get bars() {
      return s.bars;
    },
    slice: s.slice,
    dates: s.dates,
    ...(s.currency ? { currency: s.currency } : {}),
    origin: "bundled",
  };
}

function upperCased(s: SymbolSeries): SymbolSeries {
  const { symbol, bars, dates, slice, ...rest } = s;
  return { ...rest, symbol: symbol.toUpperCase(), bars, ...(dates ? { dates } : {}), ...(slice ? { slice } : {}) };
}

/** How many of the series' bars are dated before `day` (by its dates when it has them: no bar decoded). */
function countBeforeIn(s: SymbolSeries, day: string): number {
  if (!s.dates) return countBefore(s.bars, day);
  const dates = s.dates;
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `s.bars.slice(from, to)`, decoding no other bar of a prepared series. */
const sliceOf = (s: SymbolSeries, from: number, to: number): readonly Bar[] => (s.slice ? s.slice(from, to) : s.bars.slice(from, to));

/** A series' dates: from its `dates` when it has them (its bars then stay undecoded), else from its bars. */
function datesOf(s: SymbolSeries): readonly string[] {
  return s.dates ?? s.bars.map((b) => b.date);
}

/**
 * The trading calendar: the union of the series' dates. Series over the same days as the longest one
 * (the usual case) are skipped after one walk; the rest are merged (linear when ascending, as bar
 * files must be), never a set of every bar's date.
 */
function calendarOf(all: readonly SymbolSeries[]): TradingCalendar {
  const lists = all.map(datesOf);
  let longest: readonly string[] = [];
  for (const days of lists) if (days.length > longest.length) longest = days;
  const distinct: (readonly string[])[] = [longest];
  for (const days of lists) if (days !== longest && !sameDays(days, longest)) distinct.push(days);
  return TradingCalendar.union(distinct);
}

function sameDays(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function readBarDir(dir: string, origin: "bundled" | "imported", dayPool: Map<number, string>): SymbolSeries[] {
  if (!existsSync(dir)) return [];
  const out: SymbolSeries[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".csv")) continue;
    const symbol = asciiSymbol(name.slice(0, -4));
    if (symbol === undefined) throw new Error(`${join(dir, name)}: the file name is not an ASCII symbol`);
    // Only regular files: a FIFO or a device here is refused at once, never waited on.
    const read = readRegularBytes(join(dir, name), READ_LIMITS.bars);
    if (read.kind === "absent") continue;
    if (read.kind === "refused") throw new Error(read.reason);
    const { bars, meta } = parseBarBytes(read.bytes, join(dir, name), { dayPool });
    // Bars on a weekend would make the whole calendar trade that day: refused, never traded on.
    if (origin === "imported") {
      const weekend = bars.find((b) => weekendOf(b.date));
      if (weekend) throw new Error(`${join(dir, name)}: the bar of ${weekend.date} is on a ${weekendOf(weekend.date)}, not a trading day`);
    }
    out.push({ symbol, bars, ...(meta.currency ? { currency: meta.currency } : {}), origin });
  }
  return out;
}
