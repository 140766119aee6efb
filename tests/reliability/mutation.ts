/**
 * The mutation harness: the shipped examples and the files a real run writes, mutated one change at
 * a time, then opened by the real loaders. Every mutation must either be harmless (the file still
 * loads) or be refused with a message naming the file and the place — and a refused open writes
 * nothing anywhere in the home.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SimBroker } from "../../src/broker/sim.js";
import { readSimState } from "../../src/broker/sim-store.js";
import { loadConfig } from "../../src/config/load.js";
import { openJournal } from "../../src/journal/journal.js";
import { MarketData } from "../../src/market/data.js";
import { bundledDataDir } from "../../src/util/paths.js";
import { mulberry32 } from "../../src/util/prng.js";

export type Target = "config" | "universe" | "journal-head" | "journal-log" | "sim-broker" | "market";
export const TARGETS: Target[] = ["config", "universe", "journal-head", "journal-log", "sim-broker", "market"];

export interface MutationResult {
  target: Target;
  mutation: string;
  outcome: "loaded" | "refused";
  message?: string;
}

const DATA = bundledDataDir();

// ---- mutations -----------------------------------------------------------------------------------

const HOSTILE_JSON: [string, unknown][] = [
  ["a string", "lots"],
  ["null", null],
  ["1e308", 1e308],
  ["-1", -1],
  ["an array", []],
  ["an object", {}],
  ["true", true],
  ["a deep array", JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`)],
];
const HOSTILE_TOML = ['"lots"', "nan", "inf", "-inf", "1e300", "-1", "[]", "{}", "true", '"\u001b[31m"'];

/** Every path to a value in a JSON document (arrays by index, capped per array). */
function jsonPaths(v: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v !== null && typeof v === "object") {
    const entries = Array.isArray(v) ? v.slice(0, 3).map((x, i) => [i, x] as const) : Object.entries(v);
    for (const [k, x] of entries) {
      out.push([...path, k]);
      jsonPaths(x, [...path, k], out);
    }
  }
  return out;
}

function mutateJson(doc: unknown, rnd: () => number): { doc: unknown; what: string } {
  const copy = structuredClone(doc);
  const paths = jsonPaths(copy);
  const path = paths[Math.floor(rnd() * paths.length)] as (string | number)[];
  let parent = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const key = path.at(-1) as string | number;
  const choice = Math.floor(rnd() * (HOSTILE_JSON.length + 1));
  if (choice === HOSTILE_JSON.length) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return { doc: copy, what: `deleted ${path.join(".")}` };
  }
  const [name, value] = HOSTILE_JSON[choice] as [string, unknown];
  parent[key] = structuredClone(value);
  return { doc: copy, what: `${path.join(".")} set to ${name}` };
}

