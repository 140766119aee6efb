/**
 * The real Claude path through the CLI's commands (in-process): `tradewarden run --yes --json` with ANTHROPIC_API_KEY set and
 * `model.base_url` pointing at a loopback fake Messages API (the real SDK, streaming). The fake
 * plays a small agent: portfolio → price history → submit one grounded order. No internet, no key.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { breakpointCount, type FakeAnthropic, startFakeAnthropic } from "../agent/fake-anthropic-server.js";
import { expectExit, twIn } from "../e2e/helpers.js";

const KEY = "sk-ant-test-0123456789abcdef";
let fake: FakeAnthropic | null = null;
const homes: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

type Block = { type: string; tool_use_id?: string; content?: unknown };
function lastToolResults(body: Record<string, unknown>): Record<string, unknown>[] {
  const messages = body.messages as { role: string; content: Block[] | string }[];
  const last = messages.at(-1);
  if (!last || typeof last.content === "string") return [];
  return last.content.filter((b) => b.type === "tool_result").map((b) => JSON.parse(String(b.content)) as Record<string, unknown>);
}

test("run --yes with Claude (real SDK against a loopback fake): a grounded order is placed, cost journalled, the key never recorded", async () => {
  fake = await startFakeAnthropic();
  const usage = { input_tokens: 1200, output_tokens: 80, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  fake.setResponder((body, i) => {
    if (i === 0)
      return {
        kind: "message",
        content: [
          { type: "text", text: "Checking the account." },
          { type: "tool_use", id: "tu_1", name: "get_portfolio", input: {} },
        ],
        stop_reason: "tool_use",
        usage,
      };
    if (i === 1)
      return {
        kind: "message",
        content: [{ type: "tool_use", id: "tu_2", name: "get_price_history", input: { symbol: "ALFA" } }],
        stop_reason: "tool_use",
        usage,
      };
    if (i === 2) {
      const [history] = lastToolResults(body);
      const messages = body.messages as { role: string; content: Block[] }[];
      const portfolio = JSON.parse(String(messages[2]?.content[0]?.content)) as { evidence_id: string };
      const limit = Math.round(Number(history?.last_close) * 1.005 * 100) / 100;
      return {
        kind: "message",
        content: [
          {
            type: "tool_use",
            id: "tu_3",
            name: "submit_orders",
            input: {
              orders: [
                {
                  symbol: "ALFA",
                  side: "BUY",
                  quantity: 10,
                  limit_price: limit,
                  reason: "test order",
                  evidence_ids: [portfolio.evidence_id, String(history?.evidence_id)],
                },
              ],
              summary: "One small buy.",
            },
          },
        ],
        stop_reason: "tool_use",
        usage,
      };
    }
    return { kind: "message", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn", usage };
  });
  const home = mkdtempSync(join(tmpdir(), "tw-claude-"));
  homes.push(home);
  writeFileSync(join(home, "tradewarden.toml"), `[model]\nprovider = "anthropic"\nid = "claude-sonnet-5"\nbase_url = "${fake.url}"\n`);
  // In-process: the run's answers are under test; its stderr, and whatever it wrote past its io (stray), stay empty.
  const inEnv = { ANTHROPIC_API_KEY: KEY, NO_COLOR: "1" };
  const r = await twIn(home, ["run", "--yes", "--json"], { env: inEnv });
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
  const envelope = lines.at(-1) as { model: { provider: string; cost_usd: number }; safety: { secrets_read: string[] }; outcome: string };
  expect(envelope.outcome).toBe("executed");
  expect(envelope.model.provider).toBe("anthropic");
  // 3 calls × (1200 in × $2 + 80 out × $10) / 1e6 = 3 × 0.0032 = 0.0096 USD.
  expect(envelope.model.cost_usd).toBeCloseTo(0.0096, 6);
  expect(envelope.safety.secrets_read).toEqual(["ANTHROPIC_API_KEY"]);
  // The fake saw the key and at most four cache breakpoints per request; no artifact holds the key.
  expect(fake.requests).toHaveLength(3);
  for (const req of fake.requests) {
    expect(JSON.stringify(req.headers)).toContain(KEY);
    expect(breakpointCount(req.body)).toBeLessThanOrEqual(4);
  }
  const runId = readdirSync(join(home, "runs"))[0] as string;
  for (const f of readdirSync(join(home, "runs", runId))) expect(readFileSync(join(home, "runs", runId, f), "utf8")).not.toContain(KEY);
  const audit = await twIn(home, ["audit", runId], { env: inEnv });
  expect(audit.exitCode).toBe(0);
  const read = await twIn(home, ["journal", "--json"], { env: inEnv });
  expectExit(read, 0);
  const journal = JSON.parse(read.stdout) as { runs: { cost_usd: number }[] };
  expect(journal.runs[0]?.cost_usd).toBeCloseTo(0.0096, 6);
}, 60_000);
