/**
 * A model endpoint that answers badly on purpose (issue #23), through the real clients (the real
 * SDKs) against the loopback fakes: an absurd stream index, duplicate or missing tool-use ids, a
 * redirect to another origin, an HTML page or an empty 200 where a chat completion stream belongs.
 * Each answer is either repaired so the conversation stays valid for the provider (tool-use ids) or
 * refused as unusable (a ModelCallError the loop ends as `model_error`; the run as `model_unavailable`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { RecordingClient, ReplayClient } from "../../src/agent/cassette.js";
import { ModelCallError, type ModelRequest } from "../../src/agent/types.js";
import type { Behaviour, FakeBlock } from "./fake-anthropic-server.js";
import { sseChunks } from "./fake-openai-server.js";
import { ofType, run } from "./helpers.js";
import { type Fake, KEYS, PROVIDERS } from "./providers.js";
import { makeWorld } from "./world.js";

const TOOLS = [{ name: "get_portfolio", description: "p", input_schema: { type: "object", properties: {} } }];
const req = (): ModelRequest => ({
  system: "S",
  tools: TOOLS,
  messages: [{ role: "user", content: [{ type: "text", text: "Trading day: 2024-05-06." }] }],
  maxTokens: 1000,
  timeoutMs: 5000,
});
const msg = (content: FakeBlock[], stop_reason = "tool_use"): Behaviour => ({ kind: "message", content, stop_reason });
const call = (id: string, name: string, input: unknown): FakeBlock => ({ type: "tool_use", id, name, input });
const HOLD = (id: string) => call(id, "submit_orders", { orders: [], summary: "Nothing compelling; holding." });

/** Another origin that records whatever reaches it. */
async function startSink(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((q, res) => {
    const chunks: Buffer[] = [];
    q.on("data", (c: Buffer) => chunks.push(c));
    q.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(PROVIDERS)("a hostile endpoint behind $name (real SDK, loopback fake)", (p) => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await p.start();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setResponder(undefined);
  });

  test("a 307 redirect to another origin is not followed: the prompt never reaches it; the call fails naming the redirect", async () => {
    const sink = await startSink();
    try {
      const path = p.name === "openai" ? "/v1/chat/completions" : "/v1/messages";
      fake.enqueue({ kind: "raw", status: 307, headers: { location: `${sink.url}${path}` }, body: "" });
      const err = await p
        .client(fake, 2)
        .complete(req())
        .catch((e: unknown) => e);
      expect(sink.bodies).toEqual([]);
      expect(err).toBeInstanceOf(ModelCallError);
      expect((err as Error).message).toMatch(/redirect/i);
      expect((err as Error).message).toContain(sink.url);
      expect((err as Error).message).not.toContain(KEYS[p.name]);
      // a redirect is an answer, not a flaky connection: no retry
      expect(fake.requests).toHaveLength(1);
    } finally {
      await sink.close();
    }
  });

  test("two tool calls with one id: each result goes back under its own id, the provider accepts the conversation, and the cassette replays", async () => {
    fake.enqueue(msg([call("dup", "get_portfolio", {}), call("dup", "list_universe", { limit: 5 })]), msg([HOLD("dup")]));
    const recorder = new RecordingClient(p.client(fake), { contractVersion: "test" });
    const w = makeWorld();
    const first = await run({ client: recorder, runtime: w.runtime, submitState: w.submit.state, price: p.price });
    expect(fake.requests.map((r) => r.answered)).toEqual(["message", "message"]);
    expect(p.wireError(fake.requests[1]?.body ?? {})).toBeNull();
    const results = p.lastToolResults(fake.requests[1]?.body ?? {});
    expect(new Set(results.map((r) => r.id)).size).toBe(2);
    // each result is its own tool's answer, not one answer twice
    expect(results.map((r) => Object.keys(r.result).includes("holdings"))).toEqual([true, false]);
    expect(first.result.outcome).toBe("hold");
    const ids = ofType(first.events, "tool.called").map((e) => e.call_id);
    expect(new Set(ids).size).toBe(3);
    const replay = new ReplayClient(recorder.toJsonl(), { contractVersion: "test" });
    const w2 = makeWorld();
    const again = await run({ client: replay, runtime: w2.runtime, submitState: w2.submit.state, price: p.price });
    replay.assertConsumed();
    expect(again.result.outcome).toBe("hold");
    expect(again.result.transcript).toEqual(first.result.transcript);
  });

  test("a tool call with no id, next to one whose id is the one a missing id would get: each gets its own", async () => {
    fake.enqueue(msg([call("", "get_portfolio", {}), call("call_1_0", "list_universe", { limit: 5 })]), msg([HOLD("s")]));
    const w = makeWorld();
    const { result } = await run({ client: p.client(fake), runtime: w.runtime, submitState: w.submit.state, price: p.price });
    expect(p.wireError(fake.requests[1]?.body ?? {})).toBeNull();
    const results = p.lastToolResults(fake.requests[1]?.body ?? {});
    expect(results).toHaveLength(2);
    expect(new Set(results.map((r) => r.id)).size).toBe(2);
    expect(results.every((r) => r.id !== "")).toBe(true);
    expect(result.outcome).toBe("hold");
  });
});

