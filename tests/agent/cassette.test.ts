import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnthropicClient } from "../../src/agent/anthropic-client.js";
import {
  CassetteError,
  canonicalJson,
  canonicalRequest,
  fileSink,
  firstDifference,
  RecordingClient,
  ReplayClient,
  requestKey,
} from "../../src/agent/cassette.js";
import { ScriptedClient } from "../../src/agent/scripted-client.js";
import { ModelCallError } from "../../src/agent/types.js";
import { CONTRACT_VERSION } from "../../src/tools/catalogue.js";
import type { RunEventBody } from "../../src/core/events.js";
import { startFakeAnthropic, type FakeAnthropic } from "./fake-anthropic-server.js";
import { drain, QueueClient, run, text } from "./helpers.js";
import { makeWorld } from "./world.js";

const limits = { max_position_pct: 10, max_price_deviation_pct: 2 };
const fixedNow = () => new Date("2024-05-06T09:00:00Z");

/** Events without timings, for identity checks (text is compared per turn: replay delivers each block whole). */
const stable = (events: RunEventBody[]) =>
  JSON.stringify(
    events.filter((e) => e.type !== "model.text"),
    (k, v) => (k === "duration_ms" || k === "time_left_ms" ? 0 : v),
  );
const textByTurn = (events: RunEventBody[]) => {
  const out: Record<number, string> = {};
  for (const e of events) if (e.type === "model.text") out[e.turn] = (out[e.turn] ?? "") + e.delta;
  return out;
};

async function record(script = "momentum") {
  const rec = new RecordingClient(new ScriptedClient({ script, limits }), { contractVersion: CONTRACT_VERSION, now: fixedNow });
  const w = makeWorld();
  const out = await run({ client: rec, runtime: w.runtime, submitState: w.submit.state });
  return { rec, ...out };
}

describe("canonical requests", () => {
  test("canonical JSON sorts keys at every level and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: undefined, x: 2 }], c: "s" } })).toBe('{"a":{"c":"s","d":[1,{"x":2,"z":1}]},"b":1}');
  });

  test("the key covers system, tools, messages and max_tokens but not the timeout or signal", () => {
    const base = { system: "S", tools: [], messages: [{ role: "user" as const, content: [text("hi")] }], maxTokens: 10 };
    const k = requestKey(canonicalRequest(base));
    expect(requestKey(canonicalRequest({ ...base, timeoutMs: 5 } as typeof base))).toBe(k);
    expect(requestKey(canonicalRequest({ ...base, maxTokens: 11 }))).not.toBe(k);
    expect(requestKey(canonicalRequest({ ...base, system: "S2" }))).not.toBe(k);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
  });

  test("firstDifference names the first differing path", () => {
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe("$.a[1].b");
    expect(firstDifference({ a: [1] }, { a: [1, 2] })).toBe("$.a[1]");
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeNull();
  });
});

describe("record → replay", () => {
  test("a replayed run is identical: events, transcript, usage, proposal; all calls consumed", async () => {
    const original = await record();
    const lines = original.rec.toJsonl().trim().split("\n");
    expect(JSON.parse(lines[0] as string)).toEqual({
      type: "meta",
      format: 1,
      contract_version: CONTRACT_VERSION,
      model: "scripted",
      created_at: "2024-05-06T09:00:00.000Z",
    });
    expect(lines).toHaveLength(1 + original.result.turns);
    const replay = new ReplayClient(original.rec.toJsonl(), { contractVersion: CONTRACT_VERSION });
    const w = makeWorld();
    const again = await run({ client: replay, runtime: w.runtime, submitState: w.submit.state });
    replay.assertConsumed();
    expect(again.result.outcome).toBe(original.result.outcome);
    expect(JSON.stringify(again.result.transcript)).toBe(JSON.stringify(original.result.transcript));
    expect(again.result.proposal).toEqual(original.result.proposal);
    expect(again.result.usage.map((u) => u.usage)).toEqual(original.result.usage.map((u) => u.usage));
    expect(stable(again.events)).toBe(stable(original.events));
    expect(textByTurn(again.events)).toEqual(textByTurn(original.events));
  });

  test("a sink writes each line as it happens (a file per run)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tw-cassette-"));
    const path = join(dir, "cassette.jsonl");
    const rec = new RecordingClient(new ScriptedClient({ script: "hold" }), { contractVersion: CONTRACT_VERSION, sink: fileSink(path) });
    await run({ client: rec, runtime: makeWorld().runtime });
    expect(readFileSync(path, "utf8")).toBe(rec.toJsonl());
    const replay = ReplayClient.fromFile(path);
    const again = await run({ client: replay, runtime: makeWorld().runtime });
    expect(again.result.outcome).toBe("hold");
    replay.assertConsumed();
  });

  test("a recorded model failure replays as the same failure", async () => {
    const failing = {
      model: "claude-sonnet-4-5",
      complete: async () => {
        throw new ModelCallError("api", "model API error 529: Overloaded", 529);
      },
    };
    const rec = new RecordingClient(failing, { contractVersion: CONTRACT_VERSION });
    const first = await run({ client: rec, runtime: makeWorld().runtime });
    const replay = new ReplayClient(rec.toJsonl());
    const again = await run({ client: replay, runtime: makeWorld().runtime });
    expect(again.result).toMatchObject({ outcome: "model_error", reason: first.result.reason });
    replay.assertConsumed();
  });
});

