/**
 * A loopback fake of Alpaca's paper REST v2 (the endpoints `src/broker/alpaca.ts` uses), shared by
 * the adapter's tests (tests/broker/alpaca.test.ts) and the whole-CLI run against it
 * (tests/real-parts/alpaca-run.test.ts).
 *
 * Every request is recorded (method, path, query, headers, body). A request without the expected key
 * headers gets a 401, like Alpaca.
 *
 * Order behaviour by symbol:
 * FILL fills at once in two executions; WORK rests until cancelled; LATE fills while its cancel is in
 * flight (DELETE → 422, read back: filled); BOOM is created, then the POST answers 500; LOST answers 500
 * without creating anything; SLOW is created but answers after the client's timeout; POOR → 403;
 * ECHO → 422 whose message echoes both key headers in every form (tests/fixtures/secret-forms.ts). A symbol in `fillAtLimit` fills in full at its
 * limit price in one execution as it is posted; one in `partialAtLimit` fills that many shares at its limit and rests for the rest; any
 * other symbol rests like WORK.
 *
 * Positions: `positions` when set (a fixed answer), otherwise derived from the orders placed here
 * (their filled quantities, signed by side, with the buys' average price), as Alpaca's would be.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { LOOPBACK_BROKER_FOR_TESTS } from "../../src/broker/loopback.js";
import { echoAll } from "../fixtures/secret-forms.js";

export interface FakeOrder {
  id: string;
  client_order_id: string;
  symbol: string;
  side: string;
  qty: string;
  filled_qty: string;
  filled_avg_price: string | null;
  limit_price: string;
  status: string;
  type: string;
  time_in_force: string;
  created_at: string;
  submitted_at: string;
  updated_at: string;
}

export interface FakeActivity {
  id: string;
  activity_type: "FILL";
  transaction_time: string;
  type: "fill" | "partial_fill";
  price: string;
  qty: string;
  side: string;
  symbol: string;
  leaves_qty: string;
  cum_qty: string;
  order_id: string;
  order_status: string;
}

export interface FakePosition {
  symbol: string;
  qty: string;
  side: "long" | "short";
  avg_entry_price: string;
  market_value?: string;
}

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeAlpacaOptions {
  /** The APCA-API-KEY-ID / APCA-API-SECRET-KEY values the fake accepts. */
  key: string;
  secret: string;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
}

const START = Date.UTC(2024, 2, 4, 15, 0, 0);
const OPEN_STATUSES = ["new", "accepted", "pending_new", "partially_filled", "pending_cancel"];

export class FakeAlpaca {
  readonly server: Server;
  url = "";
  requests: Seen[] = [];
  orders: FakeOrder[] = [];
  activities: FakeActivity[] = [];
  accountNumber = "PA2TESTACCT9";
  cash = "100000.25";
  open = true;
  /** The account's trading_blocked flag. */
  tradingBlocked = false;
  /** The clock's instant while open: Monday 2024-03-04, 10:00 in New York. */
  clockTimestamp = "2024-03-04T10:00:00.000-05:00";
  /** A fixed /v2/positions answer; null: derived from the orders placed here. */
  positions: FakePosition[] | null = null;
  /** Symbols filled in full at their limit, in one execution, as they are posted. */
  fillAtLimit = new Set<string>();
  /** Symbols of which at most this many shares fill at the limit as they are posted; the rest rests until cancelled. */
  partialAtLimit = new Map<string, number>();
  /** Every order POST fails without creating anything: its connection dropped, or answered 500 / 429. */
  failPosts: "drop" | 500 | 429 | null = null;
  /** Answer 429 to the next n requests of a path. */
  limited = new Map<string, { n: number; headers: Record<string, string> }>();
  private seq = 0;
  private t = START;

