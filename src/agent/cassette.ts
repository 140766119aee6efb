/**
 * Cassettes: record every model request and response of a run as JSONL, and replay them.
 *
 * Format: a meta line `{type:"meta", format, contract_version, model, created_at}`, then one line
 * per call `{type:"call", index, key, request, response | error}` where `key` is the SHA-256 of the
 * canonical request (system + tools + messages + max_tokens as JSON with sorted keys). Timeouts,
 * signals, headers and API keys are never part of a request here, and strings that look like
 * credentials are redacted before anything is written.
 *
 * Replay fails closed (CassetteError, which the loop rethrows): on a changed request (the message
 * names the first differing path), on running out of recorded calls, on a contract-version change,
 * and on leftovers (`assertConsumed()`).
 */
import { redact as redactSecrets } from "../core/redact.js";
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { type CallHooks, ModelCallError, type ModelClient, type ModelRequest, type ModelResponse } from "./types.js";

export const CASSETTE_FORMAT = 1;

export interface CassetteMeta {
  type: "meta";
  format: number;
  contract_version: string;
  model: string;
  created_at: string;
}

export interface CanonicalRequest {
  system: string;
  tools: unknown[];
  messages: unknown[];
  max_tokens: number;
}

export interface CassetteCall {
  type: "call";
  index: number;
  key: string;
  request: CanonicalRequest;
  response?: ModelResponse;
  error?: { kind: ModelCallError["kind"]; message: string; status?: number };
}

export type CassetteErrorCode = "cassette_mismatch" | "cassette_exhausted" | "cassette_leftover" | "cassette_invalid";

export class CassetteError extends TwError {
  constructor(code: CassetteErrorCode, message: string, details?: unknown) {
    super(code, message, EXIT.INTERNAL_ERROR, details);
    this.name = "CassetteError";
  }
}

const SECRET = /(sk-ant-[A-Za-z0-9_-]{6,}|sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{6,}|Bearer\s+[A-Za-z0-9._~+/-]{12,}=*)/g;

