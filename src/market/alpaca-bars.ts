/**
 * Daily bars from Alpaca's market data API (`GET /v2/stocks/bars`): a thin `fetch` client for
 * `tradewarden data import-alpaca`.
 *
 * Safety (as the paper broker adapter, src/broker/alpaca.ts):
 * - The endpoint is checked before any network I/O: only `https://data.alpaca.markets` (a loopback
 *   URL only when the caller passes `allowLoopback`: tests against a loopback fake).
 * - Keys come only from the environment (`APCA_API_KEY_ID`, `APCA_API_SECRET_KEY`), travel only in
 *   request headers and never appear in an error message (a server message is redacted).
 * - Every request has a timeout; a 429 is retried a bounded number of times (`Retry-After` /
 *   `X-RateLimit-Reset`, capped); paging follows `next_page_token` for a bounded number of pages.
 * - Every bar is validated (finite, prices > 0, high ≥ max(open, close), low ≤ min(open, close),
 *   volume ≥ 0, New York dates strictly increasing and inside the asked range). One bad bar refuses
 *   the whole answer, naming the symbol, the date and the rule: nothing half-valid is returned.
 *
 * A daily bar's `t` is the New York midnight that opens its session (`…T05:00:00Z` in winter,
 * `…T04:00:00Z` in summer); the bar's date is the New York calendar day of that instant.
 */
import type { Bar } from "../core/domain.js";
import { EXIT, type ExitCode } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { barProblems } from "./bars.js";
import { isIsoDay } from "./calendar.js";
import { asciiSymbol, SYMBOL_PATTERN } from "./import.js";

const ALPACA_DATA_HOST = "data.alpaca.markets";
const ALPACA_DATA_URL = `https://${ALPACA_DATA_HOST}`;
/** Feeds the bars endpoint accepts (`iex` is the free one; `sip` needs a subscription for recent data). */
const ALPACA_FEEDS = ["iex", "sip", "delayed_sip"] as const;
export type AlpacaFeed = (typeof ALPACA_FEEDS)[number];
/** At most this many symbols per request (one URL). */
const MAX_ALPACA_SYMBOLS = 100;

export type MarketDataErrorCode =
  /** Bad input (symbols, dates, feed): nothing was sent. */
  | "usage"
  /** A base URL other than the data host: nothing was sent. */
  | "data_host_refused"
  | "missing_api_key"
  /** 401/403: the keys (or the subscription) were refused. */
  | "data_auth"
  /** 400/404/422: the API refused the request as asked. */
  | "data_request_refused"
  /** Network failure, timeout, 5xx, 429 past the retries, too many pages. */
  | "data_unavailable"
  /** The API answered, but not with bars we can trust. */
  | "data_invalid";

export class MarketDataError extends TwError {
  declare readonly code: MarketDataErrorCode;
  constructor(code: MarketDataErrorCode, message: string, exitCode: ExitCode) {
    super(code, message, exitCode);
    this.name = "MarketDataError";
  }
}

export interface FetchAlpacaBarsOptions {
  symbols: readonly string[];
  /** First New York trading date, YYYY-MM-DD (inclusive). */
  from: string;
  /** Last New York trading date, YYYY-MM-DD (inclusive). */
  to: string;
  /** Where the keys come from (`process.env` in the CLI). */
  env: Readonly<Record<string, string | undefined>>;
  /** Default `https://data.alpaca.markets` (a trailing `/` is ignored). */
  baseUrl?: string;
  /** Default `iex`. */
  feed?: AlpacaFeed;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per request, milliseconds (default 15 000). */
  timeoutMs?: number;
  /** Accept an http(s) loopback URL (tests against a loopback fake). */
  allowLoopback?: boolean;
  /** Retries of a rate-limited (429) request (default 3). */
  rateLimitRetries?: number;
  /** Longest wait before retrying a rate-limited request, milliseconds (default 10 000). */
  maxRateLimitWaitMs?: number;
  /** Pages followed at most before refusing (default 100; a page holds up to 10 000 bars). */
  maxPages?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Alpaca's bar as it comes over the wire. */
interface AlpacaBar {
  t?: unknown;
  o?: unknown;
  h?: unknown;
  l?: unknown;
  c?: unknown;
  v?: unknown;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const PAGE_LIMIT = 10_000;

const usage = (message: string) => new MarketDataError("usage", message, EXIT.USAGE_OR_CONFIG);
const invalid = (message: string) => new MarketDataError("data_invalid", message, EXIT.BROKER_OR_DATA_UNAVAILABLE);
const unavailable = (message: string) => new MarketDataError("data_unavailable", message, EXIT.BROKER_OR_DATA_UNAVAILABLE);

/**
 * The data endpoint's base URL, or a refusal (before any network I/O): only
 * `https://data.alpaca.markets`, or an http(s) loopback URL when `allowLoopback`.
 */
export function checkAlpacaDataUrl(raw: string, opts: { allowLoopback?: boolean } = {}): string {
  const refuse = (why: string) =>
    new MarketDataError("data_host_refused", `refusing market data URL ${why}: only ${ALPACA_DATA_URL} is allowed`, EXIT.USAGE_OR_CONFIG);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("(not a valid URL)");
  }
  if (url.username || url.password) throw refuse("(it carries credentials; keys come from the environment)");
  if (url.search || url.hash) throw refuse("(it has a query or a fragment)");
  const origin = `${url.protocol}//${url.host}`;
  const loopback = opts.allowLoopback === true && LOOPBACK.has(url.hostname) && (url.protocol === "http:" || url.protocol === "https:");
  const dataHost = url.protocol === "https:" && url.hostname === ALPACA_DATA_HOST && (url.port === "" || url.port === "443");
  if (!loopback && !dataHost) throw refuse(origin);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v2$/, "");
  if (!loopback && path !== "") throw refuse(`${origin}${url.pathname} (a path)`);
  return `${origin}${path}`;
}

