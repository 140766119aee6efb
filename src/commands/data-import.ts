/**
 * `tradewarden data import --csv FILE --symbol SYM [--currency C]`: adds a user's own daily bars
 * to `<home>/market/<SYM>.csv`. Every bad row is reported by line; nothing is half-imported (the
 * file is written to a temporary name and renamed into place only when every row is valid).
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Bar } from "../core/domain.js";
import { formatBarFile } from "../market/bars.js";
import { asciiSymbol, parseImportCsv } from "../market/import.js";
import { EXIT } from "../core/exit-codes.js";
import { isIsoCurrency } from "../core/money.js";
import { fsyncDirSync, writeFileDurableSync } from "../util/atomic-write.js";
import { homePaths } from "../util/paths.js";
import { READ_LIMITS, readRequiredFile } from "../util/regular-file.js";
import type { CommandIO } from "./io.js";

export interface DataImportOptions {
  home: string;
  csv: string;
  symbol: string;
  currency?: string;
  /** Clock for the metadata line (tests). */
  now?: () => Date;
}

const MAX_PROBLEMS_SHOWN = 50;

export function cmdDataImport(opts: DataImportOptions, io: CommandIO): number {
  const symbol = asciiSymbol(opts.symbol ?? "");
  const currency = (opts.currency ?? "USD").trim().toUpperCase();
  if (symbol === undefined) {
    io.stderr(`error: symbol ${JSON.stringify(opts.symbol)} is not valid (ASCII letters, digits, '.' or '-', at most 15 characters)\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  if (!isIsoCurrency(currency)) {
    io.stderr(`error: currency "${opts.currency}" is not an ISO 4217 currency code in use (e.g. USD, EUR, JPY)\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  // Only a regular file: a FIFO or a device is refused at once, never waited on.
  const read = readRequiredFile(opts.csv, READ_LIMITS.import);
  if (!read.ok) {
    io.stderr(`error: cannot read ${opts.csv}: ${read.reason}\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const parsed = parseImportCsv(read.text);
  if (!parsed.ok) {
    const n = parsed.problems.length;
    io.stderr(`error: ${opts.csv}: ${n} problem${n === 1 ? "" : "s"}; nothing was imported\n`);
    for (const p of parsed.problems.slice(0, MAX_PROBLEMS_SHOWN)) io.stderr(`  ${p.line > 0 ? `line ${p.line}` : "file"}: ${p.message}\n`);
    if (n > MAX_PROBLEMS_SHOWN) io.stderr(`  … and ${n - MAX_PROBLEMS_SHOWN} more\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const bars = parsed.bars;
  const dest = importedBarPath(opts.home, symbol);
  const first = bars[0]!.date;
  const last = bars[bars.length - 1]!.date;
  try {
    writeImportedBarFiles(opts.home, [{ symbol, bars, meta: importMeta(symbol, currency, basename(opts.csv), bars.length, opts.now) }]);
  } catch (e) {
    io.stderr(`error: could not write ${e instanceof ImportWriteError ? e.path : dest}: ${e instanceof ImportWriteError ? e.reason : (e as Error).message}\n`);
    return EXIT.INTERNAL_ERROR;
  }
  io.stdout(`imported ${bars.length} bars of ${symbol} (${currency}) from ${first} to ${last} into ${dest}\n`);
  io.stdout(`to trade it, add a row for ${symbol} to a universe file listed in your config\n`);
  return EXIT.OK;
}

// ---- the imported-bar writer, shared by `data import` and `data import-alpaca` -----------------

/** One symbol's bars to write to `<home>/market/<SYM>.csv`. */
export interface ImportedBarFile {
  /** Upper case, already checked against SYMBOL_PATTERN. */
  symbol: string;
  bars: readonly Bar[];
  /** The `#` comment line (see `importMeta`). */
  meta: Record<string, string>;
}

/** A write that failed; `path` is the file, `reason` the system's message. Nothing was changed. */
export class ImportWriteError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`could not write ${path}: ${reason}`);
    this.name = "ImportWriteError";
  }
}

/** Where an imported symbol's bars live. */
export function importedBarPath(home: string, symbol: string): string {
  return join(homePaths(home).imported, `${symbol}.csv`);
}

/** The metadata line of an imported file (`currency` is what the market data loader reads). */
export function importMeta(symbol: string, currency: string, source: string, rows: number, now?: () => Date): Record<string, string> {
  return { symbol, currency, source, imported_at: (now?.() ?? new Date()).toISOString(), rows: String(rows) };
}

/**
 * Writes every file, all or nothing: each is written in full to a temporary name beside its
 * destination first and flushed to the disk, and only when all of them were written are they
 * renamed into place (each rename is atomic; the folder is flushed after them, as the one atomic
 * writer does, src/util/atomic-write.ts). If a rename fails, the files already replaced are put
 * back as they were. A file replaces the symbol's previous import whole. Returns the destination paths; throws an
 * `ImportWriteError` after cleaning up.
 */
export function writeImportedBarFiles(home: string, files: readonly ImportedBarFile[]): string[] {
  const dir = homePaths(home).imported;
  const plan = files.map((f) => {
    const dest = importedBarPath(home, f.symbol);
    return { dest, tmp: `${dest}.tmp-${process.pid}`, text: formatBarFile(f.bars, f.meta), before: undefined as Buffer | undefined };
  });
  const removeTemps = () => {
    for (const p of plan) rmSync(p.tmp, { force: true });
  };
  let current = plan[0]?.dest ?? dir;
  try {
    mkdirSync(dir, { recursive: true });
    for (const p of plan) {
      current = p.dest;
      writeFileDurableSync(p.tmp, p.text);
    }
    // What each destination file held before, to put back if a later rename fails.
    for (const p of plan) {
      current = p.dest;
      if (lstatSync(p.dest, { throwIfNoEntry: false })?.isFile()) p.before = readFileSync(p.dest);
    }
  } catch (e) {
    removeTemps();
    throw new ImportWriteError(current, (e as Error).message);
  }
  let renamed = 0;
  try {
    for (const p of plan) {
      current = p.dest;
      renameSync(p.tmp, p.dest);
      renamed++;
    }
  } catch (e) {
    for (let i = 0; i < renamed; i++) {
      const p = plan[i]!;
      const old = p.before;
      try {
        if (old === undefined) rmSync(p.dest, { force: true });
        else {
          writeFileSync(p.tmp, old);
          renameSync(p.tmp, p.dest);
        }
      } catch {
        // Best effort: the error below names the file that failed.
      }
    }
    removeTemps();
    throw new ImportWriteError(current, (e as Error).message);
  }
  fsyncDirSync(dir);
  return plan.map((p) => p.dest);
}
