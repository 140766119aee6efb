import { describe, expect, it } from "vitest";
import { createAlpacaBroker } from "../../src/broker/alpaca.js";
import { BrokerError } from "../../src/broker/errors.js";

const env = { APCA_API_KEY_ID: "PKTESTKEYID0123456789", APCA_API_SECRET_KEY: "sEcReT-0123456789-abcdefghijklmnopqrstuv" };

const order = {
  id: "ord-1",
  client_order_id: "tw-1",
  symbol: "AAPL",
  side: "buy",
  qty: "10",
  filled_qty: "0",
  filled_avg_price: null,
  limit_price: "170.5",
  status: "new",
  submitted_at: "2024-03-04T15:00:00Z",
  updated_at: "2024-03-04T15:00:00Z",
};
const fill = {
  id: "act-1",
  activity_type: "FILL",
  transaction_time: "2024-03-04T15:01:00Z",
  price: "170.5",
  qty: "10",
  side: "buy",
  symbol: "AAPL",
  order_id: "ord-1",
};
const account = { account_number: "PA2TESTACCT9", status: "ACTIVE", currency: "USD", cash: "1000", trading_blocked: false };
const position = { symbol: "AAPL", qty: "10", side: "long", avg_entry_price: "170.25" };

/** An adapter whose every GET of `path` answers `body` (200). */
function answering(path: string, body: unknown) {
  const fetch = (async (url: string | URL) => {
    const p = new URL(String(url)).pathname;
    if (p !== path) return new Response("{}", { status: 404 });
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  return createAlpacaBroker({ baseUrl: "https://paper-api.alpaca.markets", env, fetch, sleep: async () => {} });
}

async function refusal(p: Promise<unknown>): Promise<BrokerError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BrokerError);
  return e as BrokerError;
}

describe("alpaca adapter: a response whose mapped record does not fit its schema is refused naming the field", () => {
  it("reads well-formed responses", async () => {
    expect((await answering("/v2/orders:by_client_order_id", order).orderByClientId("tw-1"))?.quantity).toBe(10);
    expect((await answering("/v2/account", account).account()).cash).toBe(1000);
    expect(await answering("/v2/positions", [position]).positions()).toEqual([{ symbol: "AAPL", quantity: 10, avg_cost: 170.25 }]);
    expect((await answering("/v2/account/activities/FILL", [fill]).fills("ord-1"))[0]?.price).toBe(170.5);
  });

  it("an order", async () => {
    const e = await refusal(answering("/v2/orders:by_client_order_id", { ...order, qty: "-5" }).orderByClientId("tw-1"));
    expect(e.code).toBe("broker_unreachable");
    expect(e.message).toBe("unexpected response from /v2/orders:by_client_order_id: order.quantity: expected number to be greater or equal to 0, got -5");
    const empty = await refusal(answering("/v2/orders", [{ ...order, id: "" }]).openOrders());
    expect(empty.message).toMatch(/^unexpected response from \/v2\/orders: order\.broker_order_id: .*, got ""$/);
  });

  it("a fill", async () => {
    const e = await refusal(answering("/v2/account/activities/FILL", [{ ...fill, price: "-1" }]).fills("ord-1"));
    expect(e.code).toBe("broker_unreachable");
    expect(e.message).toMatch(/^unexpected response from \/v2\/account\/activities\/FILL: fill\.price: .*, got -1$/);
  });

  it("an account", async () => {
    const e = await refusal(answering("/v2/account", { ...account, currency: 7 }).account());
    expect(e.code).toBe("broker_unreachable");
    expect(e.message).toMatch(/^unexpected response from \/v2\/account: account\.currency: .*, got 7$/);
  });

  it("a position", async () => {
    const e = await refusal(answering("/v2/positions", [{ ...position, symbol: "" }]).positions());
    expect(e.code).toBe("broker_unreachable");
    expect(e.message).toMatch(/^unexpected response from \/v2\/positions: position\.symbol: .*, got ""$/);
  });
});
