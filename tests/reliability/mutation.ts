/**
 * The mutation harness: the shipped examples and the files a real run writes, mutated one change at
 * a time, then opened by the real loaders. Every mutation belongs to a class (`CLASSES`): a class
 * declared must-refuse (a wrong type, nan/inf, a negative or huge number, garbage, a duplicated data
 * line, an emptied data file) must be refused; a may-be-harmless class (a deleted key, a duplicated
 * blank line, another string) may also load. Every refusal names the file and the place, and a
 * refused open writes nothing anywhere in the home.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SimBroker } from "../../src/broker/simulated.js";
import { readSimState } from "../../src/broker/simulated-store.js";
import { loadConfig } from "../../src/config/load.js";
import { openJournal } from "../../src/journal/journal.js";
import { MarketData } from "../../src/market/data.js";
import { bundledDataDir } from "../../src/util/paths.js";
import { mulberry32 } from "../../src/util/prng.js";

export type Target = "config" | "universe" | "journal-head" | "journal-log" | "sim-broker" | "market";
export const TARGETS: Target[] = ["config", "universe", "journal-head", "journal-log", "sim-broker", "market"];

/** What a mutation class must do when the file is opened. */
export type Expectation = "must-refuse" | "may-be-harmless";

/** Every mutation class and what it must do. */
export const CLASSES = {
  // values (JSON fields, TOML keys, CSV cells)
  "wrong-type": "must-refuse", // a value of another type: a string for a number, an array for an object, …
  "non-finite": "must-refuse", // nan, inf, -inf for a number
  negative: "must-refuse", // -1 for a number that was not negative
  huge: "must-refuse", // 1e300 / 1e308 for a number
  "other-number": "may-be-harmless", // -1 for a number that was already negative
  "other-string": "may-be-harmless", // another string for a string (e.g. a name)
  "other-array": "may-be-harmless", // another array for an array (e.g. an empty list)
  "other-object": "may-be-harmless", // an empty object for an object
  "same-boolean": "may-be-harmless", // true for a boolean
  null: "may-be-harmless", // null for a value (some fields are nullable)
  "key-deleted": "may-be-harmless", // a JSON key removed (some are optional)
  "text-cell": "may-be-harmless", // a CSV text cell (a name, a note) set to anything
  "comment-edited": "may-be-harmless", // a TOML comment or blank line edited
  // lines
  garbage: "must-refuse", // a line replaced by NUL + escape + braces
  "structure-line-replaced": "must-refuse", // a TOML [section] header replaced by a value
  "data-line-duplicated": "must-refuse", // a TOML key or section, or a market bar (its day), twice
  "universe-row-duplicated": "may-be-harmless", // an identical universe row is one instrument (documented)
  "data-file-emptied": "must-refuse", // a universe file emptied
  // An emptied imported bar file loads as a symbol with no bars: fail closed (no reference price, so
  // the gate blocks the symbol) but silent. Declared may-be-harmless until the loader refuses it.
  "bars-file-emptied": "may-be-harmless",
  "blank-line-duplicated": "may-be-harmless",
  "line-deleted": "may-be-harmless", // a key or row removed (config keys have defaults)
  "line-truncated": "may-be-harmless", // half a line (`x = 100000` → `x = 1` is still valid)
  "lines-swapped": "may-be-harmless",
  "config-emptied": "may-be-harmless", // an empty config is the built-in defaults
} as const satisfies Record<string, Expectation>;

export type MutationClass = keyof typeof CLASSES;

export interface MutationResult {
  target: Target;
  mutation: string;
  cls: MutationClass;
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

type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object";
const jsonKind = (v: unknown): JsonKind => (v === null ? "null" : Array.isArray(v) ? "array" : (typeof v as JsonKind));

/** The class of replacing `before` by `after` (JSON values). */
function valueClass(before: unknown, after: unknown): MutationClass {
  const [b, a] = [jsonKind(before), jsonKind(after)];
  if (a === "null") return "null";
  if (a !== b) return "wrong-type";
  if (a === "number") return (after as number) > 1e100 ? "huge" : (before as number) >= 0 ? "negative" : "other-number";
  return a === "string" ? "other-string" : a === "array" ? "other-array" : a === "object" ? "other-object" : "same-boolean";
}

function mutateJson(doc: unknown, rnd: () => number): { doc: unknown; what: string; cls: MutationClass } {
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
    return { doc: copy, what: `deleted ${path.join(".")}`, cls: "key-deleted" };
  }
  const [name, value] = HOSTILE_JSON[choice] as [string, unknown];
  const cls = valueClass(parent[key], value);
  parent[key] = structuredClone(value);
  return { doc: copy, what: `${path.join(".")} set to ${name}`, cls };
}

