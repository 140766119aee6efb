/**
 * Cassettes: record every model request and response of a run as JSONL, and replay them.
 *
 * Format 3 (CASSETTE_FORMAT) is format 2 with each call's request stored as a delta on the previous
 * call's (./cassette-delta.ts): `{max_tokens, system?, tools_ref?, kept, messages}`; its key is still
 * that of the full request, which every reader rebuilds. Format 2 (the lines and the parser are in
 * cassette-format.ts):
 * - a meta line `{type:"meta", format, contract_version, tools?, model, created_at}` (`tools`: the
 *   names of the tools the run offered; absent in older cassettes, which offered their version's all);
 * - each distinct tool list once, `{type:"tools", id, tools}` (id: SHA-256 of the tools' canonical
 *   JSON), right before the first call that offers it: the catalogue with its JSON Schemas is most of
 *   every request, so it is not repeated per call;
 * - one line per call `{type:"call", index, key, request: {system, messages, max_tokens, tools_ref},
 *   response | error}`; a request without tools has neither `tools` nor `tools_ref`.
 * `key` is the SHA-256 of the canonical request *with the full tool list* (system + tools + messages +
 * max_tokens as JSON with sorted keys), exactly as in format 1, whose call lines carried `tools`
 * inline; both formats are read (parseCassette) and replay. Timeouts, signals, headers and API keys
 * are never part of a request here, and strings that look like credentials are redacted before
 * anything is written.
 *
 * Replay fails closed (CassetteError, which the loop rethrows): on a changed request (the message
 * names the first differing path), on an edited tools line (a path under `$.tools`), on running out
 * of recorded calls, on a contract-version change, on an unreadable cassette (`cassette_invalid`,
 * naming the line) and on leftovers (`assertConsumed()`).
 */
import { withShallowToolInputs } from "./deep-input.js";
import { redact as redactSecrets } from "../core/redact.js";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { type CallHooks, ModelCallError, type ModelClient, type ModelRequest, type ModelResponse } from "./types.js";
import {
  CASSETTE_FORMAT,
  type CallLine,
  type CassetteMeta,
  CassetteError,
  type CanonicalRequest,
  canonicalRequest,
  type ParsedCall,
  type ParsedCassette,
  parseCassette,
  redact,
  requestKey,
  type ToolsLine,
  toolsCanonical,
} from "./cassette-format.js";
import { deltaOf } from "./cassette-delta.js";

export {
  CASSETTE_FORMAT,
  type CallLine,
  type CanonicalRequest,
  CassetteError,
  type CassetteMeta,
  type CassetteRead,
  canonicalRequest,
  type ParsedCall,
  type ParsedCassette,
  parseCassette,
  readCassette,
  requestKey,
} from "./cassette-format.js";

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
  /** The names of the tools the run offers (recorded in the meta line, so a replay offers the same). */
  tools?: readonly string[];
  /** Called with each JSONL line as it is produced (e.g. append to runs/<id>/cassette.jsonl). */
  sink?: (line: string) => void;
  now?: () => Date;
}

/** Wraps a client and records every call (responses and failures) in order. */
export class RecordingClient implements ModelClient {
  readonly model: string;
  readonly lines: string[] = [];
  private index = 0;
  /** Ids of the tool lists already written (each is written once). */
  private readonly toolsWritten = new Set<string>();
  /** The previous call's full request: the next call line stores its request as a delta on it. */
  private prev: CanonicalRequest | null = null;