let nyParts: Intl.DateTimeFormat | undefined;

/** The New York calendar day (YYYY-MM-DD) of an RFC 3339 timestamp, or undefined when it is not one. */
export function newYorkDate(timestamp: string): string | undefined {
  if (!RFC3339.test(timestamp)) return undefined;
  const t = Date.parse(timestamp);
  if (!Number.isFinite(t)) return undefined;
  nyParts ??= new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });
  const parts: Record<string, string> = {};
  for (const p of nyParts.formatToParts(new Date(t))) parts[p.type] = p.value;
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  return isIsoDay(day) ? day : undefined;
}

/** Trimmed, upper-cased, de-duplicated symbols; an element may itself be a comma-separated list. */
function normalizeSymbols(symbols: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of symbols.flatMap((x) => String(x).split(","))) {
    // ASCII upper case only: "ſpx" stays itself (and is refused below), never becomes "SPX".
    const sym = asciiSymbol(s) ?? s.trim();
    if (sym.length > 0 && !out.includes(sym)) out.push(sym);
  }
  return out;
}

/** Checks symbols, dates and feed; throws a `usage` error naming the first problem. */
function checkBarsRequest(opts: { symbols: readonly string[]; from: string; to: string; feed?: string }): { symbols: string[]; feed: AlpacaFeed } {
  const symbols = normalizeSymbols(opts.symbols ?? []);
  if (symbols.length === 0) throw usage("no symbols given (e.g. --symbols AAPL,MSFT)");
  if (symbols.length > MAX_ALPACA_SYMBOLS) throw usage(`${symbols.length} symbols given; at most ${MAX_ALPACA_SYMBOLS} per import`);
  for (const s of symbols) {
    if (!SYMBOL_PATTERN.test(s)) throw usage(`symbol "${s.slice(0, 30)}" is not valid (letters, digits, '.' or '-', at most 15 characters)`);
  }
  for (const [name, d] of [
    ["from", opts.from],
    ["to", opts.to],
  ] as const) {
    if (typeof d !== "string" || !isIsoDay(d)) throw usage(`--${name} "${String(d ?? "").slice(0, 30)}" is not a date (expected YYYY-MM-DD)`);
  }
  if (opts.from > opts.to) throw usage(`--from ${opts.from} is after --to ${opts.to}`);
  const feed = opts.feed ?? "iex";
  if (!(ALPACA_FEEDS as readonly string[]).includes(feed)) throw usage(`feed "${String(feed).slice(0, 30)}" is not one of ${ALPACA_FEEDS.join(", ")}`);
  return { symbols, feed: feed as AlpacaFeed };
}

/** The Alpaca keys from the environment, or a `missing_api_key` error (exit 2). */
function alpacaKeysFrom(env: Readonly<Record<string, string | undefined>>): { keyId: string; secret: string } {
  const keyId = env.APCA_API_KEY_ID?.trim();
  const secret = env.APCA_API_SECRET_KEY?.trim();
  if (!keyId || !secret) {
    throw new MarketDataError(
      "missing_api_key",
      "Alpaca market data needs APCA_API_KEY_ID and APCA_API_SECRET_KEY, both set in the environment",
      EXIT.USAGE_OR_CONFIG,
    );
  }
  return { keyId, secret };
}

