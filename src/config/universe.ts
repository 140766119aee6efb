/**
 * Universe files: CSV with a header `symbol,currency,exchange,name,sector,tick,note`. Only symbol
 * and currency are required; other columns are optional and unknown columns are ignored. Symbols,
 * currencies and exchanges are upper-cased. Fail closed: a row without symbol or currency, a bad
 * currency code, a bad tick, or one symbol on two exchanges (or in two currencies) refuses to load.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Instrument } from "../core/domain.js";
import { isIsoCurrency } from "../core/money.js";
import { csvRows as readCsvRows } from "../util/csv-rows.js";
import { READ_LIMITS, readRequiredFile } from "../util/regular-file.js";
import type { ConfigIssue } from "./types.js";

const CURRENCY = /^[A-Z]{3}$/;

/** Where a universe file path resolves: absolute as is; relative against the home, then data/. */
export function resolveUniverseFile(file: string, home: string, dataDir: string): string | null {
  if (isAbsolute(file)) return existsSync(file) ? file : null;
  for (const base of [home, dataDir]) {
    const p = join(base, file);
    if (existsSync(p)) return p;
  }
  return null;
}

interface Seen {
  inst: Instrument;
  where: string;
}

/** Records one issue (file as configured, key path, rule broken). */
type Issue = (file: string, path: string, rule: string) => void;
/** A row's trimmed cell under a header column; undefined when the column or the value is missing. */
type Cell = (row: string[], name: string) => string | undefined;

/** The CSV rows of one file, or null (with an issue) when it is not valid CSV. */
function csvRows(label: string, text: string, issue: Issue): string[][] | null {
  try {
    return readCsvRows(text);
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    issue(label, line !== undefined ? `line ${line}` : "file", `CSV syntax error: ${(e as Error).message}`);
    return null;
  }
}

/** The cell reader of a file's header row, or null (with an issue) when symbol or currency is missing. */
function cellReader(label: string, headerRow: string[] | undefined, issue: Issue): Cell | null {
  const header = (headerRow ?? []).map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  const missing = ["symbol", "currency"].filter((c) => col(c) < 0);
  if (missing.length > 0) {
    issue(label, "header", `missing column(s) ${missing.join(", ")} (header must include symbol,currency)`);
    return null;
  }
  return (row, name) => {
    const i = col(name);
    const v = i >= 0 ? row[i]?.trim() : undefined;
    return v === undefined || v === "" ? undefined : v;
  };
}

/** The row's symbol, upper-cased; undefined (with an issue) when missing or malformed. */
function rowSymbol(label: string, where: string, rawSymbol: string | undefined, issue: Issue): string | undefined {
  // Upper case within ASCII only: Unicode case mapping would fold "ſpx" into "SPX".
  const symbol = rawSymbol?.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
  if (symbol === undefined) {
    issue(label, `${where}.symbol`, "missing (every row needs a symbol)");
  } else if (/\s/.test(symbol)) {
    issue(label, `${where}.symbol`, `must not contain spaces, got ${JSON.stringify(symbol)}`);
  } else if (/[^\x21-\x7e]/.test(symbol)) {
    issue(label, `${where}.symbol`, `must be printable ASCII, got ${JSON.stringify(rawSymbol)}`);
  } else {
    return symbol;
  }
  return undefined;
}

/** The row's currency, upper-cased; undefined (with an issue) when missing or not an ISO 4217 code in use. */
function rowCurrency(label: string, where: string, raw: string | undefined, issue: Issue): string | undefined {
  const currency = raw?.toUpperCase();
  if (currency === undefined) {
    issue(label, `${where}.currency`, "missing (every row needs a currency)");
  } else if (!CURRENCY.test(currency)) {
    issue(label, `${where}.currency`, `must be a 3-letter ISO 4217 currency code, got ${JSON.stringify(currency)}`);
  } else if (!isIsoCurrency(currency)) {
    issue(label, `${where}.currency`, `must be an ISO 4217 currency code in use (e.g. USD, EUR, JPY), got ${JSON.stringify(currency)}`);
  } else {
    return currency;
  }
  return undefined;
}

/** The row's tick: undefined when the column is empty, null (with an issue) when it is not a number > 0. */
function rowTick(label: string, where: string, tickText: string | undefined, issue: Issue): number | undefined | null {
  if (tickText === undefined) return undefined;
  const tick = Number(tickText);
  if (Number.isFinite(tick) && tick > 0) return tick;
  issue(label, `${where}.tick`, `must be a number > 0, got ${JSON.stringify(tickText)}`);
  return null;
}

