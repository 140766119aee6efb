/**
 * The OpenAI path through the CLI's commands (in-process): `tradewarden run --yes --json` with `model.provider = "openai"`,
 * a canary key in OPENAI_API_KEY and `model.base_url` pointing at a loopback fake Chat Completions
 * API (the real `openai` SDK, streaming). The fake plays a small agent: portfolio → price history →
 * one grounded order. The key must reach the fake's Authorization header and nothing else: not the
 * home (journal, artifacts, config), not stdout or stderr, nor anything written past the command's io.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../agent/fake-openai-server.js";
import { expectExit, twIn } from "../e2e/helpers.js";

const CANARY = "sk-proj-CANARY-7f3e9a1c5b2d4e6f8a0b";
let fake: FakeOpenAI | null = null;
const homes: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

type Msg = { role: string; content?: string; tool_call_id?: string };

test("run --yes --json on an OpenAI-compatible endpoint: a grounded order is placed, cost recorded, the key written nowhere", async () => {
  fake = await startFakeOpenAI();
  const usage = { input_tokens: 1000, output_tokens: 80, cache_read_input_tokens: 3000 };
  fake.setResponder((body, i) => {
    const tools = (body.messages as Msg[]).filter((m) => m.role === "tool").map((m) => JSON.parse(String(m.content)) as Record<string, unknown>);
    if (i === 0)
      return {
        kind: "message",
        content: [
          { type: "text", text: "Checking the account." },
          { type: "tool_use", id: "call_p", name: "get_portfolio", input: {} },
        ],
        stop_reason: "tool_use",
        usage,
      };
    if (i === 1)
      return {
        kind: "message",
        content: [{ type: "tool_use", id: "call_h", name: "get_price_history", input: { symbol: "ALFA" } }],
        stop_reason: "tool_use",
        usage,
      };
    if (i === 2) {
      const [portfolio, history] = tools;
      const limit = Math.round(Number(history?.last_close) * 1.005 * 100) / 100;
      const order = {
        symbol: "ALFA",
        side: "BUY",
        quantity: 10,
        limit_price: limit,
        reason: "test order",
        evidence_ids: [String(portfolio?.evidence_id), String(history?.evidence_id)],
      };
      return {
        kind: "message",
        content: [{ type: "tool_use", id: "call_s", name: "submit_orders", input: { orders: [order], summary: "One small buy." } }],
        stop_reason: "tool_use",
        usage,
      };
    }
    return { kind: "message", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn", usage };
  });
  const home = mkdtempSync(join(tmpdir(), "tw-openai-"));
  homes.push(home);
  writeFileSync(join(home, "tradewarden.toml"), `[model]\nprovider = "openai"\nid = "gpt-5-mini"\nbase_url = "${fake.url}"\n`);
  // In-process: what the run answers and prints is under test, and what it writes past its io (`stray`, raw) is nothing.
  const env = { OPENAI_API_KEY: CANARY, NO_COLOR: "1" };
  const r = await twIn(home, ["run", "--yes", "--json"], { env });
  expect(r.stderr).toBe("");
  expect(r.stray).toBe("");
  expect(r.exitCode).toBe(0);
  const lines = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const types = lines.map((l) => l.type);
  expect(types).toContain("order.placed");
  expect(types).toContain("model.text");
  expect(lines.find((l) => l.type === "run.started")).toMatchObject({ model: { provider: "openai", id: "gpt-5-mini" } });
  const envelope = lines.at(-1) as { model: { provider: string; cost_usd: number }; safety: { secrets_read: string[] }; outcome: string };
  expect(envelope.outcome).toBe("executed");
  expect(envelope.model.provider).toBe("openai");
  // 3 calls × (1000 uncached × $0.25 + 3000 cached × $0.025 + 80 out × $2) / 1e6 = 3 × 0.000485 = 0.001455 USD
  expect(envelope.model.cost_usd).toBeCloseTo(0.001455, 9);
  expect(envelope.safety.secrets_read).toEqual(["OPENAI_API_KEY"]);
  // The key went to the fake as a header on every call, and only there.
  expect(fake.requests).toHaveLength(3);
  for (const req of fake.requests) {
    expect(req.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(JSON.stringify(req.body)).not.toContain(CANARY);
  }
  expect(`${r.stdout}${r.stderr}${r.stray}`).not.toContain(CANARY);
  const files = filesUnder(home);
  expect(files.some((f) => f.endsWith("cassette.jsonl"))).toBe(true);
  expect(files.some((f) => f.endsWith("tradecat-research-cycle.json"))).toBe(true);
  for (const f of files) expect(readFileSync(f, "utf8"), f).not.toContain(CANARY);
  const runId = readdirSync(join(home, "runs"))[0] as string;
  const audit = await twIn(home, ["audit", runId], { env });
  expectExit(audit, 0);
  // replay from the cassette, offline: the fake gets no further call
  const replay = await twIn(home, ["replay", runId], { env });
  expect(replay.stderr).toBe("");
  expectExit(replay, 0);
  expect(fake.requests).toHaveLength(3);
  const read = await twIn(home, ["journal", "--json"], { env });
  expectExit(read, 0);
  const journal = JSON.parse(read.stdout) as { runs: { cost_usd: number }[] };
  expect(journal.runs[0]?.cost_usd).toBeCloseTo(0.001455, 9);
  for (const out of [audit, replay]) expect(`${out.stdout}${out.stderr}${out.stray}`).not.toContain(CANARY);
}, 90_000);