/** What every request of one import shares: where, with which keys, and how patiently. */
interface BarsClient {
  base: string;
  keyId: string;
  secret: string;
  feed: AlpacaFeed;
  doFetch: typeof fetch;
  timeoutMs: number;
  retries: number;
  maxWait: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

/**
 * Daily bars (split- and dividend-adjusted) of each symbol from `from` to `to` (New York dates,
 * inclusive), oldest first. Every requested symbol is a key; a symbol Alpaca has no bars for maps
 * to `[]`. Throws a `MarketDataError` (with its exit code) rather than returning doubtful data.
 */
export async function fetchAlpacaDailyBars(opts: FetchAlpacaBarsOptions): Promise<Record<string, Bar[]>> {
  // Everything that can be refused is refused before the first request.
  const base = checkAlpacaDataUrl(opts.baseUrl ?? ALPACA_DATA_URL, { allowLoopback: opts.allowLoopback === true });
  const { symbols, feed } = checkBarsRequest(opts);
  const { keyId, secret } = alpacaKeysFrom(opts.env);
  const client: BarsClient = {
    base,
    keyId,
    secret,
    feed,
    doFetch: opts.fetch ?? globalThis.fetch,
    timeoutMs: opts.timeoutMs ?? 15_000,
    retries: opts.rateLimitRetries ?? 3,
    maxWait: opts.maxRateLimitWaitMs ?? 10_000,
    sleep: opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))),
    now: opts.now ?? Date.now,
  };
  const maxPages = opts.maxPages ?? 100;
  const query: Record<string, string> = {
    symbols: symbols.join(","),
    timeframe: "1Day",
    // Day bars are stamped at New York midnight (04:00Z/05:00Z): these UTC bounds hold exactly the
    // sessions from `from` to `to`.
    start: `${opts.from}T00:00:00Z`,
    end: `${opts.to}T23:59:59Z`,
    limit: String(PAGE_LIMIT),
    adjustment: "all",
    feed,
  };
  const requested = new Set(symbols);
  const out: Record<string, Bar[]> = {};
  for (const s of symbols) out[s] = [];
  const seenTokens = new Set<string>();
  let token: string | undefined;

  for (let page = 1; ; page++) {
    if (page > maxPages) throw unavailable(`more than ${maxPages} pages of bars: ask for fewer symbols or a shorter range; nothing was imported`);
    const qs = new URLSearchParams(token === undefined ? query : { ...query, page_token: token }).toString();
    const text = await getWithRetry(client, `${base}/v2/stocks/bars?${qs}`);
    const next = readBarsPage(client, text, page, { requested, out, from: opts.from, to: opts.to });
    if (next === undefined) break;
    if (seenTokens.has(next)) throw invalid(`GET /v2/stocks/bars (page ${page}) repeated a page token: the paging does not advance`);
    seenTokens.add(next);
    token = next;
  }
  return out;
}

/** A message with the keys redacted, at most 300 characters. */
function redact(c: BarsClient, message: string): string {
  let m = message;
  for (const k of [c.keyId, c.secret]) m = m.split(k).join("[redacted]");
  return m.length > 300 ? `${m.slice(0, 300)}…` : m;
}

/** Where a page's bars go: the symbols asked for, their series so far, the range asked for. */
interface BarsInto {
  requested: Set<string>;
  out: Record<string, Bar[]>;
  from: string;
  to: string;
}

/**
 * One page's bars appended to `out` (keyed by the requested symbols), each checked; returns the
 * next page token, or undefined on the last page.
 */
function readBarsPage(c: BarsClient, text: string, page: number, into: BarsInto): string | undefined {
  const { requested, out, from, to } = into;
  let body: { bars?: unknown; next_page_token?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw invalid(`GET /v2/stocks/bars (page ${page}) answered with a body that is not JSON`);
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw invalid(`GET /v2/stocks/bars (page ${page}) answered with an unexpected shape`);
  const bars = body.bars ?? {};
  if (bars === null || typeof bars !== "object" || Array.isArray(bars)) throw invalid(`GET /v2/stocks/bars (page ${page}): "bars" is not an object of symbols`);
  for (const [sym, list] of Object.entries(bars as Record<string, unknown>)) {
    if (!requested.has(sym)) throw invalid(`GET /v2/stocks/bars (page ${page}) has bars for ${redact(c, sym).slice(0, 30)}, which was not asked for`);
    if (list === null) continue;
    if (!Array.isArray(list)) throw invalid(`GET /v2/stocks/bars (page ${page}): the bars of ${sym} are not a list`);
    const series = out[sym]!;
    for (const raw of list as unknown[]) series.push(toBar(sym, raw, series[series.length - 1], from, to));
  }
  const next = body.next_page_token;
  if (next === null || next === undefined || next === "") return undefined;
  if (typeof next !== "string") throw invalid(`GET /v2/stocks/bars (page ${page}): next_page_token is not a string`);
  return next;
}

/** One GET with a timeout, and a bounded retry on 429. Returns the body of a 2xx. */
async function getWithRetry(c: BarsClient, url: string): Promise<string> {
  const { doFetch } = c;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, {
        method: "GET",
        headers: { "APCA-API-KEY-ID": c.keyId, "APCA-API-SECRET-KEY": c.secret, Accept: "application/json" },
        // A redirect would carry the keys to another host: refused, never followed.
        redirect: "error",
        signal: AbortSignal.timeout(c.timeoutMs),
      });
      text = await res.text();
    } catch (e) {
      const name = (e as { name?: string } | undefined)?.name;
      if (name === "TimeoutError" || name === "AbortError") throw unavailable(`GET /v2/stocks/bars timed out after ${c.timeoutMs} ms (${c.base})`);
      const cause = (e as { cause?: { code?: string } } | undefined)?.cause?.code;
      throw unavailable(`GET /v2/stocks/bars failed (${c.base}): ${redact(c, (e as Error)?.message ?? String(e))}${cause ? ` (${cause})` : ""}`);
    }
    if (res.status >= 200 && res.status < 300) return text;
    if (res.status === 429 && attempt < c.retries) {
      await c.sleep(rateLimitWait(c, res.headers));
      continue;
    }
    throw refusal(c, res.status, text);
  }
}

