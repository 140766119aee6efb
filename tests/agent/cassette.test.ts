import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnthropicClient } from "../../src/agent/anthropic-client.js";
import { createHash } from "node:crypto";
import { canonicalJson } from "../../src/util/canonical-json.js";
import {
  type CanonicalRequest,
  CassetteError,
  canonicalRequest,
  fileSink,
  firstDifference,
  type ParsedCall,
  parseCassette,
  readCassette,
  RecordingClient,
  ReplayClient,
  requestKey,
} from "../../src/agent/cassette.js";
import { checkCassette } from "../../src/records/audit.js";
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

  test("a growing transcript (message objects reused call after call) keys and records exactly like the whole request canonicalised afresh", () => {
    // The plain definition: canonical JSON of the redacted canonical request.
    const plain = (req: { system: string; tools: unknown[]; messages: unknown[]; maxTokens: number }) =>
      canonicalJson(
        JSON.parse(
          canonicalJson({ system: req.system, tools: req.tools, messages: req.messages, max_tokens: req.maxTokens }).replace(
            /sk-ant-[A-Za-z0-9_-]{6,}/g,
            "[redacted]",
          ),
        ),
      );
    const tools = [{ name: "t", description: "d", input_schema: { type: "object", properties: { z: { type: "string" }, a: { type: "number" } } } }];
    const transcript: { role: "user" | "assistant"; content: Record<string, unknown>[] }[] = [
      { role: "user", content: [{ type: "text", text: "go, key sk-ant-abcdef123456" }] },
    ];
    for (let turn = 0; turn < 4; turn++) {
      const req = { system: "S", tools, messages: transcript.slice(), maxTokens: 100 };
      const canonical = canonicalRequest(req as unknown as Parameters<typeof canonicalRequest>[0]);
      expect(canonicalJson(canonical)).toBe(plain(req));
      expect(requestKey(canonical)).toBe(createHash("sha256").update(plain(req)).digest("hex"));
      expect(JSON.stringify(canonical)).not.toContain("sk-ant-abcdef");
      transcript.push({ role: "assistant", content: [{ type: "tool_use", id: `c${turn}`, name: "t", input: { z: "x", a: turn, skip: undefined } }] });
      transcript.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `c${turn}`, content: `{"b":1,"a":${turn}}` }] });
    }
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
      format: 3,
      contract_version: CONTRACT_VERSION,
      model: "scripted",
      created_at: "2024-05-06T09:00:00.000Z",
    });
    expect(lines).toHaveLength(2 + original.result.turns); // meta, the tools line, the calls
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
    const w = makeWorld({ cash: 99_999 }); // the portfolio result (after the market overview's) differs → the 2nd request differs
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
    expect((err as Error).message).toMatch(/request 2 differs from the recording at \$\.messages\[2\]\.content\[1\]\.content/);
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
    const meta = '{"type":"meta","format":2,"contract_version":"x","model":"m","created_at":"t"}';
    expect(() => new ReplayClient(`${meta}\nnot json`)).toThrow(/line 2 is not JSON/);
    // A meta line without its fields is refused, not read with its model and contract left undefined.
    expect(() => new ReplayClient('{"type":"meta"}\nnot json')).toThrow(/line 1 is not a valid meta line/);
    // A call line whose request or response is not what the recorder writes is refused, naming the line.
    const call = (request: unknown, response: unknown) => JSON.stringify({ type: "call", index: 0, key: "k", request, response });
    const answer = {
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      model: "m",
    };
    expect(() => new ReplayClient(`${meta}\n${call({ system: "S", messages: "x", max_tokens: 1 }, answer)}`)).toThrow(
      /line 2: its request is not a recorded request/,
    );
    expect(() => new ReplayClient(`${meta}\n${call({ system: "S", messages: [], max_tokens: 1 }, { ...answer, usage: {} })}`)).toThrow(
      /line 2: its response is not a model answer/,
    );
    expect(new ReplayClient(`${meta}\n${call({ system: "S", messages: [], max_tokens: 1 }, answer)}`).remaining).toBe(1);
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
    expect(jsonl).toMatch(/\[redacted[^\]]*\]/);
  });

  test("an OpenAI-style key the model echoes is redacted too", async () => {
    const key = "sk-proj-OPENAISECRETOPENAISECRET";
    const rec = new RecordingClient(new QueueClient([{ content: [text(`the key is ${key}`)], stop_reason: "end_turn" }]), {
      contractVersion: CONTRACT_VERSION,
    });
    await run({ client: rec, runtime: makeWorld().runtime });
    expect(rec.toJsonl()).not.toContain("OPENAISECRET");
  });

  test("a QueueClient run records only request and response bodies", async () => {
    const rec = new RecordingClient(new QueueClient([{ content: [text("done")], stop_reason: "end_turn" }]), { contractVersion: CONTRACT_VERSION });
    await run({ client: rec, runtime: makeWorld().runtime });
    expect(Object.keys(JSON.parse(rec.lines[1] as string)).sort()).toEqual(["id", "tools", "type"]);
    const call = JSON.parse(rec.lines[2] as string);
    expect(Object.keys(call).sort()).toEqual(["index", "key", "request", "response", "type"]);
    expect(Object.keys(call.request).sort()).toEqual(["kept", "max_tokens", "messages", "system", "tools_ref"]);
  });
});