function mutateLines(text: string, rnd: () => number, firstLine = 0): { text: string; what: string } {
  const lines = text.split("\n");
  const last = lines.at(-1) === "" ? lines.length - 1 : lines.length;
  const i = firstLine + Math.floor(rnd() * Math.max(1, last - firstLine));
  const line = lines[i] ?? "";
  const kinds = ["delete", "duplicate", "truncate", "garbage", "swap", "empty file", "hostile value"] as const;
  const kind = kinds[Math.floor(rnd() * kinds.length)] as (typeof kinds)[number];
  switch (kind) {
    case "delete":
      lines.splice(i, 1);
      break;
    case "duplicate":
      lines.splice(i, 0, line);
      break;
    case "truncate":
      lines[i] = line.slice(0, Math.floor(line.length / 2));
      break;
    case "garbage":
      lines[i] = "\u0000{{ not data \u001b[2J";
      break;
    case "swap":
      if (i + 1 < last) [lines[i], lines[i + 1]] = [lines[i + 1] as string, line];
      break;
    case "empty file":
      return { text: "", what: "emptied" };
    case "hostile value": {
      const v = HOSTILE_TOML[Math.floor(rnd() * HOSTILE_TOML.length)] as string;
      // `key = value` (TOML) → replace the value; CSV → replace one cell
      if (/^\s*[a-z_]+\s*=/.test(line)) lines[i] = line.replace(/=.*/, `= ${v}`);
      else {
        const cells = line.split(",");
        cells[Math.floor(rnd() * cells.length)] = v.replace(/"/g, "");
        lines[i] = cells.join(",");
      }
      return { text: lines.join("\n"), what: `line ${i + 1} value set to ${v}` };
    }
  }
  return { text: lines.join("\n"), what: `line ${i + 1}: ${kind}` };
}

// ---- the files a real run writes -------------------------------------------------------------------

let market: MarketData | undefined;
let journalTemplate: string | undefined;
let simTemplate: string | undefined;

/** A home with an initialised journal holding a run with an order and a fill. */
async function journalHome(): Promise<string> {
  if (!journalTemplate) {
    journalTemplate = mkdtempSync(join(tmpdir(), "tw-mut-journal-"));
    const j = await openJournal(journalTemplate, { timezone: "UTC", fsync: false });
    await j.init({ capital: 10_000, currency: "USD", at: "2024-01-02T00:00:00Z" });
    await j.startRun({ run_id: "r1", mode: "paper", trading_day: "2024-01-02", at: "2024-01-02T14:00:00Z", model: { provider: "scripted", id: "x" }, broker: { kind: "sim" } });
    await j.observeFirstValuation("r1", 10_000, "2024-01-02T14:00:01Z");
    await j.recordOrderIntent({ run_id: "r1", client_order_id: "c1", index: 0, symbol: "AAA", side: "BUY", quantity: 10, limit_price: 100, at: "2024-01-02T14:30:00Z" });
    await j.recordOrderUpdate("c1", { status: "accepted", broker_order_id: "b1", at: "2024-01-02T14:30:00Z" });
    await j.bookFill("c1", { fill_id: "f1", symbol: "AAA", side: "BUY", quantity: 10, price: 100, commission: 1, fx_to_base: 1, at: "2024-01-02T14:31:00Z" });
    await j.recordOrderUpdate("c1", { status: "filled", filled_quantity: 10, at: "2024-01-02T14:31:00Z" });
    await j.finishRun("r1", { status: "completed", outcome: "executed", exit_code: 0, message: "done", at: "2024-01-02T15:00:00Z", could_trade: true });
  }
  const home = mkdtempSync(join(tmpdir(), "tw-mut-"));
  cpSync(journalTemplate, home, { recursive: true });
  return home;
}

async function simText(): Promise<string> {
  if (!simTemplate) {
    market ??= MarketData.load();
    const dir = mkdtempSync(join(tmpdir(), "tw-mut-sim-"));
    const path = join(dir, "sim-broker.json");
    const sim = SimBroker.open({ market, path, start: "2010-01-04", cash: 100_000 });
    sim.beginDay();
    await sim.placeLimitDayOrder({ client_order_id: "c1", symbol: "ALFA", side: "BUY", quantity: 10, limit_price: 1000 });
    sim.endDay();
    sim.beginDay();
    sim.endDay();
    simTemplate = readFileSync(path, "utf8");
    rmSync(dir, { recursive: true, force: true });
  }
  return simTemplate;
}

function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(`${p}\n${readFileSync(p, "utf8")}`);
    }
  };
  walk(dir);
  return out.join("\n\u0000");
}

// ---- one case --------------------------------------------------------------------------------------

