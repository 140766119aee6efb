/**
 * Builds the synthetic half of the bundled news corpus (`npm run data:news`):
 * `data/news/synthetic.jsonl`, news items about the synthetic instruments, each tied to one of the
 * instrument's biggest idiosyncratic daily moves in the bundled bars (the move of the instrument
 * net of beta × the index's move that day). Every item says it is synthetic in its title and
 * snippet, and lives on a `.example` domain (reserved, never a real outlet).
 *
 * Per move on day D (the close-to-close change from the day before D to D), three items:
 *   - the wire report, published on D (after the close: a run on D must not see it; D+1 may);
 *   - a syndicated copy of the same story on another outlet (same title), published on D;
 *   - a look-back analysis published 7 calendar days after D (published after the day it describes).
 * Deterministic: the moves come from the bars, the wording from fixed tables.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

interface Bar {
  date: string;
  close: number;
}

interface Instrument {
  symbol: string;
  name: string;
  sector: string;
  beta: number;
}

export interface NewsItem {
  id: string;
  title: string;
  url: string;
  snippet: string;
  published: string | null;
  synthetic?: boolean;
}

const MOVES_PER_INSTRUMENT = 2;
const WIRES = ["wire.synthnews.example", "www.marketdesk.example", "finance.dailyledger.example"];
const UP = ["a contract win", "raised full-year guidance", "a regulatory approval", "a takeover approach", "record quarterly orders"];
const DOWN = ["a profit warning", "the loss of a major customer", "an accounting review", "a product recall", "a guidance cut"];

function readBars(dir: string, symbol: string): Bar[] {
  const lines = readFileSync(join(dir, "market", "bars", `${symbol}.csv`), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  return lines.map((l) => {
    const f = l.split(",");
    return { date: String(f[0]), close: Number(f[4]) };
  });
}

function readUniverse(dir: string): Instrument[] {
  const manifest = JSON.parse(readFileSync(join(dir, "market", "MANIFEST.json"), "utf8")) as {
    symbols: { symbol: string; synthetic: boolean; beta?: number }[];
  };
  const beta = new Map(manifest.symbols.map((s) => [s.symbol, s.beta ?? 1]));
  const synthetic = new Set(manifest.symbols.filter((s) => s.synthetic).map((s) => s.symbol));
  const rows = readFileSync(join(dir, "universe", "sim.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  return rows
    .map((r) => r.split(","))
    .filter((f) => synthetic.has(String(f[0])))
    .map((f) => ({ symbol: String(f[0]), name: String(f[3]).replace(/\s*\(synthetic\)$/, ""), sector: String(f[4]), beta: beta.get(String(f[0])) ?? 1 }));
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The instrument's biggest idiosyncratic moves (at least 30 trading days apart), largest first. */
export function biggestMoves(bars: Bar[], index: Map<string, number>, beta: number, n: number): { date: string; pct: number; idio: number }[] {
  const moves: { date: string; pct: number; idio: number }[] = [];
  for (let i = 1; i < bars.length; i++) {
    const prev = bars[i - 1] as Bar;
    const cur = bars[i] as Bar;
    const r = cur.close / prev.close - 1;
    const ip = index.get(prev.date);
    const ic = index.get(cur.date);
    const m = ip && ic ? ic / ip - 1 : 0;
    moves.push({ date: cur.date, pct: r * 100, idio: (r - beta * m) * 100 });
  }
  moves.sort((a, b) => Math.abs(b.idio) - Math.abs(a.idio) || a.date.localeCompare(b.date));
  const picked: typeof moves = [];
  const pos = new Map(bars.map((b, i) => [b.date, i]));
  for (const mv of moves) {
    if (picked.length >= n) break;
    const i = pos.get(mv.date) ?? 0;
    if (picked.some((p) => Math.abs((pos.get(p.date) ?? 0) - i) < 30)) continue;
    picked.push(mv);
  }
  return picked;
}

export function buildSyntheticNews(dataDir: string): NewsItem[] {
  const spx = readBars(dataDir, "SPX");
  const index = new Map(spx.map((b) => [b.date, b.close]));
  const items: NewsItem[] = [];
  for (const inst of readUniverse(dataDir)) {
    const moves = biggestMoves(readBars(dataDir, inst.symbol), index, inst.beta, MOVES_PER_INSTRUMENT);
    moves.forEach((mv, k) => {
      const up = mv.pct > 0;
      const cause = (up ? UP : DOWN)[(inst.symbol.charCodeAt(0) + k) % 5] as string;
      const pct = Math.abs(mv.pct).toFixed(1);
      const title = `${inst.name} (${inst.symbol}) shares ${up ? "jump" : "slump"} ${pct}% after ${cause} [synthetic]`;
      const snippet = `SYNTHETIC ITEM about a synthetic instrument: ${inst.name} (${inst.symbol}), ${/^[aeiou]/i.test(inst.sector) ? "an" : "a"} ${inst.sector.toLowerCase()} name in the bundled simulation, ${up ? "rose" : "fell"} ${pct}% on ${mv.date} after ${cause}, against the index's move that day.`;
      const base = `${inst.symbol.toLowerCase()}-${mv.date}-${slug(cause)}`;
      const wire = WIRES[k % WIRES.length] as string;
      const copy = WIRES[(k + 1) % WIRES.length] as string;
      items.push({ id: `syn-${base}`, title, url: `https://${wire}/markets/${base}`, snippet, published: mv.date, synthetic: true });
      items.push({ id: `syn-${base}-copy`, title, url: `https://${copy}/syndicated/${base}`, snippet, published: mv.date, synthetic: true });
      const later = addDays(mv.date, 7);
      items.push({
        id: `syn-${base}-lookback`,
        title: `A week on: what ${cause} means for ${inst.name} (${inst.symbol}) [synthetic]`,
        url: `https://analysis.${wire.replace(/^www\./, "")}/${base}-a-week-on`,
        snippet: `SYNTHETIC ITEM, published a week after the move it describes: ${inst.name} (${inst.symbol}) is still digesting the ${pct}% ${up ? "gain" : "drop"} of ${mv.date}.`,
        published: later,
        synthetic: true,
      });
    });
  }
  return items;
}

export function writeSyntheticNews(dataDir: string): string {
  const text = `${buildSyntheticNews(dataDir)
    .map((i) => JSON.stringify(i))
    .join("\n")}\n`;
  writeFileSync(join(dataDir, "news", "synthetic.jsonl"), text);
  return text;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dataDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "data");
  writeSyntheticNews(dataDir);
  process.stdout.write("wrote data/news/synthetic.jsonl\n");
}
