import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cmdDataImportAlpaca, type DataImportAlpacaOptions } from "../../src/commands/data-import-alpaca.js";
import type { CommandIO } from "../../src/commands/io.js";
import { checkAlpacaDataUrl, type FetchAlpacaBarsOptions, fetchAlpacaDailyBars, MarketDataError, newYorkDate } from "../../src/market/alpaca-bars.js";
import { MarketData } from "../../src/market/data.js";

const KEY = "PKDATAKEYID0123456789";
const SECRET = "dAtA-sEcReT-0123456789-abcdefghijklmnop";
const env = { APCA_API_KEY_ID: KEY, APCA_API_SECRET_KEY: SECRET };

// ---- a loopback fake of Alpaca's market data API (GET /v2/stocks/bars) ----------------------

interface WireBar {
  t: string;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  n?: number;
  vw?: number;
}
interface Seen {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
}
interface Canned {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** A daily bar as Alpaca stamps it: New York midnight (05:00Z in winter, 04:00Z in summer). */
function wire(date: string, close: number, extra: Partial<WireBar> = {}): WireBar {
  const summer = Number(date.slice(5, 7)) >= 4 && Number(date.slice(5, 7)) <= 10;
  return { t: `${date}T0${summer ? 4 : 5}:00:00Z`, o: close - 0.5, h: close + 1, l: close - 1, c: close, v: 1000, n: 10, vw: close, ...extra };
}

class FakeData {
  server: Server;
  url = "";
  requests: Seen[] = [];
  bars: Record<string, unknown[]> = {};
  /** Bars per page, over all symbols (Alpaca's `limit` counts across symbols). */
  pageSize = 10_000;
  /** Answered, in order, before any normal answer. */
  canned: Canned[] = [];
  /** Never answer (timeouts). */
  hang = false;

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
  reset(): void {
    this.requests = [];
    this.bars = {};
    this.pageSize = 10_000;
    this.canned = [];
    this.hang = false;
  }
  private handle(req: IncomingMessage, res: ServerResponse): void {
    const u = new URL(req.url ?? "/", "http://fake");
    this.requests.push({ path: u.pathname, query: u.searchParams, headers: req.headers });
    if (this.hang) return;
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": "application/json", ...headers });
      res.end(body);
    };
    const canned = this.canned.shift();
    if (canned) {
      send(canned.status, canned.body, canned.headers);
      return;
    }
    if (req.method !== "GET" || u.pathname !== "/v2/stocks/bars") {
      send(404, JSON.stringify({ message: "not found" }));
      return;
    }
    if (req.headers["apca-api-key-id"] !== KEY || req.headers["apca-api-secret-key"] !== SECRET) {
      send(401, JSON.stringify({ message: "unauthorized." }));
      return;
    }
    const symbols = (u.searchParams.get("symbols") ?? "").split(",");
    const start = Date.parse(u.searchParams.get("start") ?? "");
    const end = Date.parse(u.searchParams.get("end") ?? "");
    // Sorted by symbol, then time; a page may end inside a symbol's bars.
    const flat: [string, unknown][] = [];
    for (const sym of [...symbols].sort()) {
      for (const b of this.bars[sym] ?? []) {
        const t = Date.parse(String((b as { t?: unknown })?.t));
        if (!Number.isFinite(t) || (t >= start && t <= end)) flat.push([sym, b]);
      }
    }
    const offset = Number(Buffer.from(u.searchParams.get("page_token") ?? "", "base64url").toString() || "0");
    const page = flat.slice(offset, offset + this.pageSize);
    const bars: Record<string, unknown[]> = {};
    for (const [sym, b] of page) (bars[sym] ??= []).push(b);
    const next = offset + this.pageSize < flat.length ? Buffer.from(String(offset + this.pageSize)).toString("base64url") : null;
    send(200, JSON.stringify({ bars, next_page_token: next }));
  }
}

const fake = new FakeData();
beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

const dirs: string[] = [];
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "tw-alpaca-bars-"));
  dirs.push(dir);
  return join(dir, "home");
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const c: CommandIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} };
  return { c, out: () => out.join(""), err: () => err.join("") };
}

const sleeps: number[] = [];
const fetchBars = (o: Partial<FetchAlpacaBarsOptions> = {}) =>
  fetchAlpacaDailyBars({
    symbols: ["AAA", "BBB"],
    from: "2024-01-02",
    to: "2024-01-31",
    env,
    baseUrl: fake.url,
    allowLoopback: true,
    timeoutMs: 2000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...o,
  });

