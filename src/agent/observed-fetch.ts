/**
 * A `fetch` wrapper that tells the current call's hooks about each SDK retry. Both model clients
 * hand it to their SDK: the SDKs retry internally (408/409/429/5xx, connection errors), and this is
 * where a retry becomes visible (a `model.retry` run event), with the reason of the failed attempt.
 */
import { redact } from "../core/redact.js";
import type { CallHooks } from "./types.js";

interface CallState {
  attempts: number;
  last: string;
  hooks: CallHooks | undefined;
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
    try {
      const res = await this.baseFetch(input, init);
      if (call) call.last = `HTTP ${res.status}${res.status === 429 && res.headers.get("retry-after") ? ` (retry-after ${res.headers.get("retry-after")}s)` : ""}`;
      return res;
    } catch (e) {
      if (call) call.last = `connection error (${redact((e as Error).message)})`;
      throw e;
    }
  };

  /** Runs one call with its hooks attached to the attempts it makes. */
  async observe<T>(hooks: CallHooks | undefined, call: () => Promise<T>): Promise<T> {
    this.current = { attempts: 0, last: "a failed attempt", hooks };
    try {
      return await call();
    } finally {
      this.current = undefined;
    }
  }
}
