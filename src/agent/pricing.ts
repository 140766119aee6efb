/**
 * LLM cost from the price table kept as data (`data/model-prices.json`, USD per million tokens,
 * keyed by model id). An unknown model is refused at start-up (TwError, exit 2) — never priced at
 * zero. Cost = (input·p_in + write5m·p_in·1.25 + write1h·p_in·2 + read·p_in·0.1 + output·p_out) / 1e6.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT } from "../core/exit-codes.js";
import type { Usage } from "../core/events.js";
import { TwError } from "../core/errors.js";
import { bundledDataDir } from "../util/paths.js";

export interface ModelPrice {
  model: string;
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

export interface PriceTable {
  multipliers: { cache_write_5m: number; cache_write_1h: number; cache_read: number };
  models: Record<string, { input: number; output: number }>;
}

let cached: PriceTable | undefined;

function isFiniteNonNeg(n: unknown): n is number {
  return typeof n === "number" && Number.isFinite(n) && n >= 0;
}

/** Parses and checks a price table; a malformed table is a configuration error. */
export function parsePriceTable(raw: unknown, source = "model-prices.json"): PriceTable {
  const bad = (why: string): never => {
    throw new TwError("price_table_invalid", `${source}: ${why}`, EXIT.USAGE_OR_CONFIG);
  };
  if (typeof raw !== "object" || raw === null) return bad("not a JSON object");
  const t = raw as Record<string, unknown>;
  const m = t.multipliers as Record<string, unknown> | undefined;
  if (!m || !isFiniteNonNeg(m.cache_write_5m) || !isFiniteNonNeg(m.cache_write_1h) || !isFiniteNonNeg(m.cache_read)) {
    return bad("multipliers.cache_write_5m, cache_write_1h and cache_read must be non-negative numbers");
  }
  const models = t.models as Record<string, unknown> | undefined;
  if (!models || typeof models !== "object") return bad("models must be an object keyed by model id");
  const out: PriceTable["models"] = {};
  for (const [id, p] of Object.entries(models)) {
    const price = p as Record<string, unknown> | null;
    if (!price || !isFiniteNonNeg(price.input) || !isFiniteNonNeg(price.output)) {
      return bad(`models.${id} needs non-negative input and output prices`);
    }
    out[id] = { input: price.input, output: price.output };
  }
  return {
    multipliers: { cache_write_5m: m.cache_write_5m, cache_write_1h: m.cache_write_1h, cache_read: m.cache_read },
    models: out,
  };
}

/** The bundled price table (read once). */
export function loadPriceTable(path = join(bundledDataDir(), "model-prices.json")): PriceTable {
  if (cached && path === join(bundledDataDir(), "model-prices.json")) return cached;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new TwError("price_table_invalid", `cannot read the price table ${path}: ${(e as Error).message}`, EXIT.USAGE_OR_CONFIG);
  }
  const table = parsePriceTable(raw, path);
  if (path === join(bundledDataDir(), "model-prices.json")) cached = table;
  return table;
}

/** The price of one model; an id missing from the table is refused (exit 2). */
export function priceFor(modelId: string, table: PriceTable = loadPriceTable()): ModelPrice {
  const p = Object.hasOwn(table.models, modelId) ? table.models[modelId] : undefined;
  if (!p) {
    const known = Object.keys(table.models)
      .filter((k) => k !== "scripted")
      .join(", ");
    throw new TwError(
      "unknown_model",
      `model.id "${modelId}" is not in the price table (data/model-prices.json), so its cost cannot be tracked; use one of: ${known}`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  return {
    model: modelId,
    input: p.input,
    output: p.output,
    cacheWrite5m: p.input * table.multipliers.cache_write_5m,
    cacheWrite1h: p.input * table.multipliers.cache_write_1h,
    cacheRead: p.input * table.multipliers.cache_read,
  };
}

/**
 * USD cost of one call. Cache writes use the TTL split when the API reports it; writes it does not
 * attribute to a TTL are priced at the 5-minute rate (the API's default TTL).
 */
export function costOf(usage: Usage, price: ModelPrice): number {
  const writes = usage.cache_creation_input_tokens;
  const w1h = Math.min(writes, usage.cache_creation_1h_input_tokens ?? 0);
  const w5m = writes - w1h;
  const micro =
    usage.input_tokens * price.input +
    w5m * price.cacheWrite5m +
    w1h * price.cacheWrite1h +
    usage.cache_read_input_tokens * price.cacheRead +
    usage.output_tokens * price.output;
  return micro / 1e6;
}
