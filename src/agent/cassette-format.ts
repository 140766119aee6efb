/**
 * The cassette file format: canonical requests and their keys, the lines a cassette holds, and the
 * one parser every reader goes through (replay, the replay verifier, audit, the agreement check).
 *
 * Format 2 writes each distinct tool list once, as `{type:"tools", id, tools}` (id: SHA-256 of the
 * tools' canonical JSON) right before the first call that offers it; a call's request then carries
 * `tools_ref` instead of `tools`. Format 1 repeated `tools` in every call. The parser reads both
 * and hands back every call's full canonical request, tools resolved. Format 3 (./cassette-delta.ts)
 * also stores each call's request as a delta on the previous call's. A call's key is the same in
 * every format: the SHA-256 of the full canonical request with the full tool list.
 */
import { createHash } from "node:crypto";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { redactValue, redactor } from "../core/redact.js";
import { canonicalJson } from "../util/canonical-json.js";
import {
  type CallLine,
  type CanonicalRequest,
  type CassetteMeta,
  isCallHead,
  isCanonicalRequest,
  isCassetteMeta,
  isModelResponse,
  isStoredRequest,
} from "./cassette-lines.js";
import type { ModelRequest } from "./types.js";
import { fromDelta, isDeltaRequest } from "./cassette-delta.js";

export type { CallLine, CanonicalRequest, CassetteMeta, ToolsLine } from "./cassette-lines.js";

export const CASSETTE_FORMAT = 3;
/** The formats this build reads. */
const READABLE_FORMATS = new Set([1, 2, 3]);

/** A recorded call as the parser returns it: the full canonical request, whatever the format. */
interface CassetteCall extends Omit<CallLine, "request"> {
  request: CanonicalRequest;
}

/** A parsed call with where it came from (physical 1-based line numbers of the file). */
export interface ParsedCall extends CassetteCall {
  line: number;
  /** Format 2: the tools line its tools came from. */
  toolsLine?: number;
}

/** A tools line as read: `digest` is the SHA-256 of its tools as they are now (≠ id after an edit). */
interface ParsedTools {
  line: number;
  id: string;
  digest: string;
}

interface CassetteProblem {
  line: number;
  /** Subject-less, for a prefix naming the file: `line 3 is not JSON`. */
  message: string;
}

export interface CassetteRead {
  meta: CassetteMeta | null;
  calls: ParsedCall[];
  tools: ParsedTools[];
  problems: CassetteProblem[];
}

export type CassetteErrorCode = "cassette_mismatch" | "cassette_exhausted" | "cassette_leftover" | "cassette_invalid";

export class CassetteError extends TwError {
  constructor(code: CassetteErrorCode, message: string, details?: unknown) {
    super(code, message, EXIT.INTERNAL_ERROR, details);
    this.name = "CassetteError";
  }
}

const SECRET = /(sk-ant-[A-Za-z0-9_-]{6,}|sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{6,}|Bearer\s+[A-Za-z0-9._~+/-]{12,}=*)/g;

/**
 * Every known key in every echoed form (the one redactor, keys and values alike), then any other
 * credential-looking string, replaced at every level. The known keys go first: the pattern alone
 * would cut a key at its first `+` or `/` and keep its tail.
 */
export function redact<T>(value: T): T {
  return scrubPatterns(redactValue(value));
}

