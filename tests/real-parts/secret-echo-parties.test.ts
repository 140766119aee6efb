/**
 * Keys echoed by every other party, in every form (tests/fixtures/secret-forms.ts: exact, case-
 * changed, base64 alone and inside a basic-auth pair or a header line, URL- and `\u`-escaped, JSON
 * in JSON, hex), through the CLI's commands (in-process; what a command writes past its io is
 * checked too, raw: `stray`; a key on a real process's output is tests/real-parts/secret-echo.test.ts's):
 * - a whole run where the search provider echoes its key in results and in an error, and the model
 *   writes both keys into its streamed text (split across events), into a search query and as a
 *   property name of tool arguments: no output, no file of the home and no request to another party
 *   (the next model request, the search queries) holds either key; audit of the run finds nothing —
 *   no secret and no disagreement caused by a redaction;
 * - `doctor --ping` against a model API that echoes the key (Anthropic and OpenAI), with
 *   TRADEWARDEN_DEBUG=1.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { auditRunDir } from "../../src/records/audit.js";
import { type FakeAnthropic, startFakeAnthropic } from "../agent/fake-anthropic-server.js";
import { startFakeOpenAI } from "../agent/fake-openai-server.js";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";
import { echoAll, leaksOf } from "../fixtures/secret-forms.js";
import { type FakeTavily, startFakeTavily } from "../research/fake-tavily.js";

const A_KEY = "sk-ant-canary+Q/7x9Zk2mWv4Rt8Lp3";
const T_KEY = "tvly-CANARY+Qz/8kLm2Np4Rs6";
const O_KEY = "sk-proj-canary+Zq/3Lm8Np2Rs6Tv9Wx";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  cleanupHomes();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** A file's text (a packed run's bundle decompressed). */
const contents = (f: string) => (f.endsWith(".br") ? brotliDecompressSync(readFileSync(f)).toString("utf8") : readFileSync(f, "utf8"));

const leaks = (text: string, keys: readonly string[]) => keys.flatMap((k) => leaksOf(text, k).map((f) => `${k.slice(0, 8)}…: ${f}`));

/** The model: turn 1 writes both keys, searches twice (once with keys in the query) and calls a tool with a key as a property name; turn 2 corrects that call and holds. */
function echoingModel(fake: FakeAnthropic): void {
  const usage = { input_tokens: 500, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  fake.setResponder((_body, i) => {
    if (i === 0) {
      return {
        kind: "message",
        content: [
          { type: "text", text: `Let me look. ${echoAll(A_KEY)} and the search key ${echoAll(T_KEY)}. Now the tools.` },
          { type: "tool_use", id: "tu_1", name: "search_news", input: { query: "Fed rates" } },
          { type: "tool_use", id: "tu_2", name: "search_news", input: { query: `Fed ${A_KEY} ${Buffer.from(`u:${T_KEY}`).toString("base64")}` } },
          { type: "tool_use", id: "tu_3", name: "get_portfolio", input: { [A_KEY]: echoAll(T_KEY) } },
        ],
        stop_reason: "tool_use",
        usage,
      };
    }
    return {
      kind: "message",
      content: [
        { type: "tool_use", id: "tu_8", name: "get_portfolio", input: {} },
        { type: "tool_use", id: "tu_9", name: "submit_orders", input: { orders: [], summary: "Hold." } },
      ],
      stop_reason: "tool_use",
      usage,
    };
  });
}

describe("keys echoed by the model and the search provider, in every form", () => {
  it("a whole run: no output, no file of the home, no model request and no search query holds a key; audit finds nothing", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    echoingModel(fake);
    const result = {
      title: `Fed news ${echoAll(T_KEY)}`,
      url: "https://www.wirenews.example/fed",
      content: `The gateway said: ${echoAll(T_KEY)}`,
      score: 0.9,
      published_date: "2006-12-29",
    };
    // The first search answers with results that echo the key; the second fails with an error that echoes it.
    const tavily: FakeTavily = await startFakeTavily([result], (i) => (i === 0 ? 200 : 401), `invalid api key ${echoAll(T_KEY)}`);
    closers.push(() => tavily.close());
    const home = freshHome(
      `[model]\nprovider = "anthropic"\nid = "claude-sonnet-5"\nbase_url = "${fake.url}"\nmax_retries = 0\n\n[broker]\nkind = "sim"\n\n[research]\nprovider = "tavily"\n`,
    );
    const env = { ANTHROPIC_API_KEY: A_KEY, TAVILY_API_KEY: T_KEY, TRADEWARDEN_TAVILY_BASE_URL: tavily.url, NO_COLOR: "1", TRADEWARDEN_DEBUG: "1" };
    const r = await twIn(home, ["run", "--yes"], { env });
    expectExit(r, 0);
    const keys = [A_KEY, T_KEY];

    // The parties saw what they were given: the model its key in a header, Tavily its key in a header, and the echoes happened.
    expect(fake.requests).toHaveLength(2);
    expect(tavily.requests).toHaveLength(2);
    expect(JSON.stringify(fake.requests[0]?.headers)).toContain(A_KEY);
    // What the model was sent after the tools ran: the tool results (with Tavily's echoes) and its own turn, redacted.
    const second = JSON.stringify(fake.requests[1]?.body);
    expect(second).toContain("The gateway said: [redacted TAVILY_API_KEY]");
    expect(second).toContain("invalid api key [redacted TAVILY_API_KEY]");
    expect(leaks(second, keys)).toEqual([]);
    for (const q of tavily.requests) expect(leaks(JSON.stringify(q.body), keys), JSON.stringify(q.body)).toEqual([]);

    // The printed output (the streamed text included) and every file of the home.
    const out = `${r.stdout}\n${r.stderr}\n${r.stray}`;
    expect(leaks(out, keys)).toEqual([]);
    expect(out).toContain("[redacted ANTHROPIC_API_KEY]");
    for (const f of filesUnder(home)) expect(leaks(contents(f), keys), f).toEqual([]);

    // audit, with both keys in its environment: no finding at all (no secret, and no disagreement a redaction could cause).
    const runId = readdirSync(join(home, "runs"))[0] as string;
    // The text still streamed live: many model.text events, not one held to the end.
    const texts = filesUnder(join(home, "runs", runId))
      .map(contents)
      .join("\n");
    expect(texts.split('"type":"model.text"').length).toBeGreaterThan(20);
    expect(auditRunDir(join(home, "runs", runId), env)).toEqual([]);
    // The audit command agrees.
    const audit = await twIn(home, ["audit", runId], { env });
    expectExit(audit, 0);
  }, 90_000);
});