async function attempt(target: Target, rnd: () => number): Promise<{ home: string; file: string; what: string; open: () => Promise<void> | void }> {
  const home = target === "journal-head" || target === "journal-log" ? await journalHome() : mkdtempSync(join(tmpdir(), "tw-mut-"));
  switch (target) {
    case "config": {
      const file = join(home, "tradewarden.toml");
      const m = mutateLines(readFileSync(join(DATA, "tradewarden.example.toml"), "utf8"), rnd);
      writeFileSync(file, m.text);
      return { home, file: "tradewarden.toml", what: m.what, open: () => configOrThrow(home) };
    }
    case "universe": {
      const names = readdirSync(join(DATA, "universe")).filter((n) => n.endsWith(".csv"));
      const name = names[Math.floor(rnd() * names.length)] as string;
      const m = mutateLines(readFileSync(join(DATA, "universe", name), "utf8"), rnd);
      writeFileSync(join(home, name), m.text);
      writeFileSync(join(home, "tradewarden.toml"), `[universe]\nfiles = ["${name}"]\n`);
      return { home, file: name, what: m.what, open: () => configOrThrow(home) };
    }
    case "journal-head": {
      const path = join(home, "journal.json");
      const m = mutateJson(JSON.parse(readFileSync(path, "utf8")), rnd);
      writeFileSync(path, JSON.stringify(m.doc));
      return { home, file: "journal.json", what: m.what, open: () => openJournal(home, { timezone: "UTC", fsync: false }).then(() => {}) };
    }
    case "journal-log": {
      const path = join(home, "journal.log.jsonl");
      const lines = readFileSync(path, "utf8").trimEnd().split("\n");
      const i = Math.floor(rnd() * lines.length);
      const m = mutateJson(JSON.parse(lines[i] as string), rnd);
      lines[i] = JSON.stringify(m.doc);
      const text = `${lines.join("\n")}\n`;
      writeFileSync(path, text);
      // keep the head's commit mark on the new length, so the mutation is read, not cut off
      const head = JSON.parse(readFileSync(join(home, "journal.json"), "utf8")) as { log: { committed_bytes: number } };
      head.log.committed_bytes = Buffer.byteLength(text);
      writeFileSync(join(home, "journal.json"), JSON.stringify(head));
      return { home, file: "journal.log.jsonl", what: `line ${i + 1}: ${m.what}`, open: () => openJournal(home, { timezone: "UTC", fsync: false }).then(() => {}) };
    }
    case "sim-broker": {
      const path = join(home, "sim-broker.json");
      const m = mutateJson(JSON.parse(await simText()), rnd);
      writeFileSync(path, JSON.stringify(m.doc));
      return { home, file: "sim-broker.json", what: m.what, open: () => void readSimState(path) };
    }
    case "market": {
      const names = readdirSync(join(DATA, "market", "bars")).filter((n) => n.endsWith(".csv"));
      const name = names[Math.floor(rnd() * names.length)] as string;
      const head = readFileSync(join(DATA, "market", "bars", name), "utf8").split("\n").slice(0, 40).join("\n");
      const m = mutateLines(`${head}\n`, rnd, 1);
      mkdirSync(join(home, "market"));
      writeFileSync(join(home, "market", name), m.text);
      return { home, file: name, what: m.what, open: () => void MarketData.load({ home }) };
    }
  }
}

function configOrThrow(home: string): void {
  const r = loadConfig(home);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
}

/** A refusal names the file and a place in it (a key path, a row, a line, or the part of the book). */
const PLACE = /line \d+|row \d+|\.[a-z_]+|[a-z_]+(\[\d+\])?: |\(file\)|\(root\)|checkpoint|commit mark|head document|schema_version|is empty|header|JSON|not a tradewarden|committed/;

export async function runMutations(perTarget: number, seed = 13): Promise<MutationResult[]> {
  const results: MutationResult[] = [];
  const rnd = mulberry32(seed); // seeded: the same seed, the same mutations
  for (const target of TARGETS) {
    for (let n = 0; n < perTarget; n++) {
      const c = await attempt(target, rnd);
      const before = snapshot(c.home);
      let message: string | undefined;
      try {
        await c.open();
      } catch (e) {
        message = (e as Error).message;
      }
      const after = snapshot(c.home);
      rmSync(c.home, { recursive: true, force: true });
      const label = `${target} (${c.what})`;
      if (after !== before) throw new Error(`${label}: the open wrote to the home`);
      if (message !== undefined) {
        if (!message.includes(c.file)) throw new Error(`${label}: the refusal does not name ${c.file}: ${message}`);
        if (!PLACE.test(message)) throw new Error(`${label}: the refusal names no place: ${message}`);
        if (/internal error|Cannot read properties|is not a function|undefined/.test(message)) throw new Error(`${label}: not a clear refusal: ${message}`);
      }
      results.push({ target, mutation: c.what, outcome: message === undefined ? "loaded" : "refused", ...(message ? { message } : {}) });
    }
  }
  return results;
}