const NOW = () => new Date("2024-02-15T15:00:00Z");
const runImport = (h: string, o: Partial<DataImportAlpacaOptions> = {}) => {
  const out = io();
  const code = cmdDataImportAlpaca(
    {
      home: h,
      symbols: ["AAA,BBB"],
      from: "2024-01-02",
      to: "2024-01-31",
      env,
      baseUrl: fake.url,
      allowLoopback: true,
      timeoutMs: 2000,
      sleep: async () => {},
      now: NOW,
      ...o,
    },
    out.c,
  );
  return code.then((c) => ({ code: c, out: out.out(), err: out.err() }));
};

async function caught(p: Promise<unknown>): Promise<MarketDataError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MarketDataError);
    return e as MarketDataError;
  }
  throw new Error("expected a refusal");
}

function threeEach(): void {
  fake.bars.AAA = [wire("2024-01-02", 10), wire("2024-01-03", 11), wire("2024-01-04", 12)];
  fake.bars.BBB = [wire("2024-01-02", 50), wire("2024-01-03", 51), wire("2024-01-04", 52)];
}

describe("fetchAlpacaDailyBars", () => {
  it("follows next_page_token across 3 pages for two symbols, with the same query and the key headers on every page", async () => {
    threeEach();
    fake.pageSize = 2;
    const bars = await fetchBars();
    expect(Object.keys(bars)).toEqual(["AAA", "BBB"]);
    expect(bars.AAA!.map((b) => [b.date, b.close])).toEqual([
      ["2024-01-02", 10],
      ["2024-01-03", 11],
      ["2024-01-04", 12],
    ]);
    expect(bars.BBB!.map((b) => b.date)).toEqual(["2024-01-02", "2024-01-03", "2024-01-04"]);
    expect(bars.BBB![0]).toEqual({ date: "2024-01-02", open: 49.5, high: 51, low: 49, close: 50, volume: 1000 });
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.map((r) => r.query.get("page_token"))).toEqual([null, expect.any(String), expect.any(String)]);
    for (const r of fake.requests) {
      expect(r.path).toBe("/v2/stocks/bars");
      expect(Object.fromEntries([...r.query].filter(([k]) => k !== "page_token"))).toEqual({
        symbols: "AAA,BBB",
        timeframe: "1Day",
        start: "2024-01-02T00:00:00Z",
        end: "2024-01-31T23:59:59Z",
        limit: "10000",
        adjustment: "all",
        feed: "iex",
      });
      expect(r.headers["apca-api-key-id"]).toBe(KEY);
      expect(r.headers["apca-api-secret-key"]).toBe(SECRET);
    }
  });

  it("dates a bar by its New York day (a bar at 05:00Z, or 04:00Z in summer, is that day)", async () => {
    expect(newYorkDate("2024-01-03T05:00:00Z")).toBe("2024-01-03");
    expect(newYorkDate("2024-07-01T04:00:00Z")).toBe("2024-07-01");
    expect(newYorkDate("2024-01-03T04:59:59Z")).toBe("2024-01-02");
    expect(newYorkDate("2024-01-03T00:00:00-05:00")).toBe("2024-01-03");
    expect(newYorkDate("2024-03-10T05:00:00.000Z")).toBe("2024-03-10");
    expect(newYorkDate("2024-01-03")).toBeUndefined();
    expect(newYorkDate("yesterday")).toBeUndefined();
    fake.bars.AAA = [{ t: "2024-01-03T05:00:00Z", o: 1, h: 2, l: 0.5, c: 1.5, v: 0 }];
    fake.bars.SUM = [wire("2024-06-28", 5), wire("2024-07-01", 6)];
    expect((await fetchBars({ symbols: ["AAA"] })).AAA!.map((b) => b.date)).toEqual(["2024-01-03"]);
    expect((await fetchBars({ symbols: ["sum"], from: "2024-06-01", to: "2024-07-31" })).SUM!.map((b) => b.date)).toEqual(["2024-06-28", "2024-07-01"]);
  });

  it("waits out a 429 (Retry-After) and retries; gives up after the bounded retries", async () => {
    threeEach();
    sleeps.length = 0;
    fake.canned.push({ status: 429, body: JSON.stringify({ message: "too many requests." }), headers: { "Retry-After": "2" } });
    const bars = await fetchBars();
    expect(bars.AAA).toHaveLength(3);
    expect(fake.requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);

    fake.reset();
    sleeps.length = 0;
    for (let i = 0; i < 5; i++) fake.canned.push({ status: 429, body: "{}", headers: { "Retry-After": "60" } });
    const e = await caught(fetchBars({ rateLimitRetries: 2, maxRateLimitWaitMs: 500 }));
    expect(e.code).toBe("data_unavailable");
    expect(e.exitCode).toBe(4);
    expect(e.message).toMatch(/rate limited \(429\) after 2 retries/);
    expect(fake.requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 500]);
  });

  it("a 401 is a clear credentials error (exit 2) that never carries the keys, even when the server echoes them", async () => {
    fake.canned.push({ status: 401, body: JSON.stringify({ message: `bad key ${KEY} / ${SECRET}` }) });
    const e = await caught(fetchBars());
    expect(e.code).toBe("data_auth");
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/refused the credentials \(401\).*APCA_API_KEY_ID \/ APCA_API_SECRET_KEY/);
    expect(e.message).not.toContain(KEY);
    expect(e.message).not.toContain(SECRET);
    expect(e.message).toContain("[redacted]");
    const r = await runImport(home(), { env: { APCA_API_KEY_ID: "wrong", APCA_API_SECRET_KEY: "wrong-secret" } });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/refused the credentials \(401\)/);
    expect(r.err).not.toContain("wrong-secret");
  });

  it("refuses bad bars with a precise message", async () => {
    const bad: [string, unknown[], RegExp][] = [
      ["high", [wire("2024-01-02", 10, { h: 9 })], /AAA bar 2024-01-02: high 9 is below max\(open 9.5, close 10\)/],
      ["low", [wire("2024-01-02", 10, { l: 9.9 })], /AAA bar 2024-01-02: low 9.9 is above min\(open 9.5, close 10\)/],
      ["volume", [wire("2024-01-02", 10, { v: -1 })], /AAA bar 2024-01-02: volume -1 must be ≥ 0/],
      ["not finite", [{ ...wire("2024-01-02", 10), c: null }], /AAA bar 2024-01-02: close null is not a finite number/],
      ["string", [{ ...wire("2024-01-02", 10), o: "9.5" }], /AAA bar 2024-01-02: open "9.5" is not a finite number/],
      ["zero", [wire("2024-01-02", 10, { l: 0 })], /AAA bar 2024-01-02: low 0 must be > 0/],
      ["duplicate", [wire("2024-01-02", 10), wire("2024-01-02", 11)], /AAA bar 2024-01-02: dates must be strictly increasing \(2024-01-02 after 2024-01-02\)/],
      [
        "order",
        [wire("2024-01-03", 10), { ...wire("2024-01-02", 11), t: "2024-01-03T04:00:00Z" }],
        /dates must be strictly increasing \(2024-01-02 after 2024-01-03\)/,
      ],
      ["timestamp", [{ ...wire("2024-01-02", 10), t: "Jan 2 2024" }], /AAA bar t="Jan 2 2024": the timestamp is not an RFC 3339 time/],
      [
        "range",
        [{ ...wire("2024-01-02", 10), t: "2024-02-02T05:00:00Z" }],
        /AAA bar 2024-02-02: the date is outside the range asked for \(2024-01-02 to 2024-01-31\)/,
      ],
    ];
    for (const [name, list, message] of bad) {
      fake.reset();
      // As the server sends it (the fake's own range filter would hide the out-of-range bar).
      fake.canned.push({ status: 200, body: JSON.stringify({ bars: { AAA: list }, next_page_token: null }) });
      const e = await caught(fetchBars({ symbols: ["AAA"] }));
      expect(e.code, name).toBe("data_invalid");
      expect(e.exitCode, name).toBe(4);
      expect(e.message, name).toMatch(message);
    }
  });

  it("refuses any host but https://data.alpaca.markets before any request", async () => {
    let calls = 0;
    const spy: typeof fetch = async () => {
      calls++;
      return new Response("{}", { status: 200 });
    };
    for (const baseUrl of [
      "https://paper-api.alpaca.markets",
      "https://api.alpaca.markets",
      "https://example.com",
      "http://data.alpaca.markets",
      "https://data.alpaca.markets.evil.example",
      "https://data.alpaca.markets:8443",
      "https://user:pw@data.alpaca.markets",
      "https://data.alpaca.markets/other",
      "not a url",
    ]) {
      const e = await caught(fetchBars({ baseUrl, fetch: spy, allowLoopback: false }));
      expect(e.code, baseUrl).toBe("data_host_refused");
      expect(e.exitCode).toBe(2);
    }
    // Loopback only when the caller allows it.
    const e = await caught(fetchBars({ allowLoopback: false }));
    expect(e.code).toBe("data_host_refused");
    expect(calls).toBe(0);
    expect(fake.requests).toHaveLength(0);
    const r = await runImport(home(), { baseUrl: "https://example.com", allowLoopback: false, fetch: spy });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/refusing market data URL https:\/\/example.com: only https:\/\/data.alpaca.markets is allowed/);
    expect(calls).toBe(0);
    expect(checkAlpacaDataUrl("https://data.alpaca.markets/")).toBe("https://data.alpaca.markets");
    expect(checkAlpacaDataUrl("https://data.alpaca.markets/v2")).toBe("https://data.alpaca.markets");
  });

  it("bounds the pages it follows, and refuses a page token that repeats or bars it did not ask for", async () => {
    threeEach();
    fake.pageSize = 1;
    const e = await caught(fetchBars({ maxPages: 3 }));
    expect(e.code).toBe("data_unavailable");
    expect(e.message).toMatch(/more than 3 pages/);
    expect(fake.requests).toHaveLength(3);

    fake.reset();
    fake.canned.push(
      { status: 200, body: JSON.stringify({ bars: {}, next_page_token: "x" }) },
      { status: 200, body: JSON.stringify({ bars: {}, next_page_token: "x" }) },
    );
    expect((await caught(fetchBars())).message).toMatch(/repeated a page token/);

    fake.reset();
    fake.canned.push({ status: 200, body: JSON.stringify({ bars: { ZZZ: [wire("2024-01-02", 1)] }, next_page_token: null }) });
    expect((await caught(fetchBars())).message).toMatch(/has bars for ZZZ, which was not asked for/);
  });
});