/** A cassette line, loosely typed for the tests' edits. */
// biome-ignore lint/suspicious/noExplicitAny: test fixture surgery
type Rec = Record<string, any>;

describe("formats 2 and 3: each tool list written once", () => {
  const sha = (s: string) => createHash("sha256").update(s).digest("hex");
  const jsonLines = (jsonl: string) =>
    jsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Rec);
  /** What audit says about a cassette's text. */
  const audit = (jsonl: string) => {
    const found: string[] = [];
    checkCassette(readCassette(jsonl), (_c, m) => found.push(m));
    return found;
  };
  /** The same recording as format 2 wrote it: each call's full request, its tools by reference. */
  const asFormat2 = (jsonl: string) => {
    const calls = parseCassette(jsonl).calls;
    const out: string[] = [];
    for (const rec of jsonLines(jsonl)) {
      if (rec.type === "meta") out.push(JSON.stringify({ ...rec, format: 2 }));
      else if (rec.type === "tools") out.push(JSON.stringify(rec));
      else {
        const { tools: _tools, ...request } = (calls.shift() as ParsedCall).request;
        out.push(JSON.stringify({ ...rec, request: { ...request, ...(rec.request.tools_ref ? { tools_ref: rec.request.tools_ref } : {}) } }));
      }
    }
    return `${out.join("\n")}\n`;
  };
  /** The same recording as format 1 wrote it: tools inline in every call, no tools lines. */
  const asFormat1 = (jsonl: string) => {
    const calls = parseCassette(jsonl).calls;
    const out: string[] = [];
    for (const rec of jsonLines(jsonl)) {
      if (rec.type === "meta") out.push(JSON.stringify({ ...rec, format: 1 }));
      else if (rec.type === "call") out.push(JSON.stringify({ ...rec, request: (calls.shift() as ParsedCall).request }));
    }
    return `${out.join("\n")}\n`;
  };

  test("a run with several calls writes one tools line, before the first call; calls refer to it and keep their full-request keys", async () => {
    const original = await record();
    expect(original.result.turns).toBeGreaterThan(2);
    const lines = jsonLines(original.rec.toJsonl());
    expect(lines.map((l) => l.type)).toEqual(["meta", "tools", ...Array(original.result.turns).fill("call")]);
    const toolsLine = lines[1] as { id: string; tools: unknown[] };
    expect(toolsLine.tools.length).toBeGreaterThan(0);
    expect(toolsLine.id).toBe(sha(canonicalJson(toolsLine.tools)));
    // The parser hands back full requests, and audit finds nothing.
    const parsed = parseCassette(original.rec.toJsonl());
    lines.slice(2).forEach((call, i) => {
      expect(call.request.tools).toBeUndefined();
      expect(call.request.tools_ref).toBe(toolsLine.id);
      expect(call.key).toBe(requestKey(parsed.calls[i]?.request as CanonicalRequest));
    });
    expect(parsed.calls.map((c) => c.line)).toEqual(lines.slice(2).map((_, i) => i + 3));
    for (const c of parsed.calls) expect(c.request.tools).toEqual(toolsLine.tools);
    expect(audit(original.rec.toJsonl())).toEqual([]);
  });

  test("a tool list changed mid-run writes a second tools line; a list used again is not repeated; replay follows", async () => {
    const toolsA = [{ name: "a", description: "A", input_schema: { type: "object" } }];
    const toolsB = [{ name: "b", description: "B", input_schema: { type: "object" } }];
    const answer = { content: [text("ok")], stop_reason: "end_turn" };
    const requests = [toolsA, toolsA, toolsB, toolsA].map((tools, i) => ({
      system: "S",
      tools,
      messages: [{ role: "user" as const, content: [text(`m${i}`)] }],
      maxTokens: 10,
      timeoutMs: 1000,
    }));
    const rec = new RecordingClient(new QueueClient(requests.map(() => answer)), { contractVersion: CONTRACT_VERSION });
    for (const r of requests) await rec.complete(r);
    const lines = jsonLines(rec.toJsonl());
    expect(lines.map((l) => l.type)).toEqual(["meta", "tools", "call", "call", "tools", "call", "call"]);
    expect(lines[1]?.tools).toEqual(toolsA);
    expect(lines[4]?.tools).toEqual(toolsB);
    expect(lines.filter((l) => l.type === "call").map((l) => l.request.tools_ref)).toEqual([lines[1]?.id, lines[1]?.id, lines[4]?.id, lines[1]?.id]);
    const replay = new ReplayClient(rec.toJsonl());
    for (const r of requests) expect((await replay.complete(r)).content).toEqual(answer.content);
    replay.assertConsumed();
    expect(audit(rec.toJsonl())).toEqual([]);
  });

  test("a request without tools has neither tools nor tools_ref", async () => {
    const rec = new RecordingClient(new QueueClient([{ content: [text("ok")], stop_reason: "end_turn" }]), { contractVersion: CONTRACT_VERSION });
    const req = { system: "S", messages: [{ role: "user" as const, content: [text("hi")] }], maxTokens: 10, timeoutMs: 1000 };
    await rec.complete(req as unknown as Parameters<typeof rec.complete>[0]);
    const lines = jsonLines(rec.toJsonl());
    expect(lines.map((l) => l.type)).toEqual(["meta", "call"]);
    expect(Object.keys(lines[1]?.request).sort()).toEqual(["kept", "max_tokens", "messages", "system"]);
    await new ReplayClient(rec.toJsonl()).complete(req as unknown as Parameters<typeof rec.complete>[0]);
  });

  test("format 1 text (tools inline in every call) still replays and audits cleanly", async () => {
    const original = await record();
    const v1 = asFormat1(original.rec.toJsonl());
    expect(v1).not.toContain('"tools_ref"');
    expect(JSON.parse(v1.split("\n")[0] as string).format).toBe(1);
    const replay = new ReplayClient(v1, { contractVersion: CONTRACT_VERSION });
    const w = makeWorld();
    const again = await run({ client: replay, runtime: w.runtime, submitState: w.submit.state });
    replay.assertConsumed();
    expect(JSON.stringify(again.result.transcript)).toBe(JSON.stringify(original.result.transcript));
    expect(parseCassette(v1).calls.map((c) => c.request)).toEqual(parseCassette(original.rec.toJsonl()).calls.map((c) => c.request));
    expect(audit(v1)).toEqual([]);
  });

  test("an edited tools line fails replay closed, naming a path under $.tools, and fails audit", async () => {
    const original = await record();
    const lines = original.rec.toJsonl().trim().split("\n");
    const tools = JSON.parse(lines[1] as string) as { id: string; tools: { description: string }[] };
    const description = (tools.tools[0] as { description: string }).description;
    (tools.tools[0] as { description: string }).description = `Always buy. ${description}`;
    lines[1] = JSON.stringify(tools);
    const edited = lines.join("\n");
    const replay = new ReplayClient(edited);
    const err = await run({ client: replay, runtime: makeWorld().runtime }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CassetteError);
    expect(err).toMatchObject({ code: "cassette_mismatch", details: { index: 0, path: "$.tools[0].description" } });
    expect((err as Error).message).toMatch(/^request 1 differs from the recording at \$\.tools\[0\]\.description: recorded "Always buy\. Read the account/);
    const found = audit(edited);
    expect(found).toContain("cassette.jsonl line 2: the tool list does not match its id (the cassette was edited)");
    expect(found).toContain("cassette.jsonl line 3: the recorded request (with the tools of line 2) does not match its key (the cassette was edited)");
    expect(found.filter((m) => /does not match its key/.test(m))).toHaveLength(original.result.turns);
  });

  test("a tools_ref naming no tools line, or a malformed tools line, is cassette_invalid naming the line; audit reports it", async () => {
    const original = await record();
    const lines = asFormat2(original.rec.toJsonl()).trim().split("\n");
    const call = JSON.parse(lines[3] as string);
    call.request.tools_ref = "0".repeat(64);
    const unknownRef = [...lines.slice(0, 3), JSON.stringify(call), ...lines.slice(4)].join("\n");
    expect(() => new ReplayClient(unknownRef)).toThrow(CassetteError);
    expect(() => new ReplayClient(unknownRef)).toThrow(/^cassette line 4: tools_ref "0{64}" names no earlier tools line$/);
    try {
      parseCassette(unknownRef);
    } catch (e) {
      expect(e).toMatchObject({ code: "cassette_invalid", details: { line: 4 } });
    }
    expect(audit(unknownRef)).toEqual([
      'cassette.jsonl line 4: tools_ref "0000000000000000000000000000000000000000000000000000000000000000" names no earlier tools line',
    ]);
    // A call before its tools line refers to nothing yet.
    const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)].join("\n");
    expect(() => new ReplayClient(swapped)).toThrow(/cassette line 2: tools_ref "[0-9a-f]{64}" names no earlier tools line/);
    const malformed = [lines[0], JSON.stringify({ type: "tools", id: 7 }), ...lines.slice(2)].join("\n");
    expect(() => new ReplayClient(malformed)).toThrow(/^cassette line 2 is not a valid tools line/);
    expect(audit(malformed)[0]).toMatch(/^cassette\.jsonl line 2 is not a valid tools line/);
  });

  test("a cassette of an unknown format is cassette_invalid", () => {
    expect(() => new ReplayClient('{"type":"meta","format":4,"contract_version":"x","model":"m","created_at":"t"}\n')).toThrow(
      /line 1: format 4 is not one this build reads \(1, 2, 3\)/,
    );
  });

  test("format 2 text (each call's full request) still replays and audits cleanly", async () => {
    const original = await record();
    const v2 = asFormat2(original.rec.toJsonl());
    expect(JSON.parse(v2.split("\n")[0] as string).format).toBe(2);
    expect(v2).not.toContain('"kept"');
    const replay = new ReplayClient(v2, { contractVersion: CONTRACT_VERSION });
    const w = makeWorld();
    const again = await run({ client: replay, runtime: w.runtime, submitState: w.submit.state });
    replay.assertConsumed();
    expect(JSON.stringify(again.result.transcript)).toBe(JSON.stringify(original.result.transcript));
    expect(parseCassette(v2).calls.map((c) => c.request)).toEqual(parseCassette(original.rec.toJsonl()).calls.map((c) => c.request));
    expect(audit(v2)).toEqual([]);
  });

  test("format 3: a call stores only its new messages (and its system prompt when it changed); an edit of any delta is found by audit and replay", async () => {
    const original = await record();
    const jsonl = original.rec.toJsonl();
    const lines = jsonLines(jsonl);
    const calls = lines.filter((l) => l.type === "call");
    const parsed = parseCassette(jsonl).calls;
    calls.forEach((call, i) => {
      expect(call.request.kept).toBe(i === 0 ? 0 : parsed[i - 1]?.request.messages.length);
      expect(call.request.system === undefined).toBe(i > 0);
    });
    expect(jsonl.length).toBeLessThan(asFormat2(jsonl).length);
    // Each call's delta edited in turn: its messages, its kept count, its max_tokens, its system.
    const text = jsonl.trim().split("\n");
    const edits: ((r: Rec) => void)[] = [
      (r) => {
        r.request.messages = [...r.request.messages, { role: "user", content: [{ type: "text", text: "x" }] }];
      },
      (r) => {
        r.request.kept = r.request.kept === 0 ? 1 : r.request.kept - 1;
      },
      (r) => {
        r.request.max_tokens += 1;
      },
      (r) => {
        r.request.system = `${r.request.system ?? ""}!`;
      },
    ];
    let cases = 0;
    lines.forEach((rec, at) => {
      if (rec.type !== "call") return;
      for (const edit of edits) {
        const changed = JSON.parse(text[at] as string) as Rec;
        edit(changed);
        const edited = [...text.slice(0, at), JSON.stringify(changed), ...text.slice(at + 1)].join("\n");
        expect(
          audit(edited).some((m) => m.startsWith(`cassette.jsonl line ${at + 1}`)),
          `line ${at + 1}`,
        ).toBe(true);
        cases++;
      }
    });
    expect(cases).toBe(4 * calls.length);
    // Replay fails closed on an edited delta, naming where the request differs.
    const second = lines.findIndex((l, i) => i > 2 && l.type === "call");
    const changed = JSON.parse(text[second] as string) as Rec;
    changed.request.max_tokens += 1;
    const edited = [...text.slice(0, second), JSON.stringify(changed), ...text.slice(second + 1)].join("\n");
    const err = await run({ client: new ReplayClient(edited), runtime: makeWorld().runtime }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CassetteError);
    expect(err).toMatchObject({ code: "cassette_mismatch", details: { path: "$.max_tokens" } });
  });
});
