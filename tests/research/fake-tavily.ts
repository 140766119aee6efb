/** A loopback stand-in for Tavily's POST /search: records each request and answers with fixed results. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeTavilyResult {
  title: string;
  url: string;
  content: string;
  score: number;
  published_date?: string;
}

export interface FakeTavily {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

/**
 * `status` may depend on the request (0-based index); `errorDetail` is the message of a non-200
 * answer (a test makes it echo the key, as a gateway may).
 */
export async function startFakeTavily(
  results: FakeTavilyResult[],
  status: number | ((index: number) => number) = 200,
  errorDetail = "quota exceeded",
): Promise<FakeTavily> {
  const requests: FakeTavily["requests"] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += String(c);
    });
    req.on("end", () => {
      const answer = typeof status === "number" ? status : status(requests.length);
      requests.push({ path: req.url ?? "", headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} });
      res.writeHead(answer, { "content-type": "application/json" });
      if (answer !== 200) res.end(JSON.stringify({ detail: { error: errorDetail } }));
      else res.end(JSON.stringify({ query: "q", response_time: 0.01, images: [], results, request_id: "req-1" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Future, undated, blocked and syndicated items around a 2020-03-16 trading day. */
export const MIXED: FakeTavilyResult[] = [
  {
    title: "Fed cuts rates to near zero",
    url: "https://www.cbwatch.example/fed-zero",
    content: "Sunday announcement by the Federal Reserve.",
    score: 0.95,
    published_date: "Sun, 15 Mar 2020 21:00:00 GMT",
  },
  {
    title: "Fed cuts rates to near zero",
    url: "https://markets.wirenews.example/fed-zero",
    content: "Sunday announcement by the Federal Reserve.",
    score: 0.9,
    published_date: "2020-03-15",
  },
  {
    title: "FUTURE: stocks rebound in their best day since 1933",
    url: "https://www.wirenews.example/rebound",
    content: "Published after the trading day.",
    score: 0.99,
    published_date: "2020-03-24",
  },
  {
    title: "ON THE DAY: stocks plunge 12%",
    url: "https://www.wirenews.example/plunge",
    content: "Published on the trading day.",
    score: 0.97,
    published_date: "2020-03-16T20:00:00Z",
  },
  { title: "UNDATED: a pandemic timeline", url: "https://learn.wirenews.example/timeline", content: "No date given.", score: 0.96 },
  {
    title: "BLOCKED: forum hot take",
    url: "https://www.forum.tradertalk.example/hot",
    content: "From a blocked domain.",
    score: 0.98,
    published_date: "2020-03-14",
  },
];
