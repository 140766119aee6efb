/**
 * `tradewarden data import --csv FILE --symbol SYM [--currency C]`: adds a user's own daily bars
 * to `<home>/market/<SYM>.csv`. Every bad row is reported by line; nothing is half-imported (the
 * file is written to a temporary name and renamed into place only when every row is valid).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { formatBarFile } from "../market/bars.js";
import { parseImportCsv, SYMBOL_PATTERN } from "../market/import.js";
import { EXIT } from "../run/exit-codes.js";
import { homePaths } from "../util/paths.js";
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
  const symbol = (opts.symbol ?? "").trim().toUpperCase();
  const currency = (opts.currency ?? "USD").trim().toUpperCase();
  if (!SYMBOL_PATTERN.test(symbol)) {
    io.stderr(`error: symbol "${opts.symbol}" is not valid (letters, digits, '.' or '-', at most 15 characters)\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  if (!/^[A-Z]{3}$/.test(currency)) {
    io.stderr(`error: currency "${opts.currency}" is not an ISO 4217 code (e.g. USD)\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  let text: string;
  try {
    text = readFileSync(opts.csv, "utf8");
  } catch (e) {
    io.stderr(`error: cannot read ${opts.csv}: ${(e as Error).message}\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const parsed = parseImportCsv(text);
  if (!parsed.ok) {
    const n = parsed.problems.length;
    io.stderr(`error: ${opts.csv}: ${n} problem${n === 1 ? "" : "s"}; nothing was imported\n`);
    for (const p of parsed.problems.slice(0, MAX_PROBLEMS_SHOWN)) io.stderr(`  ${p.line > 0 ? `line ${p.line}` : "file"}: ${p.message}\n`);
    if (n > MAX_PROBLEMS_SHOWN) io.stderr(`  … and ${n - MAX_PROBLEMS_SHOWN} more\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const bars = parsed.bars;
  const dir = homePaths(opts.home).imported;
  const dest = join(dir, `${symbol}.csv`);
  const tmp = `${dest}.tmp-${process.pid}`;
  const first = bars[0]!.date;
  const last = bars[bars.length - 1]!.date;
  try {
    mkdirSync(dir, { recursive: true });
    const meta = {
      symbol,
      currency,
      source: basename(opts.csv),
      imported_at: (opts.now?.() ?? new Date()).toISOString(),
      rows: String(bars.length),
    };
    writeFileSync(tmp, formatBarFile(bars, meta));
    renameSync(tmp, dest);
  } catch (e) {
    rmSync(tmp, { force: true });
    io.stderr(`error: could not write ${dest}: ${(e as Error).message}\n`);
    return EXIT.INTERNAL_ERROR;
  }
  io.stdout(`imported ${bars.length} bars of ${symbol} (${currency}) from ${first} to ${last} into ${dest}\n`);
  io.stdout(`to trade it, add a row for ${symbol} to a universe file listed in your config\n`);
  return EXIT.OK;
}
