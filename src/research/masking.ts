/**
 * Entity masking for honest simulations: symbols become stable opaque aliases (seeded per data
 * set), instrument names neutral labels, real-world names in news neutral labels, calendar dates
 * shift by a constant offset. `mask` rewrites anything the model is shown; `unmask` inverts it
 * exactly (a property test checks the round trip on every tool's arguments and results).
 *
 * Money is rescaled by one power of two per data set (½, ¼ or ⅛: exact in binary floating point both
 * ways, and a price the model writes in cents unmasks to whole cents): numbers under money keys,
 * and amounts with decimals inside the gate's sentences (`message`, `error`, `detail`), so no
 * real price level shows; percentages, quantities and counts are unchanged.
 *
 * Aliases look like `QX-41`: two letters per sector and a number by position within the sector,
 * drawn from one seeded list, so instruments of different sectors can share the number (as stock
 * codes share a suffix across boards). A partial alias — the number alone, or the alias without
 * its dash — that matches one instrument is resolved; one that matches several is refused with
 * every candidate and a complete retry argument object for each.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MaskInstrument } from "../core/research.js";
import type { HandlerFailure, ToolMasking } from "../core/tool-handler.js";
import { bundledDataDir } from "../util/paths.js";
import { makeRewriter, REAL_YEAR_MAX, REAL_YEAR_MIN, realDatesIn, type TextRewriter } from "./mask-text.js";
import { nameCore } from "./mentions.js";
import { escapeRegExp } from "../util/regex.js";
import { mulberry32 } from "../util/prng.js";

export interface MaskSpec {
  /** The data set the aliases are seeded by (see `dataSetId`). */
  dataSet: string;
  instruments: MaskInstrument[];
  /** Real-world terms → neutral labels (data/news/mask-terms.json by default). */
  terms?: Record<string, string>;
}

export interface Leak {
  kind: "symbol" | "name" | "date" | "term";
  found: string;
}

/** A data set's id: the universe's symbols, sorted (the same universe gives the same aliases). */
export function dataSetId(instruments: readonly MaskInstrument[]): string {
  const symbols = instruments.map((i) => i.symbol.toUpperCase()).sort();
  return createHash("sha256").update(symbols.join(",")).digest("hex").slice(0, 16);
}

export function bundledMaskTerms(): Record<string, string> {
  const doc = JSON.parse(readFileSync(join(bundledDataDir(), "news", "mask-terms.json"), "utf8")) as { terms: Record<string, string> };
  return doc.terms;
}

/** A PRNG seeded by a string (its SHA-256). */
function prng(seed: string): () => number {
  return mulberry32(Number.parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16));
}