function scrubPatterns<T>(value: T): T {
  if (typeof value === "string") return value.replace(SECRET, "[redacted]") as T;
  if (Array.isArray(value)) return value.map((v) => scrubPatterns(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubPatterns(v);
    return out as T;
  }
  return value;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

interface CanonicalTools {
  value: unknown[];
  json: string;
  /** SHA-256 of `json`: the id of the tools line. */
  id: string;
  /** The UTF-8 of `json`, made on first hashing. */
  bytes?: Buffer;
}

/**
 * The canonical (and redacted) form of a tool list, by identity: a run offers one list, built once,
 * to every model call, and it is most of each request (canonicalising it per call cost about 10% of a
 * simulated day). Tool lists are never mutated after they are built.
 */
const canonicalTools = new WeakMap<object, CanonicalTools>();

function canonicalOfTools(tools: readonly unknown[]): CanonicalTools {
  // JSON.parse of a list's canonical JSON is that list (of plain JSON values).
  const value: unknown[] = redact(JSON.parse(canonicalJson(tools)));
  const json = canonicalJson(value);
  return { value, json, id: sha256(json) };
}

export function toolsCanonical(tools: readonly unknown[]): CanonicalTools {
  let hit = canonicalTools.get(tools);
  if (!hit) {
    hit = canonicalOfTools(tools);
    canonicalTools.set(tools, hit);
  }
  return hit;
}

/** Canonical JSON texts of requests made here, so requestKey need not rebuild them. */
const canonicalTexts = new WeakMap<object, string>();

/** A request's canonical text, with the tools' canonical JSON given (it is cached per list). */
function canonicalText(request: Record<string, unknown>, toolsJson: string): string {
  const keys = Object.keys(request)
    .filter((k) => request[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${k === "tools" ? toolsJson : canonicalJson(request[k])}`).join(",")}}`;
}

/**
 * The canonical (and redacted) form of one message, by identity: a run's transcript only grows, so
 * each request repeats every earlier message object unchanged, and canonicalising the whole history
 * on every call made the run's cost grow with the square of its turns. Messages are never mutated
 * once they are in a transcript (the loop appends; the clients copy before adding cache hints).
 */
const canonicalMessages = new WeakMap<object, CanonicalPiece>();

/** A canonical value with its JSON text; `bytes` (the UTF-8 of `json`) is made on first hashing. */
interface CanonicalPiece {
  value: unknown;
  json: string;
  bytes?: Buffer;
}

/** What in a canonical text the redaction could change: a credential-like prefix, or a key JSON.parse keeps and an object copy drops. */
const MAY_REDACT = /sk-|Bearer|__proto__/;

/**
 * `value`'s redacted canonical form and its JSON: the canonical JSON read back and redacted, then
 * written again. With no secret registered and nothing credential-like in the text, the redaction
 * cannot change it, and the first text (read back once) is the answer.
 */
function redactedCanonical(value: unknown): CanonicalPiece {
  const json = canonicalJson(value);
  if (redactor.size === 0 && !MAY_REDACT.test(json)) return { value: JSON.parse(json) as unknown, json };
  const redacted = redact(JSON.parse(json) as unknown);
  return { value: redacted, json: canonicalJson(redacted) };
}

function messageCanonical(message: unknown): CanonicalPiece {
  if (message === null || typeof message !== "object") return redactedCanonical(message ?? null);
  let hit = canonicalMessages.get(message);
  if (!hit) {
    hit = redactedCanonical(message);
    canonicalMessages.set(message, hit);
  }
  return hit;
}

/**
 * The canonical text of requests made by canonicalRequest, as pieces (the cached message and tool
 * texts are shared, not copied into one string per call): requestKey hashes them in order.
 */
const canonicalPieces = new WeakMap<object, (string | CanonicalPiece)[]>();

export function canonicalRequest(req: Pick<ModelRequest, "system" | "tools" | "messages" | "maxTokens">): CanonicalRequest {
  // A request that offers no tools (a cast-built one: the type asks for a list) records none.
  const tools = req.tools === undefined ? undefined : toolsCanonical(req.tools);
  const messages = req.messages.map(messageCanonical);
  // The scalars as their canonical JSON reads back (the same text and number), redacted.
  const scalars = redactedCanonical({ system: req.system, max_tokens: req.maxTokens }).value as Pick<CanonicalRequest, "system" | "max_tokens">;
  // Keys in canonical (sorted) order: max_tokens, messages, system, tools.
  const request: CanonicalRequest = { max_tokens: scalars.max_tokens, messages: messages.map((m) => m.value), system: scalars.system };
  const pieces: (string | CanonicalPiece)[] = [`{"max_tokens":${canonicalJson(scalars.max_tokens)},"messages":[`];
  messages.forEach((m, i) => {
    if (i > 0) pieces.push(",");
    pieces.push(m);
  });
  pieces.push(`],"system":${canonicalJson(scalars.system)}`);
  if (tools !== undefined) {
    request.tools = tools.value;
    pieces.push(`,"tools":`, tools);
  }
  pieces.push("}");
  canonicalPieces.set(request, pieces);
  return request;
}

/** The key of a request: SHA-256 of its canonical JSON, full tool list included (format 1 and 2 alike). */
export function requestKey(canonical: CanonicalRequest): string {
  const pieces = canonicalPieces.get(canonical);
  if (!pieces) return sha256(canonicalTexts.get(canonical) ?? canonicalJson(canonical));
  const hash = createHash("sha256");
  for (const p of pieces) {
    if (typeof p === "string") hash.update(p);
    else hash.update((p.bytes ??= Buffer.from(p.json, "utf8")));
  }
  return hash.digest("hex");
}

// ---- parsing ----

interface KnownTools {
  line: number;
  tools: unknown[];
  json: string;
}

type Line = Record<string, unknown>;

const isJsonObject = (v: unknown): v is Line => v !== null && typeof v === "object" && !Array.isArray(v);

function parseJson(text: string): Line | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isJsonObject(v) ? v : {};
  } catch {
    return undefined;
  }
}

function metaProblem(rec: Line, line: number): string | null {
  if (rec.type !== "meta") return `line ${line} is not the meta line`;
  if (rec.format !== undefined && !(typeof rec.format === "number" && READABLE_FORMATS.has(rec.format))) {
    return `line ${line}: format ${JSON.stringify(rec.format)} is not one this build reads (${[...READABLE_FORMATS].join(", ")})`;
  }
  if (!isCassetteMeta(rec)) return `line ${line} is not a valid meta line (contract_version, model and created_at are text)`;
  return null;
}

/** What the parser carries from line to line: the tools lines read, the format, the previous call's full request (format 3). */
interface ReadState {
  known: Map<string, KnownTools>;
  format: number;
  prev: CanonicalRequest | null;
}

/** A format 3 call line's request, rebuilt on the previous call's, or a problem. */
function resolveDelta(
  stored: unknown,
  line: number,
  prev: CanonicalRequest | null,
  known: Map<string, KnownTools>,
): { request: CanonicalRequest; toolsLine?: number } | string {
  if (!isDeltaRequest(stored)) return `line ${line}: its request is not a recorded delta (max_tokens, kept, messages, and system or tools_ref when present)`;
  const full = fromDelta(prev, stored);
  if (typeof full === "string") return `line ${line}: its request ${full}`;
  return resolveRequest(stored.tools_ref === undefined ? full : { ...full, tools_ref: stored.tools_ref }, line, known);
}

/** A call line's full request (tools resolved), or a problem. */
function resolveRequest(stored: unknown, line: number, known: Map<string, KnownTools>): { request: CanonicalRequest; toolsLine?: number } | string {
  const invalid = `line ${line}: its request is not a recorded request (system, messages, max_tokens, and tools or tools_ref)`;
  if (!isStoredRequest(stored)) return invalid;
  if (stored.tools_ref === undefined) return isCanonicalRequest(stored) ? { request: stored } : invalid;
  if ("tools" in stored) return `line ${line} has both tools and tools_ref`;
  const tools = known.get(stored.tools_ref);
  if (!tools) return `line ${line}: tools_ref ${JSON.stringify(stored.tools_ref)} names no earlier tools line`;
  const { tools_ref: _ref, ...rest } = stored;
  const request: CanonicalRequest = { ...rest, tools: tools.tools };
  canonicalTexts.set(request, canonicalText(request, tools.json));
  return { request, toolsLine: tools.line };
}

/** Reads a tools line into `known` and `out`; a problem's message, or null. */
function readToolsLine(rec: Line, line: number, known: Map<string, KnownTools>, out: CassetteRead): string | null {
  if (typeof rec.id !== "string" || !Array.isArray(rec.tools)) return `line ${line} is not a valid tools line (id and tools)`;
  const earlier = known.get(rec.id);
  if (earlier) return `line ${line} repeats the tools line ${earlier.line}`;
  const json = canonicalJson(rec.tools);
  known.set(rec.id, { line, tools: rec.tools, json });
  out.tools.push({ line, id: rec.id, digest: sha256(json) });
  return null;
}

/** Reads one line after the meta line into `out`; a problem's message, or null. */
function readLine(rec: Line, line: number, state: ReadState, out: CassetteRead): string | null {
  if (rec.type === "tools") return readToolsLine(rec, line, state.known, out);
  const { response, request } = rec;
  // Format 3: a call that cannot be read leaves no request for the next one to build on.
  const prev = state.prev;
  if (rec.type === "call") state.prev = null;
  if (!isCallHead(rec) || (response === undefined && rec.error === undefined)) return `line ${line} is not a recorded call`;
  if (response !== undefined && !isModelResponse(response)) return `line ${line}: its response is not a model answer (content, stop_reason, usage, model)`;
  const resolved = state.format === 3 ? resolveDelta(request, line, prev, state.known) : resolveRequest(request, line, state.known);
  if (typeof resolved === "string") return resolved;
  if (state.format === 3) state.prev = resolved.request;
  const call: ParsedCall = { type: "call", index: rec.index, key: rec.key, request: resolved.request, line };
  if (response !== undefined) call.response = response;
  if (rec.error !== undefined) call.error = rec.error;
  if (resolved.toolsLine !== undefined) call.toolsLine = resolved.toolsLine;
  out.calls.push(call);
  return null;
}

/**
 * Reads a cassette of any readable format, collecting every problem (for audit) instead of stopping
 * at the first. Calls whose tools cannot be resolved are left out (their problem says why).
 * Resolved requests share their tool list's array: never mutate it.
 */
export function readCassette(jsonl: string): CassetteRead {
  const out: CassetteRead = { meta: null, calls: [], tools: [], problems: [] };
  const state: ReadState = { known: new Map(), format: 1, prev: null };
  let first = true;
  for (const [i, text] of jsonl.split("\n").entries()) {
    if (text.trim().length === 0) continue;
    const line = i + 1;
    const rec = parseJson(text);
    const wasFirst = first;
    first = false;
    let problem: string | null = rec ? null : `line ${line} is not JSON`;
    if (!rec) state.prev = null; // format 3: a lost line leaves nothing to build on
    if (rec && wasFirst) {
      problem = metaProblem(rec, line);
      if (isCassetteMeta(rec)) out.meta = rec;
      if (!problem) state.format = out.meta?.format ?? 1;
    } else if (rec) {
      problem = readLine(rec, line, state, out);
    }
    if (problem) out.problems.push({ line, message: problem });
  }
  if (!out.meta && out.problems.length === 0) out.problems.push({ line: 1, message: "has no meta line (it is empty)" });
  return out;
}

export interface ParsedCassette {
  meta: CassetteMeta;
  calls: ParsedCall[];
  tools: ParsedTools[];
}

/** Reads a cassette of any readable format; the first problem is a CassetteError "cassette_invalid". */
export function parseCassette(jsonl: string): ParsedCassette {
  const read = readCassette(jsonl);
  const first = read.problems[0];
  if (first || !read.meta) {
    throw new CassetteError("cassette_invalid", `cassette ${first?.message ?? "has no meta line"}`, { line: first?.line });
  }
  return { meta: read.meta, calls: read.calls, tools: read.tools };
}