  constructor(
    private readonly inner: ModelClient,
    private readonly opts: RecordingOptions,
  ) {
    this.model = inner.model;
    const meta: CassetteMeta = {
      type: "meta",
      format: CASSETTE_FORMAT,
      contract_version: opts.contractVersion,
      ...(opts.tools ? { tools: [...opts.tools] } : {}),
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
    // A request that offers no tools (only a cast-built one: the type asks for a list) has no tools line.
    const tools = req.tools === undefined ? null : toolsCanonical(req.tools);
    const entry: CallLine = { type: "call", index: this.index++, key: requestKey(request), request: deltaOf(this.prev, request, tools?.id ?? null) };
    this.prev = request;
    try {
      // Too-deep tool arguments are cut before they are recorded (./deep-input.ts).
      const response = withShallowToolInputs(await this.inner.complete(req, hooks));
      entry.response = redact(response);
      this.writeCall(entry, tools);
      return response;
    } catch (e) {
      const err = e instanceof ModelCallError ? e : new ModelCallError("protocol", (e as Error)?.message ?? String(e));
      entry.error = { kind: err.kind, message: redact(err.message) };
      if (err.status !== undefined) entry.error.status = err.status;
      this.writeCall(entry, tools);
      throw e;
    }
  }

  /** A call line, preceded by its tools line the first time its tool list is used. */
  private writeCall(entry: CallLine, tools: { id: string; value: unknown[] } | null): void {
    if (tools && !this.toolsWritten.has(tools.id)) {
      this.toolsWritten.add(tools.id);
      const line: ToolsLine = { type: "tools", id: tools.id, tools: tools.value };
      this.write(line);
    }
    this.write(entry);
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

/** Replays a recorded cassette (format 1 or 2, or one already parsed); any drift fails closed. */
export class ReplayClient implements ModelClient {
  readonly model: string;
  readonly meta: CassetteMeta;
  /** The recorded calls, each with its full canonical request. */
  readonly calls: readonly ParsedCall[];
  /** The current digest of each tools line's tools, by line (an edited line no longer matches its id). */
  private readonly toolsDigest: ReadonlyMap<number, string>;
  private next = 0;

  constructor(cassette: string | ParsedCassette, opts: ReplayOptions = {}) {
    const parsed = typeof cassette === "string" ? parseCassette(cassette) : cassette;
    this.meta = parsed.meta;
    if (opts.contractVersion !== undefined && this.meta.contract_version !== opts.contractVersion) {
      throw new CassetteError(
        "cassette_mismatch",
        `the cassette was recorded with tool contract ${this.meta.contract_version}, this build has ${opts.contractVersion}`,
      );
    }
    this.model = this.meta.model;
    this.calls = parsed.calls;
    this.toolsDigest = new Map(parsed.tools.map((t) => [t.line, t.digest]));
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
    if (requestKey(request) !== recorded.key) throw this.mismatch(recorded, request, "$ (recorded key does not match its request)");
    // The key was computed when the call was recorded: a tools line edited since would go unnoticed.
    const digest = recorded.toolsLine === undefined ? undefined : this.toolsDigest.get(recorded.toolsLine);
    if (digest !== undefined && digest !== toolsCanonical(req.tools).id) throw this.mismatch(recorded, request, "$.tools");
    // The recorded request (rebuilt from its delta in format 3) must be the one its key was made of:
    // an edited call line is found here, naming the first path where it differs from this request.
    if (requestKey(recorded.request) !== recorded.key) throw this.mismatch(recorded, request, "$ (the recorded request does not match its key)");
    this.next += 1;
    if (recorded.error) throw new ModelCallError(recorded.error.kind, recorded.error.message, recorded.error.status);
    const response = recorded.response;
    // The parser keeps only calls with a response or an error.
    if (!response) throw new CassetteError("cassette_invalid", `recorded call ${this.next} has neither a response nor an error`);
    if (hooks?.onText) {
      for (const b of response.content) if (b.type === "text" && typeof b.text === "string" && b.text) hooks.onText(b.text);
    }
    return structuredClone(response);
  }

  private mismatch(recorded: ParsedCall, request: unknown, fallback: string): CassetteError {
    const path = firstDifference(recorded.request, request) ?? fallback;
    return new CassetteError(
      "cassette_mismatch",
      `request ${this.next + 1} differs from the recording at ${path}: recorded ${preview(valueAt(recorded.request, path))}, now ${preview(valueAt(request, path))}`,
      { index: this.next, path },
    );
  }

  /** Fails when recorded calls were not replayed. */
  assertConsumed(): void {
    if (this.remaining > 0) {
      throw new CassetteError("cassette_leftover", `${this.remaining} recorded call(s) were not replayed (replayed ${this.next} of ${this.calls.length})`);
    }
  }
}