/** The error for a non-2xx answer (a 429 here is one past the retries). */
function refusal(c: BarsClient, status: number, text: string): MarketDataError {
  const detail = apiMessage(text);
  const suffix = detail ? ` (${redact(c, detail)})` : "";
  if (status === 401 || status === 403) {
    return new MarketDataError(
      "data_auth",
      `Alpaca market data refused the credentials (${status})${suffix}: check APCA_API_KEY_ID / APCA_API_SECRET_KEY${status === 403 ? ` and that your plan includes the ${c.feed} feed` : ""}`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  if (status === 429) return unavailable(`GET /v2/stocks/bars is still rate limited (429) after ${c.retries} retries; try again later`);
  if (status === 400 || status === 404 || status === 422) {
    return new MarketDataError("data_request_refused", `GET /v2/stocks/bars refused the request (${status})${suffix}`, EXIT.USAGE_OR_CONFIG);
  }
  return unavailable(`GET /v2/stocks/bars answered ${status}${suffix}`);
}

function rateLimitWait(c: BarsClient, headers: Headers): number {
  const cap = (ms: number) => Math.min(Math.max(0, ms), c.maxWait);
  const retryAfter = headers.get("retry-after");
  if (retryAfter !== null && retryAfter.trim() !== "") {
    const s = Number(retryAfter);
    if (Number.isFinite(s)) return cap(s * 1000);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return cap(at - c.now());
  }
  const reset = headers.get("x-ratelimit-reset");
  if (reset !== null && Number.isFinite(Number(reset))) return cap(Number(reset) * 1000 - c.now());
  return cap(1000);
}

/** One wire bar as a `Bar`, or a refusal naming the symbol, the bar and the rule broken. */
function toBar(symbol: string, raw: unknown, prev: Bar | undefined, from: string, to: string): Bar {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw invalid(`${symbol}: a bar is not an object${prev ? ` (after ${prev.date})` : ""}`);
  const b = raw as AlpacaBar;
  const t = typeof b.t === "string" ? b.t : undefined;
  const date = t === undefined ? undefined : newYorkDate(t);
  const where = `${symbol} bar ${date ?? (t === undefined ? `(no t${prev ? `, after ${prev.date}` : ""})` : `t=${JSON.stringify(t.slice(0, 40))}`)}`;
  if (date === undefined) throw invalid(`${where}: the timestamp is not an RFC 3339 time`);
  const num = (field: "o" | "h" | "l" | "c" | "v", name: string): number => {
    const v = b[field];
    if (typeof v !== "number" || !Number.isFinite(v)) throw invalid(`${where}: ${name} ${JSON.stringify(v) ?? "undefined"} is not a finite number`);
    return v;
  };
  const open = num("o", "open");
  const high = num("h", "high");
  const low = num("l", "low");
  const close = num("c", "close");
  const volume = num("v", "volume");
  // The reader's own rule (range, sign, low ≤ open, close ≤ high): nothing imported is refused later.
  const problem = barProblems({ open, high, low, close, volume })[0];
  if (problem !== undefined) throw invalid(`${where}: ${problem}`);
  if (date < from || date > to) throw invalid(`${where}: the date is outside the range asked for (${from} to ${to})`);
  if (prev && date <= prev.date) throw invalid(`${where}: dates must be strictly increasing (${date} after ${prev.date})`);
  return { date, open, high, low, close, volume };
}

/** The `message` of an Alpaca error body, if it has one. */
function apiMessage(text: string): string | undefined {
  try {
    const j = JSON.parse(text) as { message?: unknown };
    return typeof j?.message === "string" ? j.message : undefined;
  } catch {
    const t = text.trim();
    return t.length > 0 && t.length <= 200 && !t.includes("<") ? t : undefined;
  }
}
