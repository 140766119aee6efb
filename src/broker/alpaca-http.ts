/**
 * The Alpaca adapter's HTTP client: one request per `send` with a timeout (network failures become
 * `timeout` / `broker_unreachable`), GETs with a bounded retry on 429 that honours `Retry-After` /
 * `X-RateLimit-Reset`, and the mapping of error statuses and bodies to `BrokerError`s. The keys
 * travel only in request headers; any broker-provided message is redacted and bounded.
 */
import { EXIT } from "../core/exit-codes.js";
import { redact } from "../core/redact.js";
import { badShape } from "./alpaca-wire.js";
import { BrokerError, type BrokerErrorCode } from "./errors.js";
import { ALPACA_PAPER_HOST } from "./guard.js";

export interface AlpacaHttpOptions {
  /** The normalized base URL (no trailing `/`, no `/v2`). */
  base: string;
  keyId: string;
  secret: string;
  fetch: typeof fetch;
  /** Per request, milliseconds. */
  timeoutMs: number;
  /** Retries of a rate-limited (429) GET. */
  rateLimitRetries: number;
  /** Longest wait before retrying a rate-limited GET, milliseconds. */
  maxRateLimitWaitMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

export interface AlpacaResponse {
  status: number;
  text: string;
  headers: Headers;
}

export class AlpacaHttp {
  constructor(private readonly o: AlpacaHttpOptions) {}

  private url(path: string, query?: Record<string, string>): string {
    const qs = query ? `?${new URLSearchParams(query).toString()}` : "";
    return `${this.o.base}${path}${qs}`;
  }

  /** One request, one attempt, with a timeout. Network failures become `timeout` / `broker_unreachable`. */
  async send(method: "GET" | "POST" | "DELETE", path: string, query?: Record<string, string>, body?: string): Promise<AlpacaResponse> {
    const what = `${method} ${path.replace(/\/v2\/orders\/[^/?]+$/, "/v2/orders/{id}")}`;
    const headers: Record<string, string> = {
      "APCA-API-KEY-ID": this.o.keyId,
      "APCA-API-SECRET-KEY": this.o.secret,
      Accept: "application/json",
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    try {
      const res = await this.o.fetch(this.url(path, query), {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        redirect: "error",
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      const text = await res.text();
      return { status: res.status, text, headers: res.headers };
    } catch (e) {
      const name = (e as { name?: string } | undefined)?.name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new BrokerError("timeout", `${what} timed out after ${this.o.timeoutMs} ms`);
      }
      const cause = (e as { cause?: { code?: string } } | undefined)?.cause?.code;
      throw new BrokerError("broker_unreachable", `${what} failed: ${cleanMessage((e as Error)?.message ?? String(e))}${cause ? ` (${cause})` : ""}`);
    }
  }

  /** A GET with a bounded retry on 429 (GETs only). Non-2xx statuses other than `accept` throw. */
  async get(path: string, query?: Record<string, string>, accept: readonly number[] = []): Promise<{ status: number; text: string }> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.send("GET", path, query);
      if (res.status === 429 && attempt < this.o.rateLimitRetries) {
        await this.o.sleep(this.rateLimitWait(res.headers));
        continue;
      }
      if ((res.status >= 200 && res.status < 300) || accept.includes(res.status)) return res;
      throw statusError(`GET ${path}`, res.status, res.text);
    }
  }

  async getJson<T>(path: string, query?: Record<string, string>): Promise<T> {
    return parseJson<T>((await this.get(path, query)).text, path);
  }

  private rateLimitWait(headers: Headers): number {
    const cap = (ms: number) => Math.min(Math.max(0, ms), this.o.maxRateLimitWaitMs);
    const retryAfter = headers.get("retry-after");
    if (retryAfter !== null && retryAfter.trim() !== "") {
      const s = Number(retryAfter);
      if (Number.isFinite(s)) return cap(s * 1000);
      const at = Date.parse(retryAfter);
      if (Number.isFinite(at)) return cap(at - this.o.now());
    }
    const reset = Number(headers.get("x-ratelimit-reset"));
    if (headers.get("x-ratelimit-reset") !== null && Number.isFinite(reset)) return cap(reset * 1000 - this.o.now());
    return cap(1000);
  }
}

function statusError(what: string, status: number, text: string): BrokerError {
  if (status === 401 || status === 403) return authError(status);
  const code: BrokerErrorCode = status === 404 && what.startsWith("GET /v2/orders") ? "order_not_found" : "broker_unreachable";
  return new BrokerError(code, `${what} answered ${status}${errorSuffix(text)}`);
}

export function authError(status: number): BrokerError {
  return new BrokerError(
    "broker_unreachable",
    `the broker refused the credentials (${status}): check APCA_API_KEY_ID / APCA_API_SECRET_KEY (paper keys for ${ALPACA_PAPER_HOST})`,
    EXIT.USAGE_OR_CONFIG,
  );
}

/** ` (message)` from an Alpaca error body, cleaned, or "". */
export function errorSuffix(text: string): string {
  const m = alpacaError(text).message;
  return m ? ` (${cleanMessage(m)})` : "";
}

/** A response body as JSON; throws `badShape(what)` when it is not. */
export function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw badShape(what);
  }
}

/** Redacts the keys (belt and braces) and bounds the length of a broker-provided message. */
export function cleanMessage(message: string | undefined): string {
  if (!message) return "";
  const m = redact(message);
  return m.length > 300 ? `${m.slice(0, 300)}…` : m;
}

/** `{ code, message }` from an Alpaca error body, if it is one. */
export function alpacaError(text: string): { code?: number; message?: string } {
  try {
    const j = JSON.parse(text) as { code?: unknown; message?: unknown };
    return { ...(typeof j.code === "number" ? { code: j.code } : {}), ...(typeof j.message === "string" ? { message: j.message } : {}) };
  } catch {
    return {};
  }
}
