/**
 * Alpaca paper trading (REST v2) as a `Broker`: a thin `fetch` client over the endpoints we need.
 *
 * Safety:
 * - The endpoint is checked before any network I/O: only `https://paper-api.alpaca.markets`
 *   (a loopback URL only when the caller passes `allowLoopback`: tests against a loopback fake).
 * - `account()` checks the account number (Alpaca paper accounts are `PA…`) and refuses otherwise.
 * - Keys come only from the environment (`APCA_API_KEY_ID`, `APCA_API_SECRET_KEY`), travel only in
 *   request headers and never appear in an error message, a log line or an event.
 * - An order POST is never retried. A timeout, a dropped connection, a 5xx, a 429 or an unreadable
 *   success response throws an uncertain-send error (`timeout` / `broker_unreachable`): the order
 *   may exist, and the executor resolves it by looking the client order id up.
 * - GETs honour a 429's `Retry-After` / `X-RateLimit-Reset` with a bounded retry. Every request has
 *   a timeout.
 *
 * Commission: Alpaca charges none, so fills carry a commission of 0 (what the broker's cash
 * reflects; a modelled fee would make the journal disagree with the broker's cash).
 */
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { redactor } from "../core/redact.js";
import { AlpacaHttp, alpacaError, authError, cleanMessage, errorSuffix, parseJson } from "./alpaca-http.js";
import { type AlpacaFillActivity, type AlpacaOrder, badShape, checked, decimalString, newYorkDay, toOrder, toSide } from "./alpaca-wire.js";
import { BrokerError } from "./errors.js";
import { ALPACA_PAPER_HOST, assertPaperAccount, assertPaperEndpoint } from "./guard.js";
import { BrokerAccountSchema, BrokerFillSchema, BrokerPositionSchema } from "./records.js";
import type { Broker, BrokerAccount, BrokerClock, BrokerEndpoint, BrokerFill, BrokerOrder, BrokerPosition, PlaceOrderRequest } from "./types.js";

export { mapAlpacaStatus } from "./alpaca-wire.js";

/** The environment variables the adapter reads (and nothing else). */
export const ALPACA_KEY_ENV = ["APCA_API_KEY_ID", "APCA_API_SECRET_KEY"] as const;

export interface AlpacaBrokerOptions {
  /** `https://paper-api.alpaca.markets` (a trailing `/` or `/v2` is ignored). */
  baseUrl: string;
  /** Where the keys come from (`process.env` in the CLI). */
  env: Readonly<Record<string, string | undefined>>;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Accept an http(s) loopback URL (tests against a loopback fake). */
  allowLoopback?: boolean;
  /** Per request, milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Retries of a rate-limited (429) GET (default 3). */
  rateLimitRetries?: number;
  /** Longest wait before retrying a rate-limited GET, milliseconds (default 10 000). */
  maxRateLimitWaitMs?: number;
  /** Refuse an order (`market_closed`, nothing sent) when the clock says the market is closed: a DAY order sent after the close would queue for the next session (default true). */
  refuseWhenClosed?: boolean;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BrokerError("not_paper", "broker.alpaca.base_url is not a valid URL", EXIT.USAGE_OR_CONFIG);
  }
  if (url.username || url.password)
    throw new BrokerError("not_paper", "broker.alpaca.base_url must not carry credentials; keys come from the environment", EXIT.USAGE_OR_CONFIG);
  if (url.search || url.hash) throw new BrokerError("not_paper", "broker.alpaca.base_url must not have a query or a fragment", EXIT.USAGE_OR_CONFIG);
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v2$/, "");
  return `${url.protocol}//${url.host}${path}`;
}

/** Creates the adapter. Refuses a non-paper endpoint (and missing keys) before any network I/O. */
export function createAlpacaBroker(opts: AlpacaBrokerOptions): AlpacaBroker {
  return new AlpacaBroker(opts);
}

