/**
 * The paper guard's edges (issue #13): only the default https port on the paper host, and broker
 * HTTP never follows a redirect (which would carry the keys to wherever it points).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlpacaBroker } from "../../src/broker/alpaca.js";
import { assertPaperEndpoint } from "../../src/broker/guard.js";
import { fetchAlpacaDailyBars } from "../../src/market/alpaca-bars.js";
import { FakeAlpaca } from "./fake-alpaca.js";

const KEY = "PKREDIRECTKEY0123456789";
const SECRET = "redirect-SeCrEt-0123456789abcdefghijkl";
const env = { APCA_API_KEY_ID: KEY, APCA_API_SECRET_KEY: SECRET };

const fake = new FakeAlpaca({ key: KEY, secret: SECRET });
let redirector: Server;
let redirectUrl = "";
beforeAll(async () => {
  await fake.start();
  // Answers every request with a 302 to the fake: a client that follows it would send the keys on.
  redirector = createServer((req, res) => {
    res.writeHead(302, { Location: `${fake.url}${req.url ?? "/"}` });
    res.end();
  });
  await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", r));
  redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake.stop();
  await new Promise((r) => redirector.close(r));
});

describe("the paper guard", () => {
  it("accepts the paper host only on the default https port", () => {
    const ep = (url: string) => ({ kind: "alpaca" as const, url, paper: true });
    expect(() => assertPaperEndpoint(ep("https://paper-api.alpaca.markets"))).not.toThrow();
    expect(() => assertPaperEndpoint(ep("https://paper-api.alpaca.markets:443"))).not.toThrow();
    for (const url of ["https://paper-api.alpaca.markets:8443", "https://paper-api.alpaca.markets:80", "http://paper-api.alpaca.markets"]) {
      expect(() => assertPaperEndpoint(ep(url)), url).toThrow(/only https:\/\/paper-api\.alpaca\.markets \(paper, port 443\)/);
    }
    // The client itself refuses to be built on such an endpoint.
    expect(() => createAlpacaBroker({ baseUrl: "https://paper-api.alpaca.markets:8443", env })).toThrow(/non-paper broker endpoint/);
  });

  it("the broker refuses a redirect: the request fails and the target never hears from it", async () => {
    const b = createAlpacaBroker({ baseUrl: redirectUrl, env, allowLoopback: true, timeoutMs: 2000 });
    await expect(b.account()).rejects.toMatchObject({ code: "broker_unreachable" });
    expect(fake.requests).toHaveLength(0);
  });

  it("the market data client refuses a redirect too", async () => {
    await expect(
      fetchAlpacaDailyBars({ baseUrl: redirectUrl, env, allowLoopback: true, symbols: ["AAPL"], from: "2024-01-02", to: "2024-01-05" }),
    ).rejects.toThrow(/failed/);
    expect(fake.requests).toHaveLength(0);
  });
});