const TOML_KEY = /^\s*[a-z_]+\s*=/;
const BLANK_OR_COMMENT = /^\s*(#.*)?$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The class of a hostile TOML value (as written) replacing `before` (a TOML value as written, or a CSV cell). */
function textValueClass(before: string, hostile: string, format: "toml" | "csv"): MutationClass {
  const b = before.trim();
  const kindOf = (v: string) =>
    v.startsWith('"') ? "string" : /^(true|false)$/.test(v) ? "boolean" : v.startsWith("[") ? "array" : v.startsWith("{") ? "table" : "number";
  if (format === "csv") {
    if (ISO_DAY.test(b)) return "wrong-type";
    if (!NUMBER.test(b)) return "text-cell";
  }
  const was = format === "csv" ? "number" : kindOf(b);
  const now = kindOf(hostile);
  if (now !== was) return "wrong-type";
  if (now === "number") {
    if (/nan|inf/.test(hostile)) return "non-finite";
    if (hostile === "-1") return Number(b) >= 0 ? "negative" : "other-number";
    return Number(hostile) > 1e100 ? "huge" : "other-number";
  }
  return now === "string" ? "other-string" : now === "array" ? "other-array" : now === "boolean" ? "same-boolean" : "other-object";
}

function mutateLines(text: string, rnd: () => number, file: "toml" | "universe" | "bars", firstLine = 0): { text: string; what: string; cls: MutationClass } {
  const format = file === "toml" ? "toml" : "csv";
  const lines = text.split("\n");
  const last = lines.at(-1) === "" ? lines.length - 1 : lines.length;
  const i = firstLine + Math.floor(rnd() * Math.max(1, last - firstLine));
  const line = lines[i] ?? "";
  const blank = format === "toml" ? BLANK_OR_COMMENT.test(line) : line.trim() === "";
  const kinds = ["delete", "duplicate", "truncate", "garbage", "swap", "empty file", "hostile value"] as const;
  const kind = kinds[Math.floor(rnd() * kinds.length)] as (typeof kinds)[number];
  let cls: MutationClass;
  switch (kind) {
    case "delete":
      lines.splice(i, 1);
      cls = blank ? "comment-edited" : "line-deleted";
      break;
    case "duplicate":
      lines.splice(i, 0, line);
      cls = blank ? "blank-line-duplicated" : file === "universe" && i > 0 ? "universe-row-duplicated" : "data-line-duplicated";
      break;
    case "truncate":
      lines[i] = line.slice(0, Math.floor(line.length / 2));
      cls = blank ? "comment-edited" : "line-truncated";
      break;
    case "garbage":
      lines[i] = "\u0000{{ not data \u001b[2J";
      cls = "garbage";
      break;
    case "swap":
      if (i + 1 < last) [lines[i], lines[i + 1]] = [lines[i + 1] as string, line];
      cls = "lines-swapped";
      break;
    case "empty file":
      return { text: "", what: "emptied", cls: file === "toml" ? "config-emptied" : file === "bars" ? "bars-file-emptied" : "data-file-emptied" };
    case "hostile value": {
      const v = HOSTILE_TOML[Math.floor(rnd() * HOSTILE_TOML.length)] as string;
      // `key = value` (TOML) → replace the value; CSV → replace one cell
      if (format === "toml" && TOML_KEY.test(line)) {
        cls = textValueClass(line.replace(/^[^=]*=/, ""), v, "toml");
        lines[i] = line.replace(/=.*/, `= ${v}`);
      } else {
        const cells = line.split(",");
        const c = Math.floor(rnd() * cells.length);
        const was = cells[c] ?? "";
        cells[c] = v.replace(/"/g, "");
        lines[i] = cells.join(",");
        cls =
          format === "toml" ? (blank ? "comment-edited" : "structure-line-replaced") : blank ? "text-cell" : textValueClass(was, v.replace(/"/g, ""), "csv");
      }
      return { text: lines.join("\n"), what: `line ${i + 1} value set to ${v}`, cls };
    }
  }
  return { text: lines.join("\n"), what: `line ${i + 1}: ${kind}`, cls };
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
    await j.startRun({
      run_id: "r1",
      mode: "paper",
      trading_day: "2024-01-02",
      at: "2024-01-02T14:00:00Z",
      model: { provider: "scripted", id: "x" },
      broker: { kind: "sim" },
    });
    await j.observeFirstValuation("r1", 10_000, "2024-01-02T14:00:01Z");
    await j.recordOrderIntent({
      run_id: "r1",
      client_order_id: "c1",
      index: 0,
      symbol: "AAA",
      side: "BUY",
      quantity: 10,
      limit_price: 100,
      at: "2024-01-02T14:30:00Z",
    });
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

/** Opens the simulated broker's book a real run wrote, edited by `edit`: the refusal's message, or undefined when it loads. */
export async function openEditedSimBook(edit: (doc: Record<string, unknown>) => void): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "tw-mut-sim-edit-"));
  try {
    const doc = JSON.parse(await simText()) as Record<string, unknown>;
    edit(doc);
    const path = join(dir, "sim-broker.json");
    writeFileSync(path, JSON.stringify(doc));
    try {
      readSimState(path);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

async function attempt(
  target: Target,
  rnd: () => number,
): Promise<{ home: string; file: string; what: string; cls: MutationClass; open: () => Promise<void> | void }> {
  const home = target === "journal-head" || target === "journal-log" ? await journalHome() : mkdtempSync(join(tmpdir(), "tw-mut-"));
  switch (target) {
    case "config": {
      const file = join(home, "tradewarden.toml");
      const m = mutateLines(readFileSync(join(DATA, "tradewarden.example.toml"), "utf8"), rnd, "toml");
      writeFileSync(file, m.text);
      return { home, file: "tradewarden.toml", what: m.what, cls: m.cls, open: () => configOrThrow(home) };
    }
    case "universe": {
      const names = readdirSync(join(DATA, "universe")).filter((n) => n.endsWith(".csv"));
      const name = names[Math.floor(rnd() * names.length)] as string;
      const m = mutateLines(readFileSync(join(DATA, "universe", name), "utf8"), rnd, "universe");
      writeFileSync(join(home, name), m.text);
      writeFileSync(join(home, "tradewarden.toml"), `[universe]\nfiles = ["${name}"]\n`);
      return { home, file: name, what: m.what, cls: m.cls, open: () => configOrThrow(home) };
    }
    case "journal-head": {
      const path = join(home, "journal.json");
      const m = mutateJson(JSON.parse(readFileSync(path, "utf8")), rnd);
      writeFileSync(path, JSON.stringify(m.doc));
      return { home, file: "journal.json", what: m.what, cls: m.cls, open: () => openJournal(home, { timezone: "UTC", fsync: false }).then(() => {}) };
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
      return {
        home,
        file: "journal.log.jsonl",
        what: `line ${i + 1}: ${m.what}`,
        cls: m.cls,
        open: () => openJournal(home, { timezone: "UTC", fsync: false }).then(() => {}),
      };
    }
    case "sim-broker": {
      const path = join(home, "sim-broker.json");
      const m = mutateJson(JSON.parse(await simText()), rnd);
      writeFileSync(path, JSON.stringify(m.doc));
      return { home, file: "sim-broker.json", what: m.what, cls: m.cls, open: () => void readSimState(path) };
    }
    case "market": {
      const names = readdirSync(join(DATA, "market", "bars")).filter((n) => n.endsWith(".csv"));
      const name = names[Math.floor(rnd() * names.length)] as string;
      const head = readFileSync(join(DATA, "market", "bars", name), "utf8")
        .split("\n")
        .slice(0, 40)
        .join("\n");
      const m = mutateLines(`${head}\n`, rnd, "bars", 1);
      mkdirSync(join(home, "market"));
      writeFileSync(join(home, "market", name), m.text);
      return { home, file: name, what: m.what, cls: m.cls, open: () => void MarketData.load({ home }) };
    }
  }
}

function configOrThrow(home: string): void {
  const r = loadConfig(home);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
}

/** A refusal names the file and a place in it (a key path, a row, a line, or the part of the book). */
const PLACE =
  /line \d+|row \d+|\.[a-z_]+|[a-z_]+(\[\d+\])?: |\(file\)|\(root\)|checkpoint|commit mark|head document|schema_version|is empty|header|JSON|not a tradewarden|committed/;

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
      results.push({ target, mutation: c.what, cls: c.cls, outcome: message === undefined ? "loaded" : "refused", ...(message ? { message } : {}) });
    }
  }
  return results;
}

/** Each class's refused and harmless counts, one line per class (sorted). */
export function classReport(results: readonly MutationResult[]): string[] {
  const by = new Map<MutationClass, { refused: number; loaded: number }>();
  for (const r of results) {
    const c = by.get(r.cls) ?? { refused: 0, loaded: 0 };
    c[r.outcome]++;
    by.set(r.cls, c);
  }
  return [...by].sort(([a], [b]) => a.localeCompare(b)).map(([cls, c]) => `${cls} (${CLASSES[cls]}): ${c.refused} refused, ${c.loaded} harmless`);
}

/** The must-refuse mutations that loaded (each a defect of a loader). */
export function acceptedMustRefuse(results: readonly MutationResult[]): string[] {
  return results.filter((r) => CLASSES[r.cls] === "must-refuse" && r.outcome === "loaded").map((r) => `${r.target}: ${r.cls}: ${r.mutation}`);
}