  constructor(private readonly opts: FakeAlpacaOptions) {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      req.on("end", () => this.handle(req, res, body));
    });
  }

  async start(): Promise<void> {
    const host = this.opts.host ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Back to a fresh paper account: no requests, orders, fills or special behaviour. */
  reset(): void {
    this.requests = [];
    this.orders = [];
    this.activities = [];
    this.limited.clear();
    this.fillAtLimit.clear();
    this.partialAtLimit.clear();
    this.positions = null;
    this.failPosts = null;
    this.accountNumber = "PA2TESTACCT9";
    this.cash = "100000.25";
    this.open = true;
    this.tradingBlocked = false;
    this.clockTimestamp = "2024-03-04T10:00:00.000-05:00";
    this.seq = 0;
    this.t = START;
  }

  /** Fill activities of someone else's order (symbol ZZZ), one share each, in front of ours. */
  addForeignFills(n: number): void {
    for (let i = 0; i < n; i++) this.addFill({ id: `other-${i}`, symbol: "ZZZ", side: "buy", filled_qty: "0", qty: "1000" } as FakeOrder, 1, 5);
  }

  /** The POSTs to /v2/orders (of one client order id when given). */
  posts(clientOrderId?: string): Seen[] {
    return this.requests.filter(
      (r) => r.method === "POST" && r.path === "/v2/orders" && (clientOrderId === undefined || JSON.parse(r.body).client_order_id === clientOrderId),
    );
  }

  /** What /v2/positions answers now. */
  currentPositions(): FakePosition[] {
    if (this.positions) return this.positions;
    const by = new Map<string, { qty: number; buyQty: number; buyValue: number }>();
    for (const o of this.orders) {
      const filled = Number(o.filled_qty);
      if (filled === 0) continue;
      const p = by.get(o.symbol) ?? { qty: 0, buyQty: 0, buyValue: 0 };
      const buy = o.side === "buy";
      p.qty += buy ? filled : -filled;
      if (buy) {
        p.buyQty += filled;
        p.buyValue += filled * Number(o.filled_avg_price);
      }
      by.set(o.symbol, p);
    }
    return [...by.entries()]
      .filter(([, p]) => p.qty !== 0)
      .map(([symbol, p]) => ({
        symbol,
        qty: String(Math.abs(p.qty)),
        side: p.qty > 0 ? ("long" as const) : ("short" as const),
        avg_entry_price: String(p.buyQty > 0 ? p.buyValue / p.buyQty : 0),
      }));
  }

  private now(): string {
    this.t += 1000;
    return new Date(this.t).toISOString();
  }

  private addFill(o: FakeOrder, qty: number, price: number): void {
    const cum = Number(o.filled_qty) + qty;
    const prevValue = Number(o.filled_qty) * Number(o.filled_avg_price ?? 0);
    o.filled_qty = String(cum);
    o.filled_avg_price = String((prevValue + qty * price) / cum);
    const leaves = Number(o.qty) - cum;
    if (o.client_order_id) o.status = leaves === 0 ? "filled" : "partially_filled";
    const at = this.now();
    o.updated_at = at;
    this.activities.push({
      id: `${at.replace(/\D/g, "")}::${o.id}-${cum}`,
      activity_type: "FILL",
      transaction_time: at,
      type: leaves === 0 ? "fill" : "partial_fill",
      price: String(price),
      qty: String(qty),
      side: o.side,
      symbol: o.symbol,
      leaves_qty: String(leaves),
      cum_qty: String(cum),
      order_id: o.id,
      order_status: o.status,
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const u = new URL(req.url ?? "/", "http://x");
    this.requests.push({ method: req.method ?? "", path: u.pathname, query: u.searchParams, headers: req.headers, body });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(value === undefined ? undefined : JSON.stringify(value));
    };
    if (req.headers["apca-api-key-id"] !== this.opts.key || req.headers["apca-api-secret-key"] !== this.opts.secret) {
      return json(401, { code: 40110000, message: "request is not authorized" });
    }
    const limit = this.limited.get(u.pathname);
    if (limit && limit.n > 0) {
      limit.n--;
      return json(429, { code: 42910000, message: "rate limit exceeded" }, limit.headers);
    }
    const byId = /^\/v2\/orders\/([^/]+)$/.exec(u.pathname);
    if (req.method === "GET" && u.pathname === "/v2/clock") {
      return json(200, { timestamp: this.clockTimestamp, is_open: this.open, next_open: "2024-03-05T09:30:00-05:00", next_close: "2024-03-04T16:00:00-05:00" });
    }
    if (req.method === "GET" && u.pathname === "/v2/account") {
      return json(200, {
        id: "904837e3-3b76-47ec-b432-046db621571b",
        account_number: this.accountNumber,
        status: "ACTIVE",
        currency: "USD",
        cash: this.cash,
        buying_power: String(Number(this.cash) * 2),
        equity: this.cash,
        trading_blocked: this.tradingBlocked,
        account_blocked: false,
      });
    }
    if (req.method === "GET" && u.pathname === "/v2/positions") return json(200, this.currentPositions());
    if (req.method === "GET" && u.pathname === "/v2/orders") {
      return json(
        200,
        this.orders.filter((o) => u.searchParams.get("status") !== "open" || OPEN_STATUSES.includes(o.status)),
      );
    }
    if (req.method === "GET" && u.pathname === "/v2/orders:by_client_order_id") {
      const o = this.orders.find((x) => x.client_order_id === u.searchParams.get("client_order_id"));
      return o ? json(200, o) : json(404, { code: 40410000, message: "order not found" });
    }
    if (req.method === "GET" && byId) {
      const o = this.orders.find((x) => x.id === byId[1]);
      return o ? json(200, o) : json(404, { code: 40410000, message: "order not found" });
    }
    if (req.method === "DELETE" && byId) {
      const o = this.orders.find((x) => x.id === byId[1]);
      if (!o) return json(404, { code: 40410000, message: "order not found" });
      if (o.symbol === "LATE" && o.status === "new") this.addFill(o, Number(o.qty), Number(o.limit_price));
      if (!["new", "accepted", "partially_filled"].includes(o.status)) return json(422, { code: 42210000, message: `order is already in "${o.status}" state` });
      o.status = "canceled";
      o.updated_at = this.now();
      return json(204, undefined);
    }
    if (req.method === "GET" && u.pathname === "/v2/account/activities/FILL") {
      let list = [...this.activities].reverse(); // desc
      const after = u.searchParams.get("after");
      if (after) list = list.filter((a) => a.transaction_time > after);
      const token = u.searchParams.get("page_token");
      if (token) list = list.slice(list.findIndex((a) => a.id === token) + 1);
      return json(200, list.slice(0, Number(u.searchParams.get("page_size") ?? 100)));
    }
    if (req.method === "POST" && u.pathname === "/v2/orders" && this.failPosts !== null) {
      if (this.failPosts === "drop") return void req.socket.destroy();
      return json(this.failPosts, { code: this.failPosts * 100000, message: this.failPosts === 429 ? "rate limit exceeded" : "internal server error" });
    }
    if (req.method === "POST" && u.pathname === "/v2/orders") {
      const b = JSON.parse(body) as Record<string, unknown>;
      for (const k of ["qty", "limit_price"]) if (typeof b[k] !== "string") return json(422, { code: 40010000, message: `${k} must be a string` });
      if (b.type !== "limit" || b.time_in_force !== "day") return json(422, { code: 40010000, message: "limit day orders only" });
      if (this.orders.some((o) => o.client_order_id === b.client_order_id)) return json(422, { code: 40010001, message: "client_order_id must be unique" });
      const symbol = String(b.symbol);
      if (symbol === "LOST") return json(500, { code: 50010000, message: "internal server error" });
      if (symbol === "POOR") return json(403, { code: 40310000, message: "insufficient buying power" });
      if (symbol === "ECHO") return json(422, { code: 40010000, message: `invalid header value ${echoAll(this.opts.secret)} for ${echoAll(this.opts.key)}` });
      const at = this.now();
      const o: FakeOrder = {
        id: `ord-${++this.seq}`,
        client_order_id: String(b.client_order_id),
        symbol,
        side: String(b.side),
        qty: String(b.qty),
        filled_qty: "0",
        filled_avg_price: null,
        limit_price: String(b.limit_price),
        status: "new",
        type: "limit",
        time_in_force: "day",
        created_at: at,
        submitted_at: at,
        updated_at: at,
      };
      this.orders.push(o);
      if (symbol === "FILL" || symbol === "BOOM") {
        const half = Math.floor(Number(o.qty) / 2);
        this.addFill(o, half, Number(o.limit_price) - 0.02);
        this.addFill(o, Number(o.qty) - half, Number(o.limit_price));
      } else if (this.partialAtLimit.has(symbol)) {
        const n = Math.min(Number(o.qty), this.partialAtLimit.get(symbol) ?? 0);
        if (n > 0) this.addFill(o, n, Number(o.limit_price));
      } else if (this.fillAtLimit.has(symbol)) {
        this.addFill(o, Number(o.qty), Number(o.limit_price));
      }
      if (symbol === "BOOM") return json(500, { code: 50010000, message: "internal server error" });
      if (symbol === "SLOW") {
        // Well past the client's timeout in the test, even on a loaded machine.
        setTimeout(() => json(200, o), 3000).unref();
        return;
      }
      return json(200, o);
    }
    json(404, { code: 40410000, message: "not found" });
  }
}

/**
 * A fake Alpaca for a whole test file: started before its tests with the test-only loopback opt-in
 * (src/broker/loopback.ts; the environment cannot allow it), stopped and the opt-in withdrawn after.
 */
export function fakeAlpacaForFile(opts: FakeAlpacaOptions): FakeAlpaca {
  const fake = new FakeAlpaca(opts);
  beforeAll(async () => {
    (globalThis as Record<symbol, unknown>)[LOOPBACK_BROKER_FOR_TESTS] = true;
    await fake.start();
  });
  afterAll(async () => {
    delete (globalThis as Record<symbol, unknown>)[LOOPBACK_BROKER_FOR_TESTS];
    await fake.stop();
  });
  return fake;
}
