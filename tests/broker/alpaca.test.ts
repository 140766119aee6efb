import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AlpacaBroker, createAlpacaBroker, mapAlpacaStatus } from "../../src/broker/alpaca.js";
import { BrokerError, isUncertainSendError } from "../../src/broker/errors.js";
import { GuardedBroker } from "../../src/broker/guard.js";
import { execute } from "../../src/executor/execute.js";
import type { RunEventBody } from "../../src/core/events.js";
import { FakeJournal, SpyBroker } from "../executor/fakes.js";
import { leaksOf } from "../fixtures/secret-forms.js";
import { FakeAlpaca } from "./fake-alpaca.js";

const KEY = "PKTESTKEYID0123456789";
const SECRET = "sEcReT-0123456789-abcdefghijklmnopqrstuv";
const env = { APCA_API_KEY_ID: KEY, APCA_API_SECRET_KEY: SECRET };

// The loopback fake of Alpaca's paper REST v2 (tests/broker/fake-alpaca.ts): order behaviour by symbol.
const fake = new FakeAlpaca({ key: KEY, secret: SECRET });
beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  fake.positions = [
    { symbol: "MSFT", qty: "5", side: "long", avg_entry_price: "400.5", market_value: "2010" },
    { symbol: "AAPL", qty: "10", side: "long", avg_entry_price: "170.25", market_value: "1700" },
  ];
  // Someone else's fills, enough to need a second page of activities.
  fake.addForeignFills(130);
});

function broker(extra: Partial<Parameters<typeof createAlpacaBroker>[0]> = {}): AlpacaBroker {
  return createAlpacaBroker({ baseUrl: fake.url, env, allowLoopback: true, timeoutMs: 2000, ...extra });
}

/** Every message a thrown error carries, for the "keys never leak" checks. */
const thrown: string[] = [];
async function caught(p: Promise<unknown>): Promise<BrokerError> {
  try {
    await p;
  } catch (e) {
    thrown.push(String((e as Error).message), JSON.stringify(e), String((e as Error).stack));
    expect(e).toBeInstanceOf(BrokerError);
    return e as BrokerError;
  }
  throw new Error("expected a BrokerError");
}

const req = (symbol: string, client_order_id: string, quantity = 10, limit_price = 10) => ({
  symbol,
  client_order_id,
  side: "BUY" as const,
  quantity,
  limit_price,
});

