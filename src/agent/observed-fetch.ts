/**
 * A `fetch` wrapper both model clients hand to their SDK. It:
 * - tells the current call's hooks about each SDK retry (the SDKs retry internally: 408/409/429/5xx,
 *   connection errors); this is where a retry becomes visible (a `model.retry` run event), with the
 *   reason of the failed attempt;
 * - never follows a redirect (`redirect: "manual"`): a 3xx would carry the whole prompt to wherever
 *   the endpoint points, another origin included. The call fails instead, naming the redirect (as the
 *   broker's HTTP client refuses redirects, src/broker/alpaca-http.ts);
 * - notes what the last answer was (endpoint, status, content type, size, its first characters), so
 *   a client that finds the answer unusable can say what came back (`describeAnswer`).
 */
import { redact } from "../core/redact.js";
import { ModelCallError } from "./types.js";
import type { CallHooks } from "./types.js";

/** What the last response of a call was, as far as the client needs to describe it. */
export interface AnswerSeen {
  endpoint: string;
  status: number;
  contentType: string;
  bytes: number;
  head: string;
}

interface CallState {
  attempts: number;
  last: string;
  hooks: CallHooks | undefined;
  redirect?: { endpoint: string; status: number; location: string };
  answer?: AnswerSeen;
}

const HEAD_CHARS = 120;

/** A URL as it may be shown: origin and path, no credentials, no query. */
export function endpointOf(url: string | URL | Request): string {
  try {
    const u = new URL(typeof url === "string" || url instanceof URL ? url : url.url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(an unparseable URL)";
  }
}

/** Text from a server, made safe for one line of a message: no control characters, bounded. */
function oneLine(text: string, max = HEAD_CHARS): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** One sentence about an answer that was not what the client asked for. */
export function describeAnswer(a: AnswerSeen, what: string): string {
  const type = a.contentType || "no content type";
  const body = a.bytes === 0 ? "an empty body" : `${a.bytes} bytes starting "${oneLine(a.head)}"`;
  return `the model endpoint ${a.endpoint} answered HTTP ${a.status} (${type}) with ${body}: ${what}`;
}

export class RetryObserver {
  private current: CallState | undefined;

  constructor(private readonly baseFetch: typeof fetch = globalThis.fetch) {}

  /** The fetch to give the SDK. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call = this.current;
    if (call) {
      call.attempts += 1;
      if (call.attempts > 1) call.hooks?.onRetry?.(call.attempts - 1, `retrying after ${call.last}`);
    }
    let res: Response;
    try {
      res = await this.baseFetch(input, { ...init, redirect: "manual" });
    } catch (e) {
      if (call) call.last = `connection error (${redact((e as Error).message)})`;
      throw e;
    }
    if (call)
      call.last = `HTTP ${res.status}${res.status === 429 && res.headers.get("retry-after") ? ` (retry-after ${res.headers.get("retry-after")}s)` : ""}`;
    const endpoint = endpointOf(input);
    if (res.status >= 300 && res.status < 400) {
      // Answered as the HTTP error it is (the SDK does not retry a 3xx); `observe` names it.
      if (call) call.redirect = { endpoint, status: res.status, location: oneLine(res.headers.get("location") ?? "(no location)", 200) };
      return res;
    }
    return call && res.ok && res.body ? this.noted(call, endpoint, res) : res;
  };

  /** The response with its body counted as the SDK reads it (size and first characters). */
  private noted(call: CallState, endpoint: string, res: Response): Response {
    const answer: AnswerSeen = { endpoint, status: res.status, contentType: res.headers.get("content-type") ?? "", bytes: 0, head: "" };
    call.answer = answer;
    const decoder = new TextDecoder();
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        if (answer.head.length < HEAD_CHARS * 2) answer.head += decoder.decode(chunk.subarray(0, HEAD_CHARS * 4), { stream: true });
        answer.bytes += chunk.byteLength;
        ctl.enqueue(chunk);
      },
    });
    return new Response((res.body as ReadableStream<Uint8Array>).pipeThrough(counter), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }

  /** What the current call's last answer was (for a client that finds it unusable). */
  answer(): AnswerSeen | undefined {
    return this.current?.answer;
  }

  /** Runs one call with its hooks attached to the attempts it makes. */
  async observe<T>(hooks: CallHooks | undefined, call: () => Promise<T>): Promise<T> {
    const state: CallState = { attempts: 0, last: "a failed attempt", hooks };
    this.current = state;
    try {
      return await call();
    } catch (e) {
      const r = state.redirect;
      if (r) {
        throw new ModelCallError(
          "protocol",
          `the model endpoint ${r.endpoint} answered with a redirect (HTTP ${r.status} to ${r.location}); redirects are never followed, so the request went nowhere else`,
          r.status,
        );
      }
      throw e;
    } finally {
      this.current = undefined;
    }
  }
}
