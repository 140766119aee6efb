/**
 * Builds the bundled market data (`npm run data:build`) from the S&P 500 index's real daily prices
 * (data/sources/sp500-2000.csv, vega-datasets, BSD-3-Clause):
 *
 * - `data/market/bars/SPX.csv`: the index itself (real OHLCV, rounded to cents);
 * - `data/market/bars/<SYM>.csv`: 19 synthetic instruments whose daily returns are
 *   beta × the index's return + a sector factor + idiosyncratic noise (seeded, deterministic),
 *   so the index's real history (dot-com, 2008, 2020) drives them;
 * - `data/universe/sim.csv`: the universe (every synthetic row says so in its name and note);
 * - `data/market/MANIFEST.json`: what was built from what;
 * - `data/market/bars.bin`: the bars of every CSV in a prepared form the CLI loads without parsing
 *   (src/market/prepared-bars.ts).
 *
 * Deterministic: a hand-written PRNG (mulberry32) with fixed seeds and fixed number formatting.
 * tests/market/build-data.test.ts rebuilds into a temp folder and compares byte for byte.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseBarBytes } from "../src/market/bars.js";
import { encodePreparedBars } from "../src/market/prepared-bars.js";
import { mulberry32 } from "../src/util/prng.js";

export const GENERATOR_VERSION = 1;
export const MASTER_SEED = 20000103;

export { mulberry32 };

/** Standard normal draws (Box–Muller, one value per call, the pair's second half cached). */
function gaussian(rand: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    let u = 0;
    while (u <= 1e-12) u = rand();
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

function hashSeed(text: string): number {
  let h = MASTER_SEED >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

interface SyntheticSpec {
  symbol: string;
  name: string;
  sector: string;
  beta: number;
  /** Annualised idiosyncratic volatility. */
  idioVol: number;
  /** Annualised drift on top of beta × index (log terms). */
  alpha: number;
  startPrice: number;
  /** Average daily volume in shares at the series' average index volume. */
  baseVolume: number;
}

/** Sector factor volatility (annualised). */
const SECTOR_VOL: Record<string, number> = {
  Technology: 0.14,
  Financials: 0.12,
  "Health Care": 0.08,
  Energy: 0.16,
  "Consumer Staples": 0.06,
  "Consumer Discretionary": 0.09,
  Industrials: 0.07,
  Utilities: 0.08,
  Materials: 0.11,
};

export const SYNTHETIC: readonly SyntheticSpec[] = [
  { symbol: "ALFA", name: "Alfa Systems", sector: "Technology", beta: 1.45, idioVol: 0.3, alpha: 0.06, startPrice: 64, baseVolume: 9_000_000 },
  { symbol: "BRVO", name: "Bravo Semiconductor", sector: "Technology", beta: 1.6, idioVol: 0.38, alpha: 0.07, startPrice: 38, baseVolume: 12_000_000 },
  { symbol: "CHRL", name: "Charlie Software", sector: "Technology", beta: 1.25, idioVol: 0.26, alpha: 0.05, startPrice: 52, baseVolume: 7_000_000 },
  { symbol: "DLTA", name: "Delta Networks", sector: "Technology", beta: 1.35, idioVol: 0.34, alpha: 0.02, startPrice: 27, baseVolume: 10_000_000 },
  { symbol: "ECHO", name: "Echo Bancorp", sector: "Financials", beta: 1.3, idioVol: 0.24, alpha: 0.0, startPrice: 41, baseVolume: 8_000_000 },
  { symbol: "FXTR", name: "Foxtrot Capital", sector: "Financials", beta: 1.5, idioVol: 0.3, alpha: 0.0, startPrice: 33, baseVolume: 6_000_000 },
  { symbol: "GOLF", name: "Golf Insurance", sector: "Financials", beta: 1.05, idioVol: 0.2, alpha: 0.02, startPrice: 58, baseVolume: 3_000_000 },
  { symbol: "HTLX", name: "Hotel Health", sector: "Health Care", beta: 0.8, idioVol: 0.22, alpha: 0.04, startPrice: 46, baseVolume: 4_000_000 },
  { symbol: "INDG", name: "India Diagnostics", sector: "Health Care", beta: 0.9, idioVol: 0.32, alpha: 0.03, startPrice: 22, baseVolume: 5_000_000 },
  { symbol: "JULT", name: "Juliett Energy", sector: "Energy", beta: 1.0, idioVol: 0.26, alpha: 0.02, startPrice: 35, baseVolume: 6_000_000 },
  { symbol: "KILO", name: "Kilo Drilling", sector: "Energy", beta: 1.2, idioVol: 0.36, alpha: -0.01, startPrice: 18, baseVolume: 9_000_000 },
  { symbol: "LIMA", name: "Lima Foods", sector: "Consumer Staples", beta: 0.6, idioVol: 0.16, alpha: 0.04, startPrice: 44, baseVolume: 3_000_000 },
  { symbol: "MIKE", name: "Mike Household", sector: "Consumer Staples", beta: 0.55, idioVol: 0.15, alpha: 0.03, startPrice: 61, baseVolume: 2_500_000 },
  { symbol: "NOVR", name: "November Retail", sector: "Consumer Discretionary", beta: 1.15, idioVol: 0.28, alpha: 0.04, startPrice: 29, baseVolume: 7_000_000 },
  { symbol: "OSCR", name: "Oscar Motors", sector: "Consumer Discretionary", beta: 1.3, idioVol: 0.33, alpha: 0.0, startPrice: 24, baseVolume: 8_000_000 },
  { symbol: "PAPA", name: "Papa Industrial", sector: "Industrials", beta: 1.1, idioVol: 0.2, alpha: 0.03, startPrice: 55, baseVolume: 4_000_000 },
  { symbol: "QBEC", name: "Quebec Aerospace", sector: "Industrials", beta: 1.2, idioVol: 0.25, alpha: 0.03, startPrice: 71, baseVolume: 3_500_000 },
  { symbol: "ROMO", name: "Romeo Utilities", sector: "Utilities", beta: 0.45, idioVol: 0.14, alpha: 0.03, startPrice: 32, baseVolume: 3_000_000 },
  { symbol: "SIRA", name: "Sierra Materials", sector: "Materials", beta: 1.1, idioVol: 0.27, alpha: 0.02, startPrice: 37, baseVolume: 5_000_000 },
];

export const INDEX_SYMBOL = "SPX";
const SYNTHETIC_NOTE = "synthetic: derived from the S&P 500 index";

interface SourceRow {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export function parseSource(text: string): SourceRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0);
  const header = lines
    .shift()
    ?.split(",")
    .map((h) => h.trim().toLowerCase());
  if (!header) throw new Error("empty source file");
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`source column ${name} missing`);
    return i;
  };
  const [d, o, h, l, c, v] = [col("date"), col("open"), col("high"), col("low"), col("close"), col("volume")];
  return lines.map((line, n) => {
    const f = line.split(",");
    const row = {
      date: f[d] ?? "",
      open: Number(f[o]),
      high: Number(f[h]),
      low: Number(f[l]),
      close: Number(f[c]),
      volume: Number(f[v]),
    };
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.date) || ![row.open, row.high, row.low, row.close, row.volume].every(Number.isFinite)) {
      throw new Error(`source line ${n + 2} is not a valid bar: ${line}`);
    }
    return row;
  });
}