export class AlpacaBroker implements Broker {
  private readonly ep: BrokerEndpoint;
  private readonly base: string;
  private readonly http: AlpacaHttp;
  private readonly refuseWhenClosed: boolean;
  /** submitted_at of orders seen, to bound the fill activity query. */
  private readonly submittedAt = new Map<string, string>();

  constructor(opts: AlpacaBrokerOptions) {
    this.base = normalizeBaseUrl(opts.baseUrl);
    const url = new URL(this.base);
    const paperHost = url.protocol === "https:" && url.hostname === ALPACA_PAPER_HOST && (url.port === "" || url.port === "443");
    const loopback = opts.allowLoopback === true && LOOPBACK.has(url.hostname);
    this.ep = { kind: "alpaca", url: this.base, paper: paperHost || loopback };
    // Before anything else, and before any request: only the paper endpoint.
    assertPaperEndpoint(this.ep, { allowLoopback: opts.allowLoopback === true });
    const keyId = opts.env.APCA_API_KEY_ID?.trim();
    const secret = opts.env.APCA_API_SECRET_KEY?.trim();
    if (!keyId || !secret) {
      throw new TwError(
        "missing_api_key",
        'broker.kind is "alpaca" but APCA_API_KEY_ID and APCA_API_SECRET_KEY are not both set in the environment',
        EXIT.USAGE_OR_CONFIG,
      );
    }
    redactor.register("APCA_API_KEY_ID", keyId);
    redactor.register("APCA_API_SECRET_KEY", secret);
    this.http = new AlpacaHttp({
      base: this.base,
      keyId,
      secret,
      fetch: opts.fetch ?? globalThis.fetch,
      timeoutMs: opts.timeoutMs ?? 10_000,
      rateLimitRetries: opts.rateLimitRetries ?? 3,
      maxRateLimitWaitMs: opts.maxRateLimitWaitMs ?? 10_000,
      sleep: opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      now: opts.now ?? Date.now,
    });
    this.refuseWhenClosed = opts.refuseWhenClosed ?? true;
  }

  endpoint(): BrokerEndpoint {
    return { ...this.ep };
  }

  async clock(): Promise<BrokerClock> {
    const c = await this.http.getJson<{ timestamp: string; is_open: boolean; next_open?: string; next_close?: string }>("/v2/clock");
    if (typeof c.timestamp !== "string" || typeof c.is_open !== "boolean") throw badShape("/v2/clock");
    const session = c.is_open ? c.timestamp : (c.next_open ?? c.timestamp);
    return {
      tradingDay: newYorkDay(session),
      isOpen: c.is_open,
      now: new Date(c.timestamp).toISOString(),
      ...(c.next_open ? { nextOpen: new Date(c.next_open).toISOString() } : {}),
      ...(c.next_close ? { nextClose: new Date(c.next_close).toISOString() } : {}),
    };
  }

  async account(): Promise<BrokerAccount> {
    const a = await this.http.getJson<{
      account_number?: string;
      status?: string;
      currency?: string;
      cash?: string;
      trading_blocked?: boolean;
      account_blocked?: boolean;
    }>("/v2/account");
    const cash = Number(a.cash);
    if (typeof a.account_number !== "string" || !Number.isFinite(cash)) throw badShape("/v2/account");
    const account: BrokerAccount = checked(
      BrokerAccountSchema,
      {
        account_id: a.account_number,
        paper: this.ep.paper,
        cash,
        currency: a.currency ?? "USD",
        status: a.status ?? "UNKNOWN",
        trading_blocked: a.trading_blocked === true || a.account_blocked === true,
      },
      "/v2/account",
      "account",
    );
    assertPaperAccount(this.ep, account);
    return account;
  }

