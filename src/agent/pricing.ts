/**
 * LLM cost from the price table kept as data (`data/model-prices.json`, USD per million tokens,
 * per provider and model id) or from `[model.price]` in the config. An unpriced model is refused at
 * start-up (TwError, exit 2) — never priced at zero unless the user says so.
 * Cost = (input·p_in + write5m·p_w5m + write1h·p_w1h + read·p_read + output·p_out) / 1e6; for Claude
 * the cache prices are multiples of the input price (1.25, 2, 0.1), for OpenAI-compatible models a
 * cached prompt token costs `cached_input` and there are no writes.
 */
import { Dec, microsToUsd, wholeMicros } from "../core/money.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT } from "../core/exit-codes.js";
import type { Usage } from "../core/events.js";
import { TwError } from "../core/errors.js";
import { bundledDataDir } from "../util/paths.js";

export type PricedProvider = "anthropic" | "openai" | "scripted";

export interface ModelPrice {
  model: string;
  /** Where the price comes from: the bundled table, or the config's [model.price]. */
  source: "table" | "config";
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
  /** Claude models and the scripted stand-in. */
  models: Record<string, { input: number; output: number }>;
  /** OpenAI and OpenAI-compatible models. */
  openai: Record<string, { input: number; output: number; cached_input?: number }>;
}

/** `[model.price]`: USD per million tokens (zero allowed, for a local model). */
export interface ConfigPrice {
  input_per_mtok: number;
  output_per_mtok: number;
  cached_input_per_mtok?: number | null;
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
  const openaiModels = ((t.openai as Record<string, unknown> | undefined)?.models ?? {}) as Record<string, unknown>;
  if (typeof openaiModels !== "object" || openaiModels === null) return bad("openai.models must be an object keyed by model id");
  const openai: PriceTable["openai"] = {};
  for (const [id, p] of Object.entries(openaiModels)) {
    const price = p as Record<string, unknown> | null;
    if (!price || !isFiniteNonNeg(price.input) || !isFiniteNonNeg(price.output) || (price.cached_input !== undefined && !isFiniteNonNeg(price.cached_input))) {
      return bad(`openai.models.${id} needs non-negative input and output prices (and cached_input, when given)`);
    }
    openai[id] = { input: price.input, output: price.output, ...(price.cached_input !== undefined ? { cached_input: price.cached_input } : {}) };
  }
  return {
    multipliers: { cache_write_5m: m.cache_write_5m, cache_write_1h: m.cache_write_1h, cache_read: m.cache_read },
    models: out,
    openai,
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

/** The price of one model from the table; an id missing from its provider's table is refused (exit 2). */
export function priceFor(
  modelId: string,
  table: PriceTable = loadPriceTable(),
  provider: PricedProvider = modelId === "scripted" ? "scripted" : "anthropic",
): ModelPrice {
  if (provider === "openai") {
    const p = Object.hasOwn(table.openai, modelId) ? table.openai[modelId] : undefined;
    if (!p) throw unpriced(modelId, "openai", Object.keys(table.openai));
    return {
      model: modelId,
      source: "table",
      input: p.input,
      output: p.output,
      cacheWrite5m: p.input,
      cacheWrite1h: p.input,
      cacheRead: p.cached_input ?? p.input,
    };
  }
  const p = Object.hasOwn(table.models, modelId) && (provider === "scripted") === (modelId === "scripted") ? table.models[modelId] : undefined;
  if (!p)
    throw unpriced(
      modelId,
      provider,
      Object.keys(table.models).filter((k) => k !== "scripted"),
    );
  return {
    model: modelId,
    source: "table",
    input: p.input,
    output: p.output,
    cacheWrite5m: p.input * table.multipliers.cache_write_5m,
    cacheWrite1h: p.input * table.multipliers.cache_write_1h,
    cacheRead: p.input * table.multipliers.cache_read,
  };
}

function unpriced(modelId: string, provider: string, known: string[]): TwError {
  return new TwError(
    "unknown_model",
    `model.id "${modelId}" has no ${provider} price in data/model-prices.json, so its cost cannot be tracked; use one of: ${known.join(", ")}, or price it in tradewarden.toml under [model.price] (input_per_mtok, output_per_mtok, cached_input_per_mtok; 0 for a free local model)`,
    EXIT.USAGE_OR_CONFIG,
  );
}

/**
 * The price a run uses: `[model.price]` when the config sets one (any provider; cache writes at the
 * Claude multipliers for Claude, at the input price otherwise), else the table's.
 */
export function resolvePrice(
  provider: PricedProvider,
  modelId: string,
  configured: ConfigPrice | null | undefined,
  table: PriceTable = loadPriceTable(),
): ModelPrice {
  if (provider === "scripted" || !configured) return priceFor(provider === "scripted" ? "scripted" : modelId, table, provider);
  const input = configured.input_per_mtok;
  const claude = provider === "anthropic";
  return {
    model: modelId,
    source: "config",
    input,
    output: configured.output_per_mtok,
    cacheWrite5m: claude ? input * table.multipliers.cache_write_5m : input,
    cacheWrite1h: claude ? input * table.multipliers.cache_write_1h : input,
    cacheRead: configured.cached_input_per_mtok ?? (claude ? input * table.multipliers.cache_read : input),
  };
}

/**
 * Cost of one call in whole micro-dollars (prices are USD per million tokens, so tokens × price is
 * micro-dollars), computed exactly and rounded half-even once. Cache writes use the TTL split when
 * the API reports it; writes it does not attribute to a TTL are priced at the 5-minute rate (the
 * API's default TTL).
 */
export function costMicrosOf(usage: Usage, price: ModelPrice): number {
  const writes = usage.cache_creation_input_tokens;
  const w1h = Math.min(writes, usage.cache_creation_1h_input_tokens ?? 0);
  const w5m = writes - w1h;
  const micro = new Dec(usage.input_tokens)
    .mul(price.input)
    .add(new Dec(w5m).mul(price.cacheWrite5m))
    .add(new Dec(w1h).mul(price.cacheWrite1h))
    .add(new Dec(usage.cache_read_input_tokens).mul(price.cacheRead))
    .add(new Dec(usage.output_tokens).mul(price.output));
  return wholeMicros(micro);
}

/** USD cost of one call: `costMicrosOf` in dollars. */
export function costOf(usage: Usage, price: ModelPrice): number {
  return microsToUsd(costMicrosOf(usage, price));
}
