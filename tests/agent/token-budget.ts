/**
 * What a request costs in tokens, shared by the token-budget test and bench/tokens.bench.ts (issue #26).
 *
 * - `estimateTokens`: one token per four characters of what goes on the wire (the JSON of a tool as
 *   the Anthropic API takes it, the system prompt's text). An estimate, the same one for old and
 *   new, so their ratio holds; the figures (8,592 = 777 + 7,815 for 16 tools) are of this kind.
 * - `catalogueTokens`: system prompt + tool list, per tool, of the current catalogue (optionally a
 *   run's offered subset) or of a recorded request (a cassette's first call).
 * - `dayCost`: a day's requests priced with Anthropic's prompt caching simulated on the request
 *   bodies the Claude client would send (`buildMessageParams`, its breakpoints included): a body is a
 *   list of blocks (each tool, the system prompt, each message's content block); a breakpoint reads
 *   the longest prefix written earlier that ends at it or up to 20 blocks before it (the API's
 *   lookback), writes the prefix up to it, and what follows the last breakpoint is plain input. A
 *   breakpoint whose prefix is under `MIN_CACHEABLE_TOKENS` caches nothing (the API's minimum
 *   cacheable prompt for Sonnet: a shorter prefix is neither written nor read, all plain input).
 */
import { createHash } from "node:crypto";
import { buildMessageParams } from "../../src/agent/anthropic-client.js";
import type { CanonicalRequest } from "../../src/agent/cassette-format.js";
import type { ModelPrice } from "../../src/agent/pricing.js";
import { buildSystemPrompt } from "../../src/agent/prompt.js";
import type { Message, ModelResponse, ToolDefinition } from "../../src/agent/types.js";
import { defaultConfig, limitsOf } from "../../src/config/load.js";
import { contractSet } from "../../src/tools/versions.js";

/** One token per four characters (rounded up). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export interface CatalogueTokens {
  system: number;
  tools: { name: string; tokens: number }[];
  /** System prompt + every tool. */
  total: number;
}

function count(system: string, tools: readonly { name: string }[]): CatalogueTokens {
  const per = tools.map((t) => ({ name: t.name, tokens: estimateTokens(JSON.stringify(t)) }));
  const s = estimateTokens(system);
  return { system: s, tools: per, total: s + per.reduce((a, t) => a + t.tokens, 0) };
}

/** The current catalogue as the Claude client sends it, with the system prompt of the default configuration (optionally a run's offered tools only). */
export function currentCatalogue(offered?: readonly string[]): CatalogueTokens {
  const set = contractSet();
  const contracts = offered ? set.contracts.filter((t) => offered.includes(t.name)) : set.contracts;
  const config = defaultConfig();
  const system = buildSystemPrompt({
    limits: limitsOf(config),
    maxTurns: config.model.max_turns,
    toolCallLimits: Object.fromEntries(contracts.map((t) => [t.name, t.callLimit])),
  });
  return count(
    system,
    contracts.map((t) => set.anthropic(t)),
  );
}

/** The system prompt and tool list of a recorded request. */
export function recordedCatalogue(request: CanonicalRequest): CatalogueTokens {
  return count(request.system, (request.tools ?? []) as { name: string }[]);
}

export interface DayCost {
  requests: number;
  /** Input tokens of all requests together (what an uncached run would pay for). */
  prompt: number;
  /** Of which: plain input (after the last breakpoint), written to the cache, read from it. */
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  usd: number;
}

interface Block {
  json: string;
  breakpoint: boolean;
  /** Part of the tools and system prompt (what a simulation's next day finds cached). */
  preamble: boolean;
}

const bare = (v: unknown): string => JSON.stringify(v, (k, x: unknown) => (k === "cache_control" ? undefined : x));
const hasMark = (v: unknown): boolean => typeof v === "object" && v !== null && "cache_control" in v;

/** A request body as a list of blocks in the API's prefix order: tools, system, messages. */
function blocksOf(request: CanonicalRequest): Block[] {
  const tools = (request.tools ?? []) as ToolDefinition[];
  const body = buildMessageParams({ system: request.system, tools, messages: request.messages as Message[], maxTokens: request.max_tokens }, "m");
  return [
    ...body.tools.map((t) => ({ json: bare(t), breakpoint: hasMark(t), preamble: true })),
    ...body.system.map((s) => ({ json: bare(s), breakpoint: hasMark(s), preamble: true })),
    ...body.messages.flatMap((m) => m.content.map((c) => ({ json: `${m.role}:${bare(c)}`, breakpoint: hasMark(c), preamble: false }))),
  ];
}