  async positions(): Promise<BrokerPosition[]> {
    const list = await this.http.getJson<{ symbol: string; qty: string; side?: string; avg_entry_price?: string }[]>("/v2/positions");
    if (!Array.isArray(list)) throw badShape("/v2/positions");
    return list
      .map((p) => {
        let quantity = Number(p.qty);
        if (typeof p.symbol !== "string" || !Number.isFinite(quantity)) throw badShape("/v2/positions");
        if (p.side === "short" && quantity > 0) quantity = -quantity;
        const avg = Number(p.avg_entry_price);
        const position = { symbol: p.symbol.toUpperCase(), quantity, ...(Number.isFinite(avg) ? { avg_cost: avg } : {}) };
        return checked(BrokerPositionSchema, position, "/v2/positions", "position");
      })
      .filter((p) => p.quantity !== 0)
      .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  async openOrders(): Promise<BrokerOrder[]> {
    const list = await this.http.getJson<AlpacaOrder[]>("/v2/orders", { status: "open", limit: "500", direction: "asc" });
    if (!Array.isArray(list)) throw badShape("/v2/orders");
    return list.map((o) => this.order(o, "/v2/orders"));
  }

  async placeLimitDayOrder(req: PlaceOrderRequest): Promise<BrokerOrder> {
    // Certain refusals first: nothing is sent.
    const id = req.client_order_id;
    if (typeof id !== "string" || id.length === 0 || id.length > 128) throw new BrokerError("order_rejected", "client_order_id must be 1 to 128 characters");
    if (req.side !== "BUY" && req.side !== "SELL") throw new BrokerError("order_rejected", "side must be BUY or SELL");
    if (!Number.isInteger(req.quantity) || req.quantity <= 0)
      throw new BrokerError("order_rejected", `quantity ${req.quantity} must be a whole number of shares > 0`);
    if (!Number.isFinite(req.limit_price) || req.limit_price <= 0) throw new BrokerError("order_rejected", `limit price ${req.limit_price} must be > 0`);
    if (this.refuseWhenClosed) {
      const clock = await this.clock();
      if (!clock.isOpen) {
        throw new BrokerError(
          "market_closed",
          `the market is closed (next open ${clock.nextOpen ?? "unknown"}): a DAY order now would queue for the next session; not sent`,
        );
      }
    }
    const body = {
      symbol: req.symbol.toUpperCase(),
      qty: decimalString(req.quantity),
      side: req.side === "BUY" ? "buy" : "sell",
      type: "limit",
      time_in_force: "day",
      limit_price: decimalString(req.limit_price),
      client_order_id: id,
    };
    // Exactly one attempt. From here on any failure to learn the outcome is uncertain.
    const res = await this.http.send("POST", "/v2/orders", undefined, JSON.stringify(body));
    if (res.status === 200 || res.status === 201) {
      try {
        return this.order(parseJson<AlpacaOrder>(res.text, "POST /v2/orders"), "POST /v2/orders");
      } catch {
        throw new BrokerError(
          "broker_unreachable",
          `POST /v2/orders answered ${res.status} with an unreadable body: the order may exist (look it up by client order id)`,
        );
      }
    }
    const err = alpacaError(res.text);
    if (res.status === 422 && err.code === 40010001) {
      throw new BrokerError(
        "duplicate_client_order_id",
        `client_order_id ${id} was already used at the broker${err.message ? ` (${cleanMessage(err.message)})` : ""}`,
      );
    }
    if (res.status === 403)
      throw new BrokerError("order_rejected", `the broker refused the order (403): ${cleanMessage(err.message) || "insufficient buying power or shares"}`);
    if (res.status === 422 || res.status === 400)
      throw new BrokerError("order_rejected", `the broker refused the order (${res.status}): ${cleanMessage(err.message) || "invalid order"}`);
    if (res.status === 401) {
      // Certain: an unauthenticated request creates nothing.
      throw new BrokerError("order_rejected", `${authError(401).message}; the order was not accepted`, EXIT.USAGE_OR_CONFIG);
    }
    // 429, 5xx and anything unexpected: the broker may or may not have taken it. Never re-sent.
    throw new BrokerError(
      "broker_unreachable",
      `POST /v2/orders answered ${res.status}${err.message ? ` (${cleanMessage(err.message)})` : ""}: the order may exist (look it up by client order id)`,
    );
  }

  async orderByClientId(clientOrderId: string): Promise<BrokerOrder | undefined> {
    const path = "/v2/orders:by_client_order_id";
    const res = await this.http.get(path, { client_order_id: clientOrderId }, [404]);
    if (res.status === 404) return undefined;
    return this.order(parseJson<AlpacaOrder>(res.text, path), path);
  }

  async cancel(brokerOrderId: string): Promise<BrokerOrder> {
    const path = `/v2/orders/${encodeURIComponent(brokerOrderId)}`;
    const res = await this.http.send("DELETE", path);
    // 204/200: cancel accepted; 422: not cancelable (already filled, cancelled, expired…). Either way the state is read back.
    if (res.status === 404) throw new BrokerError("order_not_found", `no order ${brokerOrderId} at the broker`);
    if (res.status === 401 || res.status === 403) throw authError(res.status);
    if (res.status >= 500 || res.status === 429) throw new BrokerError("broker_unreachable", `DELETE /v2/orders/{id} answered ${res.status}`);
    if (res.status !== 200 && res.status !== 204 && res.status !== 422) {
      throw new BrokerError("broker_unreachable", `DELETE /v2/orders/{id} answered ${res.status}${errorSuffix(res.text)}`);
    }
    const after = await this.http.get(path, undefined, [404]);
    if (after.status === 404) throw new BrokerError("order_not_found", `no order ${brokerOrderId} at the broker`);
    return this.order(parseJson<AlpacaOrder>(after.text, "/v2/orders/{id}"), "/v2/orders/{id}");
  }

  async fills(brokerOrderId: string): Promise<BrokerFill[]> {
    const path = "/v2/account/activities/FILL";
    const pageSize = 100;
    const query: Record<string, string> = { direction: "desc", page_size: String(pageSize) };
    const submitted = this.submittedAt.get(brokerOrderId);
    if (submitted) {
      const t = Date.parse(submitted);
      // A minute of slack for clock skew between order and activity timestamps.
      if (Number.isFinite(t)) query.after = new Date(t - 60_000).toISOString();
    }
    const out: BrokerFill[] = [];
    const seen = new Set<string>();
    for (let page = 0; page < 50; page++) {
      const list = parseJson<AlpacaFillActivity[]>((await this.http.get(path, query)).text, path);
      if (!Array.isArray(list)) throw badShape(path);
      for (const a of list) {
        if (typeof a?.id !== "string" || seen.has(a.id)) continue;
        seen.add(a.id);
        if (a.order_id !== brokerOrderId || (a.activity_type !== undefined && a.activity_type !== "FILL")) continue;
        const quantity = Number(a.qty);
        const price = Number(a.price);
        if (!Number.isFinite(quantity) || !Number.isFinite(price)) throw badShape(path);
        const fill: BrokerFill = {
          fill_id: a.id,
          broker_order_id: a.order_id,
          symbol: String(a.symbol).toUpperCase(),
          side: toSide(a.side),
          quantity,
          price,
          commission: 0,
          commission_currency: "USD", // Alpaca accounts are USD and charge no commission
          at: new Date(a.transaction_time).toISOString(),
        };
        out.push(checked(BrokerFillSchema, fill, path, "fill"));
      }
      const last = list[list.length - 1];
      if (list.length < pageSize || !last || typeof last.id !== "string" || last.id === query.page_token) break;
      query.page_token = last.id;
    }
    return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.fill_id < b.fill_id ? -1 : 1));
  }

  /** An Alpaca order as a `BrokerOrder`, remembering its submitted_at (to bound the fill query). */
  private order(o: AlpacaOrder, what: string): BrokerOrder {
    return toOrder(o, what, (id, submitted) => this.submittedAt.set(id, submitted));
  }
}