function redact<T>(value: T): T {
  if (typeof value === "string") return value.replace(SECRET, "[redacted]") as T;
  if (Array.isArray(value)) return value.map((v) => redact(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redact(v);
    return out as T;
  }
  return value;
}

/** JSON with object keys sorted at every level and `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
}

/**
 * The canonical (and redacted) form of a tool list, by identity: a run offers one list, built once,
 * to every model call, and it is most of each request (canonicalising it per call cost about 10% of a
 * simulated day). Tool lists are never mutated after they are built.
 */
const canonicalTools = new WeakMap<object, { value: unknown; json: string }>();

function toolsCanonical(tools: unknown): { value: unknown; json: string } {
  if (tools === null || typeof tools !== "object") {
    const value = redact(JSON.parse(canonicalJson(tools ?? null)) as unknown);
    return { value, json: canonicalJson(value) };
  }
  let hit = canonicalTools.get(tools);
  if (!hit) {
    const value = redact(JSON.parse(canonicalJson(tools)) as unknown);
    hit = { value, json: canonicalJson(value) };
    canonicalTools.set(tools, hit);
  }
  return hit;
}

/** Canonical JSON texts of requests made by canonicalRequest, so requestKey need not rebuild them. */
const canonicalTexts = new WeakMap<object, string>();

export function canonicalRequest(req: Pick<ModelRequest, "system" | "tools" | "messages" | "maxTokens">): CanonicalRequest {
  const tools = toolsCanonical(req.tools);
  const rest = redact(JSON.parse(canonicalJson({ system: req.system, messages: req.messages, max_tokens: req.maxTokens })) as Record<string, unknown>);
  // Keys in canonical (sorted) order, so the object serialises as its canonical text.
  const request: Record<string, unknown> = {};
  for (const k of Object.keys(rest)) if (k < "tools") request[k] = rest[k];
  if (req.tools !== undefined) request.tools = tools.value;
  for (const k of Object.keys(rest)) if (k > "tools") request[k] = rest[k];
  const text = `{${Object.keys(request)
    .map((k) => `${JSON.stringify(k)}:${k === "tools" ? tools.json : canonicalJson(request[k])}`)
    .join(",")}}`;
  canonicalTexts.set(request, text);
  return request as unknown as CanonicalRequest;
}

export function requestKey(canonical: CanonicalRequest): string {
  const text = canonicalTexts.get(canonical as object) ?? canonicalJson(canonical);
  return createHash("sha256").update(text).digest("hex");
}

/** The first path at which two JSON values differ (`$.messages[3].content[0].text`), or null. */
export function firstDifference(a: unknown, b: unknown, path = "$"): string | null {
  if (a === b) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return path;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return a.length === b.length ? null : `${path}[${n}]`;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort();
  for (const k of keys) {
    const d = firstDifference(ao[k], bo[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

function valueAt(root: unknown, path: string): unknown {
  const parts = path.replace(/^\$/, "").match(/\.[^.[]+|\[\d+\]/g) ?? [];
  let cur: unknown = root;
  for (const p of parts) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = p.startsWith("[") ? (cur as unknown[])[Number(p.slice(1, -1))] : (cur as Record<string, unknown>)[p.slice(1)];
  }
  return cur;
}

const preview = (v: unknown) => {
  const s = v === undefined ? "(absent)" : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

export interface RecordingOptions {
  contractVersion: string;
  /** Called with each JSONL line as it is produced (e.g. append to runs/<id>/cassette.jsonl). */
  sink?: (line: string) => void;
  now?: () => Date;
}

/** Wraps a client and records every call (responses and failures) in order. */
export class RecordingClient implements ModelClient {
  readonly model: string;
  readonly lines: string[] = [];
  private index = 0;

  constructor(
    private readonly inner: ModelClient,
    private readonly opts: RecordingOptions,
  ) {
    this.model = inner.model;
    const meta: CassetteMeta = {
      type: "meta",
      format: CASSETTE_FORMAT,
      contract_version: opts.contractVersion,
      model: inner.model,
      created_at: (opts.now?.() ?? new Date()).toISOString(),
    };
    this.write(meta);
  }

  private write(obj: unknown): void {
    const line = JSON.stringify(obj);
    this.lines.push(line);
    this.opts.sink?.(line);
  }

  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    const request = canonicalRequest(req);
    const entry: CassetteCall = { type: "call", index: this.index++, key: requestKey(request), request };
    try {
      const response = await this.inner.complete(req, hooks);
      entry.response = redact(response);
      this.write(entry);
      return response;
    } catch (e) {
      const err = e instanceof ModelCallError ? e : new ModelCallError("protocol", (e as Error)?.message ?? String(e));
      entry.error = { kind: err.kind, message: redact(err.message) };
      if (err.status !== undefined) entry.error.status = err.status;
      this.write(entry);
      throw e;
    }
  }

  toJsonl(): string {
    return this.lines.map((l) => `${l}\n`).join("");
  }
}

/** A sink that appends each line to a file (created empty first). */
export function fileSink(path: string): (line: string) => void {
  writeFileSync(path, "");
  return (line) => appendFileSync(path, `${redactSecrets(line)}\n`);
}

export interface ReplayOptions {
  /** When given, a cassette recorded under another contract version is refused. */
  contractVersion?: string;
}

/** Replays a recorded cassette; any drift fails closed. */
export class ReplayClient implements ModelClient {
  readonly model: string;
  readonly meta: CassetteMeta;
  private readonly calls: CassetteCall[];
  private next = 0;

  constructor(jsonl: string, opts: ReplayOptions = {}) {
    const lines = jsonl.split("\n").filter((l) => l.trim().length > 0);
    const parsed = lines.map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new CassetteError("cassette_invalid", `cassette line ${i + 1} is not JSON`);
      }
    });
    const meta = parsed[0];
    if (meta?.type !== "meta") throw new CassetteError("cassette_invalid", "the cassette does not start with a meta line");
    this.meta = meta as unknown as CassetteMeta;
    if (opts.contractVersion !== undefined && this.meta.contract_version !== opts.contractVersion) {
      throw new CassetteError(
        "cassette_mismatch",
        `the cassette was recorded with tool contract ${this.meta.contract_version}, this build has ${opts.contractVersion}`,
      );
    }
    this.model = this.meta.model;
    this.calls = parsed.slice(1).map((c, i) => {
      if (c.type !== "call" || typeof c.key !== "string" || (c.response === undefined && c.error === undefined)) {
        throw new CassetteError("cassette_invalid", `cassette line ${i + 2} is not a recorded call`);
      }
      return c as unknown as CassetteCall;
    });
  }

  static fromFile(path: string, opts: ReplayOptions = {}): ReplayClient {
    return new ReplayClient(readFileSync(path, "utf8"), opts);
  }

  get remaining(): number {
    return this.calls.length - this.next;
  }

  async complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    const request = canonicalRequest(req);
    const recorded = this.calls[this.next];
    if (!recorded) {
      throw new CassetteError("cassette_exhausted", `the cassette ran out: call ${this.next + 1} was requested but only ${this.calls.length} were recorded`);
    }
    const key = requestKey(request);
    if (key !== recorded.key) {
      const path = firstDifference(recorded.request, request) ?? "$ (recorded key does not match its request)";
      throw new CassetteError(
        "cassette_mismatch",
        `request ${this.next + 1} differs from the recording at ${path}: recorded ${preview(valueAt(recorded.request, path))}, now ${preview(valueAt(request, path))}`,
        { index: this.next, path },
      );
    }
    this.next += 1;
    if (recorded.error) throw new ModelCallError(recorded.error.kind, recorded.error.message, recorded.error.status);
    const response = recorded.response as ModelResponse;
    if (hooks?.onText) {
      for (const b of response.content) if (b.type === "text" && typeof b.text === "string" && b.text) hooks.onText(b.text);
    }
    return structuredClone(response);
  }

  /** Fails when recorded calls were not replayed. */
  assertConsumed(): void {
    if (this.remaining > 0) {
      throw new CassetteError("cassette_leftover", `${this.remaining} recorded call(s) were not replayed (replayed ${this.next} of ${this.calls.length})`);
    }
  }
}