const cents = (x: number) => (Math.round(x * 100) / 100).toFixed(2);

interface OutBar {
  date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
}

function barsCsv(bars: OutBar[]): string {
  let out = "Date,Open,High,Low,Close,Volume\n";
  for (const b of bars) out += `${b.date},${b.open},${b.high},${b.low},${b.close},${b.volume}\n`;
  return out;
}

/** Round, then restore high ≥ max(open, close) and low ≤ min(open, close) in cents. */
function toOutBar(date: string, open: number, high: number, low: number, close: number, volume: number): OutBar {
  const o = Number(cents(open));
  const c = Number(cents(close));
  const h = Math.max(Number(cents(high)), o, c);
  const l = Math.max(0.01, Math.min(Number(cents(low)), o, c));
  return { date, open: o.toFixed(2), high: h.toFixed(2), low: l.toFixed(2), close: c.toFixed(2), volume: Math.max(0, Math.round(volume)) };
}

function indexBars(rows: SourceRow[]): OutBar[] {
  return rows.map((r) => toOutBar(r.date, r.open, r.high, r.low, r.close, r.volume));
}

function syntheticBars(rows: SourceRow[], spec: SyntheticSpec, sectorShocks: Map<string, number[]>): OutBar[] {
  const rand = mulberry32(hashSeed(spec.symbol));
  const z = gaussian(rand);
  const dailyIdio = spec.idioVol / Math.sqrt(252);
  const secVol = (SECTOR_VOL[spec.sector] ?? 0.1) / Math.sqrt(252);
  const shocks = sectorShocks.get(spec.sector) ?? [];
  const dailyAlpha = spec.alpha / 252;
  const meanVolume = rows.reduce((s, r) => s + r.volume, 0) / rows.length;
  const out: OutBar[] = [];
  let prevClose = spec.startPrice;
  let prevIndexClose = rows[0]?.open ?? 1;
  for (let t = 0; t < rows.length; t++) {
    const r = rows[t]!;
    const gapM = Math.log(r.open / prevIndexClose);
    const dayM = Math.log(r.close / prevIndexClose);
    const rangeM = Math.log(r.high / r.low);
    const sector = (shocks[t] ?? 0) * secVol;
    const idio = z() * dailyIdio;
    const lr = dailyAlpha + spec.beta * dayM + sector + idio - 0.5 * (secVol * secVol + dailyIdio * dailyIdio);
    const gap = spec.beta * gapM + z() * dailyIdio * 0.3;
    const open = prevClose * Math.exp(gap);
    const close = prevClose * Math.exp(lr);
    const body = Math.abs(Math.log(close / open));
    const range = Math.max(body, Math.abs(spec.beta) * rangeM * (0.8 + 0.5 * rand()) + dailyIdio * Math.abs(z()) * 0.6);
    const extra = range - body;
    const up = 0.2 + 0.6 * rand();
    const high = Math.max(open, close) * Math.exp(extra * up);
    const low = Math.min(open, close) * Math.exp(-extra * (1 - up));
    const surprise = Math.abs(lr - spec.beta * dayM);
    const volume = spec.baseVolume * (r.volume / meanVolume) * Math.exp(0.25 * z() - 0.03) * (1 + 12 * surprise);
    out.push(toOutBar(r.date, open, high, low, close, Math.round(volume / 100) * 100));
    prevClose = close;
    prevIndexClose = r.close;
  }
  return out;
}

