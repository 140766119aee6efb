/**
 * An OpenAI-compatible URL that answers with something other than a chat completion stream (an
 * HTML page, an empty 200) or with an absurd tool-call index, through the CLI: `tradewarden run --yes --json` ends as the model being
 * unavailable (outcome `model_unavailable`, exit 4) with a sentence naming the endpoint and what
 * came back, never as a model that chose to do nothing (`no_submission`, exit 0), and never with the
 * key in it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import type { Behaviour } from "../agent/fake-anthropic-server.js";
import { type FakeOpenAI, sseChunks, startFakeOpenAI } from "../agent/fake-openai-server.js";
import { twIn } from "../e2e/helpers.js";

const CANARY = "sk-proj-CANARY-unusable-3c1d9e7f5a";
let fake: FakeOpenAI | null = null;
const homes: string[] = [];
afterEach(async () => {
  await fake?.close();
  fake = null;
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

async function runAgainst(answer: Behaviour) {
  fake = await startFakeOpenAI();
  fake.setResponder(() => answer);
  const home = mkdtempSync(join(tmpdir(), "tw-openai-unusable-"));
  homes.push(home);
  writeFileSync(join(home, "tradewarden.toml"), `[model]\nprovider = "openai"\nid = "gpt-5-mini"\nbase_url = "${fake.url}"\nmax_retries = 0\n`);
  // In-process: what the run answers and prints is under test (what it writes past its io too: `stray`), not a process.
  const r = await twIn(home, ["run", "--yes", "--json"], { env: { OPENAI_API_KEY: CANARY, NO_COLOR: "1" } });
  const lines = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { r, lines, envelope: lines.at(-1) as { outcome: string; exit_code: number; reason?: string } };
}

test.each([
  [
    "an HTML page",
    { kind: "raw", status: 200, headers: { "content-type": "text/html" }, body: "<!doctype html><html><body>Welcome to nginx!</body></html>" } as Behaviour,
    /text\/html\) with \d+ bytes starting "<!doctype html>/,
  ],
  ["an empty 200", { kind: "raw", status: 200, headers: { "content-type": "text/event-stream" }, body: "" } as Behaviour, /with an empty body/],
  [
    "a tool call at stream index 1,000,000,000",
    {
      kind: "raw",
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: sseChunks([
        {
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 1_000_000_000, id: "call_x", type: "function", function: { name: "get_portfolio", arguments: "{}" } }] },
              finish_reason: null,
            },
          ],
        },
        { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
      ]),
    } as Behaviour,
    /streamed tool call index 1000000000/,
  ],
])(
  "run on an endpoint answering %s: model_unavailable, exit 4, naming the endpoint and what came back",
  async (_name, answer, what) => {
    const { r, lines, envelope } = await runAgainst(answer);
    expect(r.exitCode).toBe(4);
    expect(envelope.outcome).toBe("model_unavailable");
    const finished = lines.find((l) => l.type === "agent.finished") as { outcome: string; reason: string };
    expect(finished.outcome).toBe("model_error");
    expect(finished.reason).toContain(`${fake?.url}/chat/completions`);
    expect(finished.reason).toMatch(what);
    expect(`${r.stdout}${r.stderr}`).toContain(`${fake?.url}/chat/completions`);
    expect(`${r.stdout}${r.stderr}${r.stray}`).not.toContain(CANARY);
  },
  90_000,
);