describe("replay fails closed", () => {
  test("on a changed request, naming the first difference", async () => {
    const original = await record();
    const replay = new ReplayClient(original.rec.toJsonl());
    const w = makeWorld({ cash: 99_999 }); // the portfolio result differs → the 2nd request differs
    const err = await drain(
      (await import("../../src/agent/loop.js")).runAgent({
        client: replay,
        runtime: w.runtime,
        system: "You are a test agent.",
        task: "Trading day: 2024-05-06.",
        limits: { maxTurns: 20, maxSeconds: 300, runBudgetUsd: 1, monthlyBudgetLeftUsd: 50, maxTokens: 4096, requestTimeoutS: 60 },
        price: (await import("../../src/agent/pricing.js")).priceFor("scripted"),
      }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CassetteError);
    expect(err).toMatchObject({ code: "cassette_mismatch" });
    expect((err as Error).message).toMatch(/request 2 differs from the recording at \$\.messages\[2\]\.content\[0\]\.content/);
  });

  test("on a changed system prompt", async () => {
    const original = await record("hold");
    const replay = new ReplayClient(original.rec.toJsonl());
    const err = await run({ client: replay, runtime: makeWorld().runtime, system: "A different prompt." }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/at \$\.system: recorded "You are a test agent\.", now "A different prompt\."/);
  });

  test("on running out of recorded calls", async () => {
    const original = await record();
    const lines = original.rec.toJsonl().trim().split("\n");
    const replay = new ReplayClient(lines.slice(0, -1).join("\n"));
    const err = await run({ client: replay, runtime: makeWorld().runtime }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "cassette_exhausted" });
  });

  test("on leftovers", async () => {
    const original = await record();
    const lines = original.rec.toJsonl().trim().split("\n");
    const replay = new ReplayClient([...lines, lines.at(-1)].join("\n"));
    const again = await run({ client: replay, runtime: makeWorld().runtime });
    expect(again.result.outcome).toBe(original.result.outcome);
    expect(() => replay.assertConsumed()).toThrow(/1 recorded call\(s\) were not replayed/);
  });

  test("on another contract version, and on a malformed cassette", async () => {
    const original = await record("hold");
    expect(() => new ReplayClient(original.rec.toJsonl(), { contractVersion: "tw-tools/999" })).toThrow(CassetteError);
    expect(() => new ReplayClient('{"type":"call"}')).toThrow(/meta line/);
    expect(() => new ReplayClient('{"type":"meta"}\nnot json')).toThrow(/line 2 is not JSON/);
  });
});

describe("secrets are never recorded", () => {
  let fake: FakeAnthropic;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(async () => {
    await fake.close();
  });

  test("no API key, no headers; credential-looking strings are redacted", async () => {
    const key = "sk-ant-api03-SECRETSECRETSECRET";
    fake.enqueue({ kind: "message", content: [{ type: "text", text: `my key is ${key}` }], stop_reason: "end_turn" });
    const claude = new AnthropicClient({ model: "claude-sonnet-5", apiKey: key, baseURL: fake.url, maxRetries: 0 });
    const rec = new RecordingClient(claude, { contractVersion: CONTRACT_VERSION });
    await run({ client: rec, runtime: makeWorld().runtime, task: `Trading day: 2024-05-06. (debug: ${key})` });
    const jsonl = rec.toJsonl();
    expect(jsonl).not.toContain("SECRETSECRET");
    expect(jsonl).not.toMatch(/x-api-key|authorization/i);
    expect(jsonl).toContain("[redacted]");
  });

  test("an OpenAI-style key the model echoes is redacted too", async () => {
    const key = "sk-proj-OPENAISECRETOPENAISECRET";
    const rec = new RecordingClient(new QueueClient([{ content: [text(`the key is ${key}`)], stop_reason: "end_turn" }]), { contractVersion: CONTRACT_VERSION });
    await run({ client: rec, runtime: makeWorld().runtime });
    expect(rec.toJsonl()).not.toContain("OPENAISECRET");
  });

  test("a QueueClient run records only request and response bodies", async () => {
    const rec = new RecordingClient(new QueueClient([{ content: [text("done")], stop_reason: "end_turn" }]), { contractVersion: CONTRACT_VERSION });
    await run({ client: rec, runtime: makeWorld().runtime });
    const call = JSON.parse(rec.lines[1] as string);
    expect(Object.keys(call).sort()).toEqual(["index", "key", "request", "response", "type"]);
    expect(Object.keys(call.request).sort()).toEqual(["max_tokens", "messages", "system", "tools"]);
  });
});