describe("a search result that echoes the key exactly (a form always redacted)", () => {
  it("the run audits clean: the result is redacted before it is hashed, kept and sent, so the records agree", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    const usage = { input_tokens: 500, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    fake.setResponder((_body, i) =>
      i === 0
        ? { kind: "message", content: [{ type: "tool_use", id: "tu_1", name: "search_news", input: { query: "Fed rates" } }], stop_reason: "tool_use", usage }
        : {
            kind: "message",
            content: [{ type: "tool_use", id: "tu_9", name: "submit_orders", input: { orders: [], summary: "Hold." } }],
            stop_reason: "tool_use",
            usage,
          },
    );
    const tavily = await startFakeTavily([
      { title: "Fed news", url: "https://www.wirenews.example/fed", content: `key ${T_KEY} and ${A_KEY}`, score: 0.9, published_date: "2006-12-29" },
    ]);
    closers.push(() => tavily.close());
    const home = freshHome(
      `[model]\nprovider = "anthropic"\nid = "claude-sonnet-5"\nbase_url = "${fake.url}"\n\n[broker]\nkind = "sim"\n\n[research]\nprovider = "tavily"\n`,
    );
    const env = { ANTHROPIC_API_KEY: A_KEY, TAVILY_API_KEY: T_KEY, TRADEWARDEN_TAVILY_BASE_URL: tavily.url, NO_COLOR: "1" };
    const r = await twIn(home, ["run", "--yes"], { env });
    expectExit(r, 0);
    const runId = readdirSync(join(home, "runs"))[0] as string;
    expect(auditRunDir(join(home, "runs", runId), env)).toEqual([]);
    expect(leaks(JSON.stringify(fake.requests[1]?.body), [A_KEY, T_KEY])).toEqual([]);
  }, 60_000);
});

describe("doctor --ping against a model API that echoes the key in every form", () => {
  it("Anthropic: the failed ping names the redaction, never the key", async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.setResponder(() => ({ kind: "status", status: 401, errorType: "authentication_error", message: `invalid x-api-key ${echoAll(A_KEY)}` }));
    const home = freshHome(`[model]\nprovider = "anthropic"\nid = "claude-sonnet-5"\nbase_url = "${fake.url}"\nmax_retries = 0\n`);
    for (const args of [
      ["doctor", "--ping"],
      ["doctor", "--ping", "--json"],
    ]) {
      const r = await twIn(home, args, { env: { ANTHROPIC_API_KEY: A_KEY, NO_COLOR: "1", TRADEWARDEN_DEBUG: "1" } });
      const out = `${r.stdout}\n${r.stderr}\n${r.stray}`;
      expect(out).toMatch(/model\.ping|one-token request/);
      expect(out).toContain("[redacted ANTHROPIC_API_KEY]");
      expect(leaks(out, [A_KEY])).toEqual([]);
    }
  }, 60_000);

  it("OpenAI: the failed ping names the redaction, never the key", async () => {
    const fake = await startFakeOpenAI();
    closers.push(() => fake.close());
    fake.setResponder(() => ({ kind: "status", status: 401, errorType: "invalid_api_key", message: `Incorrect API key provided: ${echoAll(O_KEY)}` }));
    const home = freshHome(`[model]\nprovider = "openai"\nid = "gpt-5-mini"\nbase_url = "${fake.url}"\nmax_retries = 0\n`);
    const r = await twIn(home, ["doctor", "--ping"], { env: { OPENAI_API_KEY: O_KEY, NO_COLOR: "1", TRADEWARDEN_DEBUG: "1" } });
    const out = `${r.stdout}\n${r.stderr}\n${r.stray}`;
    expect(out).toMatch(/model\.ping|one-token request/);
    expect(out).toContain("[redacted OPENAI_API_KEY]");
    expect(leaks(out, [O_KEY])).toEqual([]);
  }, 60_000);
});