describe("tradewarden data import-alpaca", () => {
  it("writes each symbol's file, which MarketData.load then reads (USD, replacing a previous import; today's bar left out)", async () => {
    threeEach();
    fake.pageSize = 2;
    const h = home();
    mkdirSync(join(h, "market"), { recursive: true });
    writeFileSync(join(h, "market", "AAA.csv"), "# currency=EUR\nDate,Open,High,Low,Close,Volume\n2020-01-02,1,1,1,1,1\n");
    const r = await runImport(h, { now: () => new Date("2024-01-04T18:00:00Z") });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("left out AAA's bar of 2024-01-04: today's session may not be over");
    expect(r.out).toContain(`imported 2 bars of AAA (USD) from 2024-01-02 to 2024-01-03 into ${join(h, "market", "AAA.csv")}`);
    expect(r.out).toContain("imported 2 bars of BBB (USD)");
    expect(readdirSync(join(h, "market")).sort()).toEqual(["AAA.csv", "BBB.csv"]);
    const text = readFileSync(join(h, "market", "BBB.csv"), "utf8");
    expect(text).toBe(
      "# symbol=BBB; currency=USD; source=alpaca-iex; imported_at=2024-01-04T18:00:00.000Z; rows=2; adjustment=all\nDate,Open,High,Low,Close,Volume\n2024-01-02,49.5,51,49,50,1000\n2024-01-03,50.5,52,50,51,1000\n",
    );
    const m = MarketData.load({ home: h, bundled: false });
    expect(m.symbols()).toEqual(["AAA", "BBB"]);
    expect(m.seriesOf("AAA")?.currency).toBe("USD");
    expect(m.seriesOf("AAA")?.bars.map((b) => b.close)).toEqual([10, 11]);
    expect(m.barOn("BBB", "2024-01-03")).toEqual({ date: "2024-01-03", open: 50.5, high: 52, low: 50, close: 51, volume: 1000 });
    expect(m.asOf("2024-01-04").referencePrice("BBB")).toMatchObject({ price: 51, as_of: "2024-01-03", currency: "USD" });
  });

  it("a bad bar in one symbol writes nothing for any symbol, and keeps the previous files", async () => {
    threeEach();
    fake.bars.BBB![1] = wire("2024-01-03", 51, { h: 50 });
    const h = home();
    const r = await runImport(h);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/BBB bar 2024-01-03: high 50 is below max\(open 50.5, close 51\); nothing was imported/);
    expect(existsSync(join(h, "market")) ? readdirSync(join(h, "market")) : []).toEqual([]);

    const before = "# currency=USD\nDate,Open,High,Low,Close,Volume\n2020-01-02,1,1,1,1,1\n";
    mkdirSync(join(h, "market"), { recursive: true });
    writeFileSync(join(h, "market", "AAA.csv"), before);
    expect((await runImport(h)).code).toBe(4);
    expect(readdirSync(join(h, "market"))).toEqual(["AAA.csv"]);
    expect(readFileSync(join(h, "market", "AAA.csv"), "utf8")).toBe(before);
  });

  it("a symbol without bars refuses the whole import (exit 4)", async () => {
    threeEach();
    const h = home();
    const r = await runImport(h, { symbols: ["AAA", "NOPE"] });
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/no iex daily bars from 2024-01-02 to 2024-01-31 for NOPE/);
    expect(existsSync(join(h, "market"))).toBe(false);
  });

  it("a rename that fails puts back the files already replaced (all or nothing)", async () => {
    threeEach();
    const h = home();
    const before = "# currency=USD\nDate,Open,High,Low,Close,Volume\n2020-01-02,1,1,1,1,1\n";
    mkdirSync(join(h, "market", "BBB.csv"), { recursive: true });
    writeFileSync(join(h, "market", "BBB.csv", "x"), "in the way");
    writeFileSync(join(h, "market", "AAA.csv"), before);
    const r = await runImport(h);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`could not write ${join(h, "market", "BBB.csv")}`);
    expect(readFileSync(join(h, "market", "AAA.csv"), "utf8")).toBe(before);
    expect(readdirSync(join(h, "market")).sort()).toEqual(["AAA.csv", "BBB.csv"]);
  });

  it("usage errors (no symbols, bad dates, a bad symbol or feed, missing keys) exit 2 with no request", async () => {
    const h = home();
    const cases: [Partial<DataImportAlpacaOptions>, RegExp][] = [
      [{ symbols: [] }, /no symbols given/],
      [{ symbols: [" , "] }, /no symbols given/],
      [{ symbols: ["../x"] }, /symbol "..\/x" is not valid/],
      [{ from: "2024-13-01" }, /--from "2024-13-01" is not a date/],
      [{ to: "31/01/2024" }, /--to "31\/01\/2024" is not a date/],
      [{ from: "2024-02-01", to: "2024-01-01" }, /--from 2024-02-01 is after --to 2024-01-01/],
      [{ feed: "nasdaq" as never }, /feed "nasdaq" is not one of iex, sip, delayed_sip/],
      [{ env: {} }, /needs APCA_API_KEY_ID and APCA_API_SECRET_KEY/],
      [{ env: { APCA_API_KEY_ID: KEY, APCA_API_SECRET_KEY: "  " } }, /needs APCA_API_KEY_ID and APCA_API_SECRET_KEY/],
    ];
    for (const [o, message] of cases) {
      const r = await runImport(h, o);
      expect(r.code, String(message)).toBe(2);
      expect(r.err).toMatch(message);
    }
    expect(fake.requests).toHaveLength(0);
    expect(existsSync(join(h, "market"))).toBe(false);
  });

  it("an unreachable or silent API exits 4", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const h = home();
    const gone = await runImport(h, { baseUrl: `http://127.0.0.1:${port}` });
    expect(gone.code).toBe(4);
    expect(gone.err).toMatch(/GET \/v2\/stocks\/bars failed/);
    fake.hang = true;
    const slow = await runImport(h, { timeoutMs: 150 });
    expect(slow.code).toBe(4);
    expect(slow.err).toMatch(/timed out after 150 ms/);
    fake.hang = false;
    fake.canned.push({ status: 503, body: JSON.stringify({ message: "service unavailable" }) });
    const down = await runImport(h);
    expect(down.code).toBe(4);
    expect(down.err).toMatch(/answered 503 \(service unavailable\)/);
    expect(existsSync(join(h, "market"))).toBe(false);
  });
});
