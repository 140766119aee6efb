/**
 * `tradewarden data import-alpaca --symbols A,B --from D --to D`: daily bars (split- and
 * dividend-adjusted, IEX feed by default) from Alpaca's market data API into
 * `<home>/market/<SYM>.csv`, the same files and format as `tradewarden data import` (currency USD).
 *
 * All or nothing: the bars of every symbol are fetched and validated first; the files are written
 * only when every symbol has good bars, to temporary names renamed into place together (see
 * `writeImportedBarFiles`). Each file replaces the symbol's previous import whole, as the CSV import
 * does. The bar of the current New York day is left out: its session may not be over.
 *
 * Exit codes: 0 imported; 2 usage (symbols, dates, feed), missing keys, a refused host, refused
 * credentials or a request the API refused; 4 the API unreachable, rate limited, its answer not
 * trustworthy, or no bars for a symbol; 1 a file could not be written.
 */
import type { Bar } from "../core/domain.js";
import { type AlpacaFeed, fetchAlpacaDailyBars, newYorkDate } from "../market/alpaca-bars.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { ImportWriteError, importMeta, writeImportedBarFiles } from "./data-import.js";
import type { CommandIO } from "./io.js";

export interface DataImportAlpacaOptions {
  home: string;
  /** Symbols; an element may be a comma-separated list (`--symbols A,B`). */
  symbols: readonly string[];
  /** First New York date, YYYY-MM-DD (inclusive). */
  from: string;
  /** Last New York date, YYYY-MM-DD (inclusive). */
  to: string;
  /** Where the keys come from (`process.env` in the CLI). */
  env: Readonly<Record<string, string | undefined>>;
  /** Default `iex` (the free feed). */
  feed?: AlpacaFeed;
  /** Default `https://data.alpaca.markets`; anything else is refused unless loopback and `allowLoopback`. */
  baseUrl?: string;
  /** Tests against a loopback fake. */
  allowLoopback?: boolean;
  fetch?: typeof fetch;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Clock for the metadata line and for today's (left out) bar (tests). */
  now?: () => Date;
}

const CURRENCY = "USD";

export async function cmdDataImportAlpaca(opts: DataImportAlpacaOptions, io: CommandIO): Promise<number> {
  const feed = opts.feed ?? "iex";
  let fetched: Record<string, Bar[]>;
  try {
    fetched = await fetchAlpacaDailyBars({
      symbols: opts.symbols,
      from: opts.from,
      to: opts.to,
      env: opts.env,
      feed,
      ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
      ...(opts.allowLoopback ? { allowLoopback: true } : {}),
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      ...(opts.now ? { now: () => opts.now!().getTime() } : {}),
    });
  } catch (e) {
    if (e instanceof TwError) {
      io.stderr(`error: ${e.message}; nothing was imported\n`);
      return e.exitCode;
    }
    io.stderr(`error: the Alpaca import failed: ${(e as Error)?.message ?? String(e)}; nothing was imported\n`);
    return EXIT.INTERNAL_ERROR;
  }

  const today = newYorkDate((opts.now?.() ?? new Date()).toISOString());
  const files: { symbol: string; bars: Bar[] }[] = [];
  const empty: string[] = [];
  for (const [symbol, all] of Object.entries(fetched)) {
    const bars = today === undefined ? all : all.filter((b) => b.date < today);
    if (bars.length < all.length) io.stdout(`left out ${symbol}'s bar of ${today}: today's session may not be over\n`);
    if (bars.length === 0) empty.push(symbol);
    else files.push({ symbol, bars });
  }
  if (empty.length > 0) {
    io.stderr(
      `error: Alpaca has no ${feed} daily bars from ${opts.from} to ${opts.to} for ${empty.join(", ")} (unknown symbol, or no completed session in the range); nothing was imported\n`,
    );
    return EXIT.BROKER_OR_DATA_UNAVAILABLE;
  }

  let paths: string[];
  try {
    paths = writeImportedBarFiles(
      opts.home,
      files.map((f) => ({ ...f, meta: { ...importMeta(f.symbol, CURRENCY, `alpaca-${feed}`, f.bars.length, opts.now), adjustment: "all" } })),
    );
  } catch (e) {
    const where = e instanceof ImportWriteError ? `${e.path}: ${e.reason}` : (e as Error).message;
    io.stderr(`error: could not write ${where}; nothing was imported\n`);
    return EXIT.INTERNAL_ERROR;
  }
  files.forEach((f, i) => {
    io.stdout(`imported ${f.bars.length} bars of ${f.symbol} (${CURRENCY}) from ${f.bars[0]!.date} to ${f.bars[f.bars.length - 1]!.date} into ${paths[i]}\n`);
  });
  const names = files.map((f) => f.symbol).join(", ");
  io.stdout(`to trade ${files.length === 1 ? "it" : "them"}, add a row for ${names} to a universe file listed in your config\n`);
  return EXIT.OK;
}