describe("alpaca paper adapter: the paper guard", () => {
  it("refuses a live or non-paper URL before any network I/O", () => {
    let calls = 0;
    const spy = (async () => {
      calls++;
      throw new Error("no fetch expected");
    }) as unknown as typeof fetch;
    for (const baseUrl of [
      "https://api.alpaca.markets",
      "http://paper-api.alpaca.markets",
      "https://paper-api.alpaca.markets.evil.test",
      "not a url",
      "https://u:p@paper-api.alpaca.markets",
    ]) {
      expect(() => createAlpacaBroker({ baseUrl, env, fetch: spy }), baseUrl).toThrow(BrokerError);
      try {
        createAlpacaBroker({ baseUrl, env, fetch: spy });
      } catch (e) {
        expect((e as BrokerError).code).toBe("not_paper");
        expect((e as Error).message).not.toContain("u:p@");
      }
    }
    // the loopback fake only with allowLoopback
    expect(() => createAlpacaBroker({ baseUrl: fake.url, env, fetch: spy })).toThrow(/non-paper broker endpoint/);
    expect(calls).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  it("accepts the paper host (no I/O at construction) and needs both keys from the environment", () => {
    let calls = 0;
    const spy = (async () => {
      calls++;
      throw new Error("no fetch expected");
    }) as unknown as typeof fetch;
    const b = createAlpacaBroker({ baseUrl: "https://paper-api.alpaca.markets/v2/", env, fetch: spy });
    expect(b.endpoint()).toEqual({ kind: "alpaca", url: "https://paper-api.alpaca.markets", paper: true });
    expect(() => createAlpacaBroker({ baseUrl: "https://paper-api.alpaca.markets", env: { APCA_API_KEY_ID: KEY }, fetch: spy })).toThrow(/APCA_API_SECRET_KEY/);
    expect(calls).toBe(0);
  });

  it("reads the account and refuses one that is not a paper account", async () => {
    const b = broker();
    expect(await b.account()).toEqual({ account_id: "PA2TESTACCT9", paper: true, cash: 100000.25, currency: "USD", status: "ACTIVE", trading_blocked: false });
    const sent = fake.requests[0]!;
    expect(sent.headers["apca-api-key-id"]).toBe(KEY);
    expect(sent.headers["apca-api-secret-key"]).toBe(SECRET);
    fake.accountNumber = "A123456789";
    expect((await caught(b.account())).code).toBe("not_paper");
    // the guard wrapper checks it again before an order: nothing is posted
    const guarded = new GuardedBroker(b, { allowLoopback: true });
    expect((await caught(guarded.placeLimitDayOrder(req("FILL", "tw-g-0")))).code).toBe("not_paper");
    expect(fake.posts()).toHaveLength(0);
  });
});

describe("alpaca paper adapter: reads", () => {
  it("clock, positions, open orders", async () => {
    const b = broker();
    expect(await b.clock()).toEqual({
      tradingDay: "2024-03-04",
      isOpen: true,
      now: "2024-03-04T15:00:00.000Z",
      nextOpen: "2024-03-05T14:30:00.000Z",
      nextClose: "2024-03-04T21:00:00.000Z",
    });
    fake.open = false;
    expect((await b.clock()).tradingDay).toBe("2024-03-05"); // closed: the next session
    expect(await b.positions()).toEqual([
      { symbol: "AAPL", quantity: 10, avg_cost: 170.25 },
      { symbol: "MSFT", quantity: 5, avg_cost: 400.5 },
    ]);
    fake.open = true;
    await b.placeLimitDayOrder(req("WORK", "tw-r-0"));
    await b.placeLimitDayOrder(req("FILL", "tw-r-1"));
    const open = await b.openOrders();
    expect(open.map((o) => [o.client_order_id, o.status])).toEqual([["tw-r-0", "accepted"]]);
    expect(fake.requests.find((r) => r.path === "/v2/orders" && r.method === "GET")?.query.get("status")).toBe("open");
  });

  it("retries a rate-limited GET after Retry-After / X-RateLimit-Reset, a bounded number of times", async () => {
    const waits: number[] = [];
    const now = Date.UTC(2024, 2, 4, 15);
    const b = broker({ sleep: async (ms) => void waits.push(ms), now: () => now });
    fake.limited.set("/v2/account", { n: 1, headers: { "retry-after": "2" } });
    expect((await b.account()).account_id).toBe("PA2TESTACCT9");
    fake.limited.set("/v2/positions", {
      n: 1,
      headers: { "x-ratelimit-limit": "200", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(now / 1000 + 3) },
    });
    expect(await b.positions()).toHaveLength(2);
    expect(waits).toEqual([2000, 3000]);
    expect(fake.requests.filter((r) => r.path === "/v2/account")).toHaveLength(2);
    fake.limited.set("/v2/clock", { n: 99, headers: { "retry-after": "1" } });
    expect((await caught(b.clock())).code).toBe("broker_unreachable");
    expect(fake.requests.filter((r) => r.path === "/v2/clock")).toHaveLength(4); // 1 + 3 retries
  });
});

describe("alpaca paper adapter: orders", () => {
  it("places a limit DAY order with numbers as strings, looks it up by client id, reads its fills", async () => {
    const b = broker();
    const o = await b.placeLimitDayOrder({ symbol: "fill", client_order_id: "tw-p-0", side: "BUY", quantity: 10, limit_price: 12.34 });
    expect(JSON.parse(fake.posts()[0]!.body)).toEqual({
      symbol: "FILL",
      qty: "10",
      side: "buy",
      type: "limit",
      time_in_force: "day",
      limit_price: "12.34",
      client_order_id: "tw-p-0",
    });
    expect(o).toMatchObject({
      broker_order_id: "ord-1",
      client_order_id: "tw-p-0",
      symbol: "FILL",
      side: "BUY",
      quantity: 10,
      limit_price: 12.34,
      status: "filled",
      filled_quantity: 10,
    });
    expect(o.avg_fill_price).toBeCloseTo(12.33, 6);
    expect(await b.orderByClientId("tw-p-0")).toMatchObject({ broker_order_id: "ord-1", status: "filled" });
    expect(await b.orderByClientId("tw-nope")).toBeUndefined();
    const fills = await b.fills("ord-1");
    expect(fills.map((f) => [f.broker_order_id, f.side, f.quantity, f.price, f.commission])).toEqual([
      ["ord-1", "BUY", 5, 12.32, 0],
      ["ord-1", "BUY", 5, 12.34, 0],
    ]);
    expect(await b.fills("ord-404")).toEqual([]);
  });

  it("pages through fill activities with page_token", async () => {
    // An order never seen by this adapter instance: no `after` bound, so it walks the pages.
    await broker().placeLimitDayOrder(req("FILL", "tw-pg-0"));
    // 120 newer fills of another order come first in the (descending) activity list.
    const template = fake.activities[0]!;
    for (let i = 0; i < 120; i++)
      fake.activities.push({ ...template, id: `late-${i}`, order_id: "other", transaction_time: new Date(Date.UTC(2099, 0, 1, 0, 0, i)).toISOString() });
    const fresh = broker();
    const fills = await fresh.fills("ord-1");
    expect(fills).toHaveLength(2);
    const tokens = fake.requests.filter((r) => r.path === "/v2/account/activities/FILL").map((r) => r.query.get("page_token"));
    expect(tokens).toEqual([null, "late-20", expect.any(String)]);
  });

  it("cancel: 204 then reads the final state; a cancel that finds the order filled returns filled", async () => {
    const b = broker();
    const w = await b.placeLimitDayOrder(req("WORK", "tw-c-0"));
    expect(w.status).toBe("accepted");
    expect(await b.cancel(w.broker_order_id)).toMatchObject({ status: "cancelled", filled_quantity: 0 });
    const late = await b.placeLimitDayOrder(req("LATE", "tw-c-1", 7, 11));
    const after = await b.cancel(late.broker_order_id);
    expect(after).toMatchObject({ status: "filled", filled_quantity: 7, avg_fill_price: 11 });
    expect(fake.requests.filter((r) => r.method === "DELETE")).toHaveLength(2);
    expect(await b.fills(late.broker_order_id)).toHaveLength(1);
    expect((await caught(b.cancel("ord-999"))).code).toBe("order_not_found");
  });

  it("maps a reused client order id (422 40010001) to duplicate_client_order_id, 403 to order_rejected", async () => {
    const b = broker();
    await b.placeLimitDayOrder(req("WORK", "tw-d-0"));
    const dup = await caught(b.placeLimitDayOrder(req("WORK", "tw-d-0")));
    expect(dup.code).toBe("duplicate_client_order_id");
    expect(isUncertainSendError(dup)).toBe(false);
    const poor = await caught(b.placeLimitDayOrder(req("POOR", "tw-d-1")));
    expect(poor.code).toBe("order_rejected");
    expect(poor.message).toContain("insufficient buying power");
    expect(fake.posts()).toHaveLength(3);
  });

  it("a 500 on the POST is uncertain and is never re-sent", async () => {
    const b = broker();
    const e = await caught(b.placeLimitDayOrder(req("BOOM", "tw-u-0")));
    expect(isUncertainSendError(e)).toBe(true);
    expect(fake.posts("tw-u-0")).toHaveLength(1);
    // it did reach the broker: the lookup by client id finds it
    expect(await b.orderByClientId("tw-u-0")).toMatchObject({ status: "filled" });
    const lost = await caught(b.placeLimitDayOrder(req("LOST", "tw-u-1")));
    expect(isUncertainSendError(lost)).toBe(true);
    expect(fake.posts("tw-u-1")).toHaveLength(1);
    expect(await b.orderByClientId("tw-u-1")).toBeUndefined();
  });

  it("a POST that outlives the timeout is uncertain (timeout) and is not re-sent; a closed port is unreachable", async () => {
    // Long enough for the POST to arrive on a loaded machine, shorter than the fake's 3 s answer.
    const b = broker({ timeoutMs: 1000 });
    const e = await caught(b.placeLimitDayOrder(req("SLOW", "tw-t-0")));
    expect(e.code).toBe("timeout");
    expect(fake.posts("tw-t-0")).toHaveLength(1);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const gone = createAlpacaBroker({ baseUrl: `http://127.0.0.1:${port}`, env, allowLoopback: true, timeoutMs: 1000, refuseWhenClosed: false });
    const u = await caught(gone.placeLimitDayOrder(req("FILL", "tw-t-1")));
    expect(u.code).toBe("broker_unreachable");
    expect(isUncertainSendError(u)).toBe(true);
  });

  it("refuses to send when the market is closed (nothing posted)", async () => {
    fake.open = false;
    const e = await caught(broker().placeLimitDayOrder(req("FILL", "tw-m-0")));
    expect(e.code).toBe("market_closed");
    expect(fake.posts()).toHaveLength(0);
  });

  it("never puts the keys in an error message (even when the broker echoes them)", async () => {
    const b = broker();
    const echo = await caught(b.placeLimitDayOrder(req("ECHO", "tw-k-0")));
    expect(echo.message).toContain("[redacted APCA_API_SECRET_KEY]");
    const bad = createAlpacaBroker({ baseUrl: fake.url, env: { APCA_API_KEY_ID: "PKWRONG", APCA_API_SECRET_KEY: "wrong-secret-value" }, allowLoopback: true });
    const auth = await caught(bad.account());
    expect(auth.message).toMatch(/refused the credentials \(401\)/);
    expect(auth.message).not.toContain("wrong-secret-value");
    expect(thrown.length).toBeGreaterThan(10);
    for (const m of thrown) {
      expect(m).not.toContain(KEY);
      expect(m).not.toContain(SECRET);
      expect([...leaksOf(m, KEY), ...leaksOf(m, SECRET)], m).toEqual([]);
    }
    // and never in a URL
    for (const r of fake.requests) expect(`${r.path}?${r.query}`).not.toContain(SECRET);
  });

  it("maps Alpaca statuses", () => {
    expect(["new", "accepted", "pending_new", "accepted_for_bidding"].map((s) => mapAlpacaStatus(s))).toEqual(["accepted", "accepted", "accepted", "accepted"]);
    expect(mapAlpacaStatus("partially_filled")).toBe("partially_filled");
    expect(mapAlpacaStatus("pending_cancel")).toBe("pending_cancel");
    expect(mapAlpacaStatus("pending_replace")).toBe("pending_cancel");
    expect(mapAlpacaStatus("filled")).toBe("filled");
    expect(mapAlpacaStatus("canceled")).toBe("cancelled");
    expect(mapAlpacaStatus("expired")).toBe("expired");
    expect(mapAlpacaStatus("done_for_day")).toBe("expired");
    expect(["rejected", "suspended", "stopped"].map((s) => mapAlpacaStatus(s))).toEqual(["rejected", "rejected", "rejected"]);
    expect(mapAlpacaStatus("something_new")).toBe("accepted");
  });
});

describe("the executor against the fake Alpaca", () => {
  const conf = { wait_s: 2, settle_s: 1, poll_ms: 100 };
  function clock() {
    let t = Date.UTC(2024, 2, 4, 15);
    return { now: () => t, sleep: async (ms: number) => void (t += Math.max(ms, 1)) };
  }

  it("books a filled order, resolves uncertain POSTs by client id, and never sends an order twice", async () => {
    const log: string[] = [];
    const journal = new FakeJournal(log);
    const spy = new SpyBroker(new GuardedBroker(broker(), { allowLoopback: true }), log);
    const events: RunEventBody[] = [];
    const res = await execute({
      runId: "r1",
      orders: [
        { symbol: "FILL", side: "BUY", quantity: 10, limit_price: 10, currency: "USD", fx_to_base: 1, liquidation: false },
        { symbol: "BOOM", side: "BUY", quantity: 4, limit_price: 20, currency: "USD", fx_to_base: 1, liquidation: false },
        { symbol: "LOST", side: "BUY", quantity: 3, limit_price: 30, currency: "USD", fx_to_base: 1, liquidation: false },
      ],
      broker: spy,
      journal,
      config: conf,
      emit: (e) => events.push(e),
      ...clock(),
    });
    expect(res.results.map((r) => [r.client_order_id, r.status, r.filled_quantity])).toEqual([
      ["tw-r1-0", "filled", 10],
      ["tw-r1-1", "filled", 4],
      ["tw-r1-2", "rejected", 0],
    ]);
    expect(res.results[0]!.fills.map((f) => [f.quantity, f.price, f.commission])).toEqual([
      [5, 9.98, 0],
      [5, 10, 0],
    ]);
    expect(res.results[0]!.avg_price).toBeCloseTo(9.99, 6);
    expect(res.results[1]!.message).toMatch(/found at the broker by client order id/);
    expect(res.results[2]!.message).toMatch(/not received \(not re-sent\)/);
    expect(events.filter((e) => e.type === "order.uncertain")).toHaveLength(2);
    expect(journal.positions()).toEqual({ FILL: 10, BOOM: 4 });
    // one POST per client order id, at the broker and at the client
    for (const id of ["tw-r1-0", "tw-r1-1", "tw-r1-2"]) {
      expect(fake.posts(id), id).toHaveLength(1);
      expect(spy.sends.get(id), id).toBe(1);
    }
    expect(new Set(fake.orders.map((o) => o.client_order_id)).size).toBe(fake.orders.length);
    // the intent is journaled before each send
    expect(log.indexOf("intent tw-r1-1")).toBeLessThan(log.indexOf("send tw-r1-1"));
    expect(res.problems).toEqual([]);
    // no key in anything the run emitted
    const dump = JSON.stringify({ events, res, journal: [...journal.orders.values()] });
    expect(dump).not.toContain(KEY);
    expect(dump).not.toContain(SECRET);
  });
});