describe.each(PROVIDERS)("$name: an HTML page or an empty 200 where the stream belongs", (p) => {
  let fake: Fake;
  beforeAll(async () => {
    fake = await p.start();
  });
  afterAll(async () => {
    await fake.close();
  });
  test.each([
    ["an HTML page", "text/html", "<!doctype html><title>Login</title>", /text\/html\) with \d+ bytes starting "<!doctype html><title>Login<\/title>"/],
    ["an empty 200", "text/event-stream", "", /with an empty body/],
  ])("%s: the call fails naming the endpoint and what came back", async (_n, type, body, what) => {
    fake.enqueue({ kind: "raw", status: 200, headers: { "content-type": type }, body });
    const err = await p
      .client(fake, 0)
      .complete(req())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    expect((err as ModelCallError).kind).toBe("protocol");
    expect((err as Error).message).toContain(`${fake.url}${p.name === "openai" ? "/chat/completions" : "/v1/messages"}`);
    expect((err as Error).message).toMatch(what);
    expect((err as Error).message).not.toContain(KEYS[p.name]);
  });
});

describe("an OpenAI-compatible endpoint that answers with something other than a chat completion stream", () => {
  const p = PROVIDERS.find((x) => x.name === "openai") as (typeof PROVIDERS)[number];
  let fake: Fake;
  beforeAll(async () => {
    fake = await p.start();
  });
  afterAll(async () => {
    await fake.close();
  });

  const failure = async (b: Behaviour): Promise<ModelCallError> => {
    fake.enqueue(b);
    const err = await p
      .client(fake, 0)
      .complete(req())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelCallError);
    const e = err as ModelCallError;
    expect(e.message).toContain(fake.url);
    expect(e.message).not.toContain(KEYS.openai);
    return e;
  };

  test("a tool-call index of 1,000,000,000 is an unusable answer (refused, not a sparse array filled)", async () => {
    const chunk = {
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 1_000_000_000, id: "call_x", type: "function", function: { name: "get_portfolio", arguments: "{}" } }] },
          finish_reason: null,
        },
      ],
    };
    const e = await failure({
      kind: "raw",
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: sseChunks([chunk, { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }]),
    });
    expect(e.kind).toBe("protocol");
    expect(e.message).toMatch(/tool call index 1000000000/);
  });

  test("an HTML page with status 200 is an unusable answer naming what came back", async () => {
    const e = await failure({
      kind: "raw",
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: "<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>",
    });
    expect(e.kind).toBe("protocol");
    expect(e.message).toMatch(/text\/html/);
    expect(e.message).toMatch(/Welcome to nginx/);
  });

  test("an empty 200 is an unusable answer", async () => {
    const e = await failure({ kind: "raw", status: 200, headers: { "content-type": "text/event-stream" }, body: "" });
    expect(e.kind).toBe("protocol");
    expect(e.message).toMatch(/empty/);
  });

  test("a stream of only [DONE] (no chat completion chunk) is an unusable answer", async () => {
    const e = await failure({ kind: "raw", status: 200, headers: { "content-type": "text/event-stream" }, body: "data: [DONE]\n\n" });
    expect(e.message).toMatch(/no chat completion/);
  });
});