/** The API looks for a cached prefix at most this many blocks before a breakpoint. */
const LOOKBACK_BLOCKS = 20;

/** The shortest prompt prefix the API caches for Sonnet models: a breakpoint before it is ignored. */
export const MIN_CACHEABLE_TOKENS = 1024;

/**
 * One day's requests priced with the cache: a cold cache (a daily run: the day's first request writes
 * everything), or with `warm` the tools and system prompt already cached (a simulation's next day,
 * minutes after the previous one wrote them).
 */
export function dayCost(calls: readonly { request: CanonicalRequest; response?: ModelResponse }[], price: ModelPrice, opts: { warm?: boolean } = {}): DayCost {
  const cache = new Set<string>();
  let warmUp = opts.warm === true;
  const out: DayCost = { requests: calls.length, prompt: 0, input: 0, cacheWrite: 0, cacheRead: 0, output: 0, usd: 0 };
  for (const call of calls) {
    const blocks = blocksOf(call.request);
    const hashes: string[] = [];
    const cum: number[] = [];
    let h = "";
    let total = 0;
    for (const b of blocks) {
      h = createHash("sha256").update(h).update(b.json).digest("hex");
      total += estimateTokens(b.json);
      hashes.push(h);
      cum.push(total);
    }
    // A breakpoint ending a prefix shorter than the minimum caches nothing (neither written nor read).
    const marks = blocks.flatMap((b, i) => (b.breakpoint && (cum[i] as number) >= MIN_CACHEABLE_TOKENS ? [i] : []));
    if (warmUp) {
      for (const p of marks) if (blocks[p]?.preamble) cache.add(hashes[p] as string);
      warmUp = false;
    }
    let read = 0;
    for (const p of marks) {
      for (let k = p; k >= Math.max(0, p - LOOKBACK_BLOCKS + 1); k--) {
        if (cache.has(hashes[k] as string)) {
          read = Math.max(read, cum[k] as number);
          break;
        }
      }
    }
    const last = marks.at(-1);
    const cachedUpTo = last === undefined ? 0 : (cum[last] as number);
    for (const p of marks) cache.add(hashes[p] as string);
    const write = Math.max(0, cachedUpTo - read);
    const output = estimateTokens(JSON.stringify(call.response?.content ?? []));
    out.prompt += total;
    out.cacheRead += read;
    out.cacheWrite += write;
    out.input += total - read - write;
    out.output += output;
  }
  out.usd = (out.input * price.input + out.cacheWrite * price.cacheWrite5m + out.cacheRead * price.cacheRead + out.output * price.output) / 1e6;
  return out;
}

/**
 * The experiment of issue #26: every tool result the model has already answered (all but those of
 * the newest user message) replaced by its compact form — success, ids and evidence ids kept.
 */
export function withEarlierResultsCompacted(request: CanonicalRequest): CanonicalRequest {
  const messages = request.messages as Message[];
  let newestUser = -1;
  for (let i = messages.length - 1; i >= 0 && newestUser < 0; i--) if (messages[i]?.role === "user") newestUser = i;
  const compacted = messages.map((m, i) =>
    i >= newestUser
      ? m
      : { ...m, content: m.content.map((b) => (b.type === "tool_result" && typeof b.content === "string" ? { ...b, content: compactForm(b.content) } : b)) },
  );
  return { ...request, messages: compacted };
}

function compactForm(text: string): string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return text;
  const ids = new Set<string>();
  JSON.stringify(v, (k, x: unknown) => {
    if (k === "evidence_id" && typeof x === "string") ids.add(x);
    return x;
  });
  const env = v as Record<string, unknown>;
  const kept: Record<string, unknown> = { success: env.success, compacted: true };
  for (const k of ["error_code", "symbol", "as_of"]) if (env[k] !== undefined) kept[k] = env[k];
  if (ids.size > 0) kept.evidence_ids = [...ids];
  return JSON.stringify(kept);
}