function shuffle<T>(items: T[], rand: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXZ";

export class Masker {
  readonly dataSet: string;
  readonly dateOffsetDays: number;
  readonly yearOffset: number;
  /** Masked money = real money × priceScale (a power of two below 1). */
  readonly priceScale: number;
  /** Real symbol → alias. */
  readonly aliases: ReadonlyMap<string, string>;
  private readonly realOf = new Map<string, string>();
  private readonly toMasked: TextRewriter;
  private readonly toReal: TextRewriter;
  private readonly names: string[];
  private readonly terms: string[];

  constructor(spec: MaskSpec) {
    this.dataSet = spec.dataSet;
    const rand = prng(`tradewarden-mask:${spec.dataSet}`);
    this.dateOffsetDays = 7 * (2700 + Math.floor(rand() * 600));
    this.yearOffset = Math.round(this.dateOffsetDays / 365.2425);
    this.priceScale = 2 ** -(1 + Math.floor(rand() * 3));
    const sectors = [...new Set(spec.instruments.map((i) => i.sector ?? "Unclassified"))].sort();
    const pairs = shuffle(
      [...LETTERS].flatMap((a) => [...LETTERS].map((b) => a + b)),
      rand,
    );
    const numbers = shuffle(
      Array.from({ length: 90 }, (_, i) => String(i + 10)),
      rand,
    );
    const prefix = new Map(sectors.map((s, i) => [s, pairs[i] as string]));
    const position = new Map<string, number>();
    const aliases = new Map<string, string>();
    const forward = new Map<string, string>();
    this.names = [];
    for (const inst of [...spec.instruments].sort((a, b) => a.symbol.localeCompare(b.symbol))) {
      const sector = inst.sector ?? "Unclassified";
      const k = position.get(sector) ?? 0;
      position.set(sector, k + 1);
      const alias = `${prefix.get(sector)}-${numbers[k % numbers.length]}`;
      const symbol = inst.symbol.toUpperCase();
      aliases.set(symbol, alias);
      this.realOf.set(alias, symbol);
      forward.set(symbol, alias);
      const core = nameCore(inst.name);
      if (core) {
        forward.set(core, `Issuer ${alias}`);
        this.names.push(core);
      }
      if (inst.name && inst.name !== core) forward.set(inst.name, `Issuer ${alias} (${inst.name.includes("synthetic") ? "synthetic" : "instrument"})`);
    }
    this.aliases = aliases;
    this.terms = [];
    for (const [real, label] of Object.entries(spec.terms ?? {})) {
      if (!forward.has(real)) {
        forward.set(real, label);
        this.terms.push(real);
      }
    }
    const backward = new Map([...forward].map(([k, v]) => [v, k]));
    this.toMasked = makeRewriter(forward, this.dateOffsetDays, this.yearOffset, REAL_YEAR_MIN, REAL_YEAR_MAX);
    this.toReal = makeRewriter(backward, -this.dateOffsetDays, -this.yearOffset, REAL_YEAR_MIN + this.yearOffset, REAL_YEAR_MAX + this.yearOffset);
  }

  maskText(text: string): string {
    return this.toMasked(text);
  }

  unmaskText(text: string): string {
    return this.toReal(text);
  }

  mask<T>(value: T): T {
    return mapValue(value, { text: this.toMasked, scale: this.priceScale, money: (t) => scaleAmounts(t, this.priceScale) }) as T;
  }

  unmask<T>(value: T): T {
    const back = 1 / this.priceScale;
    return mapValue(value, { text: this.toReal, scale: back, money: (t) => scaleAmounts(t, back) }) as T;
  }

  /** Bars as a masked run's sandbox sees them: aliases for symbols, shifted dates, prices rescaled (volume as is). */
  maskedSeries<S extends { dates: string[]; open: number[]; high: number[]; low: number[]; close: number[]; volume: number[] }>(
    series: Record<string, S>,
  ): Record<string, S> {
    const out: Record<string, S> = {};
    const scale = (xs: number[]) => xs.map((x) => x * this.priceScale);
    for (const [symbol, s] of Object.entries(series)) {
      out[this.aliases.get(symbol.toUpperCase()) ?? this.maskText(symbol)] = {
        ...s,
        dates: s.dates.map((d) => this.maskText(d)),
        open: scale(s.open),
        high: scale(s.high),
        low: scale(s.low),
        close: scale(s.close),
      };
    }
    return out;
  }

  /** The aliases a partial alias could mean (the number alone, or the alias without its dash, any case). */
  candidates(partial: string): string[] {
    const p = partial.trim().toUpperCase();
    if (this.realOf.has(p)) return [p];
    return [...this.realOf.keys()].filter((a) => a.split("-")[1] === p || a.replace("-", "") === p).sort();
  }

  /** Real symbols, instrument names, real-world terms and real dates in a text the model wrote. */
  leaks(text: string): Leak[] {
    const out: Leak[] = [];
    for (const s of this.aliases.keys()) if (new RegExp(`(?<![A-Za-z0-9-])${s}(?![A-Za-z0-9-])`).test(text)) out.push({ kind: "symbol", found: s });
    const lower = text.toLowerCase();
    for (const n of this.names) if (lower.includes(n.toLowerCase())) out.push({ kind: "name", found: n });
    for (const t of this.terms)
      if (t.length >= 4 && new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(t)}(?![A-Za-z0-9])`).test(text)) out.push({ kind: "term", found: t });
    for (const d of realDatesIn(text)) out.push({ kind: "date", found: d });
    return out;
  }

  /** The runtime's view: unmask validated arguments (resolving partial aliases), mask what the model sees. */
  toolMasking(): ToolMasking {
    return {
      mask: <T>(v: T) => this.mask(v),
      unmaskArguments: (tool, args) => this.unmaskArguments(tool, args),
      // The sandbox runs the model's code on masked data (maskedSeries), so neither side is rewritten.
      selfMasked: new Set(["execute_code"]),
    };
  }

  unmaskArguments(tool: string, args: Record<string, unknown>): { ok: true; args: Record<string, unknown> } | HandlerFailure {
    const resolved = structuredClone(args);
    for (const slot of symbolSlots(resolved)) {
      const value = slot.get();
      if (this.realOf.has(value) || this.aliases.has(value.toUpperCase())) continue;
      const found = this.candidates(value);
      if (found.length === 1) slot.set(found[0] as string);
      else if (found.length > 1) {
        return {
          ok: false,
          code: "ambiguous_masked_symbol",
          message: `"${value}" at ${slot.path} matches ${found.length} instruments: ${found.join(", ")}; use the complete symbol`,
          details: {
            candidate_aliases: found,
            retry_argument_choices: found.map((alias) => {
              const choice = structuredClone(args);
              for (const s of symbolSlots(choice)) if (s.path === slot.path) s.set(alias);
              return { symbol: alias, arguments: choice };
            }),
          },
        };
      }
    }
    void tool;
    return { ok: true, args: this.unmask(resolved) };
  }
}

interface Slot {
  path: string;
  get(): string;
  set(v: string): void;
}

/** Every symbol field of a tool's arguments: `symbol`, `symbols[]`, at any depth (orders[].symbol). */
function symbolSlots(root: unknown, path = "$"): Slot[] {
  const out: Slot[] = [];
  if (Array.isArray(root)) {
    root.forEach((v, i) => {
      out.push(...symbolSlots(v, `${path}[${i}]`));
    });
    return out;
  }
  if (root === null || typeof root !== "object") return out;
  const obj = root as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    if (k === "symbol" && typeof v === "string") out.push({ path: `${path}.symbol`, get: () => obj.symbol as string, set: (x) => (obj.symbol = x) });
    else if (k === "symbols" && Array.isArray(v)) {
      v.forEach((s, i) => {
        if (typeof s === "string") out.push({ path: `${path}.symbols[${i}]`, get: () => v[i] as string, set: (x) => (v[i] = x) });
      });
    } else out.push(...symbolSlots(v, `${path}.${k}`));
  }
  return out;
}

/** Keys whose numbers are amounts of money or prices (any depth; arrays inherit their key). */
const MONEY_KEYS: ReadonlySet<string> = new Set([
  "cash",
  "value",
  "peak",
  "price",
  "reference_price",
  "limit_price",
  "last_close",
  "close",
  // get_price_history's [date, close] pairs (tw-tools/3): the number in each is a price
  "last_closes",
  "open",
  "high",
  "low",
  "sma20",
  "sma50",
  "high_6m",
  "low_6m",
  "notional",
  "commission",
  "market_value",
  "avg_cost",
  "avg_price",
  "avg_fill_price",
  "unrealized_pnl",
  "cost_basis",
  // watchlist and standing orders (tw-tools/2)
  "price_at_add",
  "alert_above",
  "alert_below",
  "above",
  "below",
  "trigger_price",
  // get_position (tw-tools/3)
  "trip_value",
  "headroom_value",
  "room_value",
]);

/** Keys whose text carries amounts (the gate's sentences): decimal amounts in them are rescaled. */
const MONEY_TEXT_KEYS: ReadonlySet<string> = new Set(["message", "error", "detail"]);

interface Rewrite {
  text: (s: string) => string;
  scale: number;
  money: (s: string) => string;
}

function mapValue(v: unknown, r: Rewrite, key = ""): unknown {
  if (typeof v === "string") return MONEY_TEXT_KEYS.has(key) ? r.money(r.text(v)) : r.text(v);
  if (typeof v === "number") return MONEY_KEYS.has(key) && Number.isFinite(v) ? v * r.scale : v;
  if (Array.isArray(v)) return v.map((x) => mapValue(x, r, key));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [r.text(k), mapValue(x, r, k)]));
  return v;
}

/**
 * Decimal amounts in a sentence ("limit 101.50 is 3.20% from price 98.37"), percentages excepted,
 * times a power of two; at least two decimals are kept, so a real amount written to the cent
 * comes back exactly as written.
 */
function scaleAmounts(text: string, factor: number): string {
  return text.replace(/(?<![\d.])(\d+\.\d{2,})(?![\d.]|%)/g, (m) => {
    const x = Number(m) * factor;
    const s = String(x);
    const dot = s.indexOf(".");
    if (s.includes("e")) return m;
    return dot < 0 ? `${s}.00` : s.length - dot - 1 < 2 ? `${s}0` : s;
  });
}
