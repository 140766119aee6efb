/**
 * The live provider: Tavily through its official client (`@tavily/core`), key from TAVILY_API_KEY.
 * The request asks Tavily for news ending the day before the cutoff and for the configured domain
 * lists; the tool still applies every filter itself (a provider's filter is never trusted).
 * Off unless `research.provider = "tavily"`; tests point `apiBaseURL` at a loopback fake. The
 * client (and its HTTP stack) is loaded on the first search: importing it cost every command about
 * a quarter of a second of start-up, whether or not it searched.
 */
import type { tavily } from "@tavily/core";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import { redact, redactor } from "../core/redact.js";
import type { SearchOptions, SearchProvider, SearchResult } from "./types.js";

export const TAVILY_KEY_ENV = "TAVILY_API_KEY";
/** Tests only: a loopback base URL for the fake Tavily server. */
const TAVILY_BASE_URL_ENV = "TRADEWARDEN_TAVILY_BASE_URL";

const TIMEOUT_S = 20;

/** The day before a YYYY-MM-DD day. */
function dayBefore(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

function isLoopback(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === "127.0.0.1" || h === "localhost" || h === "[::1]" || h === "::1";
  } catch {
    return false;
  }
}

export class TavilyProvider implements SearchProvider {
  readonly name = "tavily";
  private client: Promise<ReturnType<typeof tavily>> | null = null;

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl?: string,
  ) {}

  private connect(): Promise<ReturnType<typeof tavily>> {
    this.client ??= import("@tavily/core").then((m) =>
      m.tavily({ apiKey: this.apiKey, ...(this.baseUrl ? { apiBaseURL: this.baseUrl.replace(/\/+$/, "") } : {}) }),
    );
    return this.client;
  }

  /** From the environment: the key is required (never logged); a base URL override must be loopback. */
  static fromEnv(env: NodeJS.ProcessEnv): TavilyProvider {
    const key = env[TAVILY_KEY_ENV];
    if (!key || key.trim() === "") {
      throw new TwError("research_key_missing", `research.provider = "tavily" needs ${TAVILY_KEY_ENV} in the environment`, EXIT.USAGE_OR_CONFIG);
    }
    // Known to the redactor before any request can echo it.
    redactor.register(TAVILY_KEY_ENV, key);
    const base = env[TAVILY_BASE_URL_ENV];
    if (base && !isLoopback(base)) {
      throw new TwError("research_base_url", `${TAVILY_BASE_URL_ENV} may only point at a loopback test server (got ${base})`, EXIT.USAGE_OR_CONFIG);
    }
    return new TavilyProvider(key.trim(), base || undefined);
  }

  async search(query: string, opts: SearchOptions): Promise<SearchResult[]> {
    const client = await this.connect();
    // A query leaves the process for a third party: no key of this process goes with it.
    const res = await settleWithin(
      TIMEOUT_S * 1000 + 2_000,
      client.search(redact(query), {
        topic: "news",
        searchDepth: "basic",
        maxResults: Math.min(20, Math.max(opts.maxResults * 2, opts.maxResults)),
        endDate: dayBefore(opts.cutoff),
        timeout: TIMEOUT_S,
        ...(opts.domains && opts.domains.allow.length > 0 ? { includeDomains: [...opts.domains.allow] } : {}),
        ...(opts.domains && opts.domains.block.length > 0 ? { excludeDomains: [...opts.domains.block] } : {}),
      }),
    );
    return (res.results ?? []).map((r) => ({
      title: String(r.title ?? ""),
      url: String(r.url ?? ""),
      snippet: String(r.content ?? ""),
      published: typeof r.publishedDate === "string" && r.publishedDate.trim() !== "" ? r.publishedDate : null,
      score: typeof r.score === "number" && Number.isFinite(r.score) ? r.score : 0,
      provider: this.name,
    }));
  }
}

/**
 * The client's answer, or a named error. Through a proxy whose tunnel is dropped (HTTPS_PROXY), the
 * client's request ends with neither an answer nor an error: its promise never settles and, with
 * nothing else to wait for, the process ran dry mid-command (`research search` exit 13 without a
 * word; a run exiting 0 and left "running"). Here the process running dry while the search is
 * pending ('beforeExit': nothing is left that could ever answer it) fails it at once, and `ms` of
 * silence fail it in any case.
 */
function settleWithin<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onDry: (() => void) | undefined;
  const silence = new Promise<never>((_, reject) => {
    const fail = (why: string) => reject(new TwError("research_unreachable", `Tavily gave no answer: ${why}`, EXIT.BROKER_OR_DATA_UNAVAILABLE));
    onDry = () => fail("the connection (or a proxy's tunnel, HTTPS_PROXY) was dropped without a response");
    process.once("beforeExit", onDry);
    timer = setTimeout(() => fail(`nothing within ${Math.round(ms / 1000)} s`), ms);
    timer.unref();
  });
  return Promise.race([work, silence]).finally(() => {
    clearTimeout(timer);
    if (onDry) process.off("beforeExit", onDry);
  });
}