/** One row's instrument, or null when any of its cells is refused (every refusal is an issue). */
function rowInstrument(label: string, where: string, row: string[], cell: Cell, issue: Issue): Instrument | null {
  const symbol = rowSymbol(label, where, cell(row, "symbol"), issue);
  const currency = rowCurrency(label, where, cell(row, "currency"), issue);
  const tick = rowTick(label, where, cell(row, "tick"), issue);
  if (symbol === undefined || currency === undefined || tick === null) return null;
  const inst: Instrument = { symbol, currency };
  const exchange = cell(row, "exchange")?.toUpperCase();
  if (exchange !== undefined) inst.exchange = exchange;
  const name = cell(row, "name");
  if (name !== undefined) inst.name = name;
  const sector = cell(row, "sector");
  if (sector !== undefined) inst.sector = sector;
  if (tick !== undefined) inst.tick = tick;
  const note = cell(row, "note");
  if (note !== undefined) inst.note = note;
  return inst;
}

/**
 * Whether `inst` is new (then recorded in `bySymbol`). A symbol seen before is dropped: silently
 * when identical, with an issue when it names another exchange or currency.
 */
function firstOccurrence(bySymbol: Map<string, Seen>, inst: Instrument, label: string, where: string, issue: Issue): boolean {
  const prev = bySymbol.get(inst.symbol);
  if (prev === undefined) {
    bySymbol.set(inst.symbol, { inst, where: `${label} ${where}` });
    return true;
  }
  if ((prev.inst.exchange ?? "") !== (inst.exchange ?? "")) {
    issue(
      label,
      `${where}.exchange`,
      `symbol ${inst.symbol} is on two exchanges: ${prev.inst.exchange ?? "(none)"} (${prev.where}) and ${inst.exchange ?? "(none)"}`,
    );
  } else if (prev.inst.currency !== inst.currency) {
    issue(label, `${where}.currency`, `symbol ${inst.symbol} has two currencies: ${prev.inst.currency} (${prev.where}) and ${inst.currency}`);
  }
  return false;
}

/**
 * Parse the universe CSV texts (label = the file as configured, text = its contents). Returns the
 * instruments (first occurrence wins for identical duplicates) and every issue found.
 */
function parseUniverse(files: Array<{ label: string; text: string }>): {
  universe: Instrument[];
  issues: ConfigIssue[];
} {
  const issues: ConfigIssue[] = [];
  const bySymbol = new Map<string, Seen>();
  const universe: Instrument[] = [];
  const issue: Issue = (file, path, rule) => {
    issues.push({ file, path, rule, message: `${file}: ${path}: ${rule}` });
  };
  for (const { label, text } of files) {
    const rows = csvRows(label, text, issue);
    if (rows === null) continue;
    const cell = cellReader(label, rows[0], issue);
    if (cell === null) continue;
    for (let r = 1; r < rows.length; r++) {
      const row = rows[r] ?? [];
      if (row.every((c) => c.trim() === "")) continue;
      const where = `row ${r + 1}`;
      const inst = rowInstrument(label, where, row, cell, issue);
      if (inst !== null && firstOccurrence(bySymbol, inst, label, where, issue)) universe.push(inst);
    }
  }
  return { universe, issues };
}

/** Read and parse the configured universe files; `configFile` labels issues about the list itself. */
export function loadUniverse(files: string[], home: string, dataDir: string, configFile: string): { universe: Instrument[]; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const texts: Array<{ label: string; text: string }> = [];
  files.forEach((f, i) => {
    const path = `universe.files[${i}]`;
    const resolved = resolveUniverseFile(f, home, dataDir);
    if (resolved === null) {
      const rule = isAbsolute(f) ? `file not found: ${f}` : `file not found: ${f} (looked in ${home} and ${dataDir})`;
      issues.push({ file: configFile, path, rule, message: `${configFile}: ${path}: ${rule}` });
      return;
    }
    // A FIFO or a device is refused at once (never waited on), a huge file by its size.
    const read = readRequiredFile(resolved, READ_LIMITS.universe);
    if (read.ok) texts.push({ label: f, text: read.text });
    else issues.push({ file: configFile, path, rule: read.reason, message: `${configFile}: ${path}: ${read.reason}` });
  });
  const parsed = parseUniverse(texts);
  return { universe: parsed.universe, issues: [...issues, ...parsed.issues] };
}