export interface BuildResult {
  files: Record<string, string | Buffer>;
}

/** The prepared form of every `market/bars/*.csv` among `files`, in file-name order. */
export function preparedBars(files: Record<string, string | Buffer>): Buffer {
  const csvs = Object.keys(files)
    .filter((rel) => /^market\/bars\/[^/]+\.csv$/.test(rel))
    .sort();
  return encodePreparedBars(
    csvs.map((rel) => {
      const bytes = Buffer.from(files[rel] ?? "");
      const { bars, meta } = parseBarBytes(bytes, rel);
      return { symbol: rel.slice("market/bars/".length, -4), csvBytes: bytes.length, bars, ...(meta.currency ? { currency: meta.currency } : {}) };
    }),
  );
}

/** Generates every output file's content in memory: relative path (under data/) → text. */
export function generate(sourceText: string): BuildResult {
  const rows = parseSource(sourceText);
  const files: Record<string, string | Buffer> = {};
  files[`market/bars/${INDEX_SYMBOL}.csv`] = barsCsv(indexBars(rows));

  const sectors = [...new Set(SYNTHETIC.map((s) => s.sector))].sort();
  const sectorShocks = new Map<string, number[]>();
  for (const sector of sectors) {
    const z = gaussian(mulberry32(hashSeed(`sector:${sector}`)));
    sectorShocks.set(
      sector,
      rows.map(() => z()),
    );
  }
  for (const spec of SYNTHETIC) files[`market/bars/${spec.symbol}.csv`] = barsCsv(syntheticBars(rows, spec, sectorShocks));

  let universe = "symbol,currency,exchange,name,sector,tick,note\n";
  universe += `${INDEX_SYMBOL},USD,SIM,S&P 500 index (real daily prices; traded here as if it were a share),Index,0.01,real: S&P 500 index daily OHLCV (vega-datasets; Yahoo Finance)\n`;
  for (const s of SYNTHETIC)
    universe += `${s.symbol},USD,SIM,${s.name} (synthetic),${s.sector},0.01,${SYNTHETIC_NOTE} (beta ${s.beta.toFixed(2)}; idiosyncratic vol ${Math.round(s.idioVol * 100)}%)\n`;
  files["universe/sim.csv"] = universe;

  const manifest = {
    generator: "scripts/build-data.ts",
    generator_version: GENERATOR_VERSION,
    seed: MASTER_SEED,
    source: {
      file: "data/sources/sp500-2000.csv",
      package: "vega-datasets@3.2.1",
      license: "BSD-3-Clause",
      sha256: createHash("sha256").update(sourceText).digest("hex"),
    },
    first_date: rows[0]?.date ?? null,
    last_date: rows[rows.length - 1]?.date ?? null,
    bars_per_symbol: rows.length,
    symbols: [
      { symbol: INDEX_SYMBOL, synthetic: false },
      ...SYNTHETIC.map((s) => ({ symbol: s.symbol, synthetic: true, sector: s.sector, beta: s.beta, idio_vol: s.idioVol, alpha: s.alpha })),
    ],
  };
  files["market/MANIFEST.json"] = `${JSON.stringify(manifest, null, 2)}\n`;
  files["market/bars.bin"] = preparedBars(files);
  return { files };
}

/** Reads the source and writes every generated file under `dataDir` (default: the repo's data/). */
export function buildData(opts: { sourcePath?: string; dataDir?: string } = {}): string[] {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const dataDir = opts.dataDir ?? join(root, "data");
  const sourcePath = opts.sourcePath ?? join(root, "data", "sources", "sp500-2000.csv");
  const { files } = generate(readFileSync(sourcePath, "utf8"));
  const written: string[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dataDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written.push(rel);
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const written = buildData();
  process.stdout.write(`wrote ${written.length} files under data/\n`);
}
