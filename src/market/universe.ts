/**
 * Reads a universe CSV (`symbol,currency,exchange,name,sector,tick,note`). The config loader owns
 * validation of configured universes; this reader serves the bundled file, the sim commands and tests.
 */
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { Instrument } from "../core/domain.js";
import { bundledDataDir } from "../util/paths.js";
import { READ_LIMITS, readRequiredFile } from "../util/regular-file.js";

function bundledUniversePath(): string {
  return join(bundledDataDir(), "universe", "sim.csv");
}

function parseUniverseCsv(text: string): Instrument[] {
  const rows = parse(text, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, trim: true }) as Record<string, string>[];
  return rows.map((r) => {
    const tick = r.tick ? Number(r.tick) : undefined;
    return {
      symbol: (r.symbol ?? "").toUpperCase(),
      currency: (r.currency ?? "").toUpperCase(),
      ...(r.exchange ? { exchange: r.exchange } : {}),
      ...(r.name ? { name: r.name } : {}),
      ...(r.sector ? { sector: r.sector } : {}),
      ...(tick !== undefined && Number.isFinite(tick) ? { tick } : {}),
      ...(r.note ? { note: r.note } : {}),
    };
  });
}

export function loadUniverseCsv(path: string = bundledUniversePath()): Instrument[] {
  const read = readRequiredFile(path, READ_LIMITS.universe);
  if (!read.ok) throw new Error(read.reason);
  return parseUniverseCsv(read.text);
}
