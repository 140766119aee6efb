/**
 * The live provider (Tavily through @tavily/core) against a loopback fake that returns future,
 * undated and blocked items: the request asks for an end date before the cutoff and names the
 * domain lists, and still none of those items reaches the model — the tool filters locally.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { makeSearchNewsHandler } from "../../src/tools/handlers/search-news.js";
import { createResearchSetup } from "../../src/research/setup.js";
import { TavilyProvider } from "../../src/research/tavily.js";
import { TOOL_NAMES } from "../../src/tools/catalogue.js";
import { buildToolRuntime } from "../../src/tools/runtime.js";
import type { ToolHandler } from "../../src/tools/types.js";
import { TwError } from "../../src/core/errors.js";
import { cleanupHomes, expectExit, freshHome, twIn } from "../e2e/helpers.js";
import { type FakeTavily, MIXED, startFakeTavily } from "./fake-tavily.js";
import { checked } from "../tools/checked.js";

const KEY = "tvly-test-key-0123456789";
let fake: FakeTavily | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(cleanupHomes);

const research = (undated: "exclude" | "include_unverified") => ({
  provider: "tavily" as const,
  block_domains: ["www.tradertalk.example"],
  allow_domains: [],
  undated,
  stale_evidence_days: 30,
});

async function searchAsModel(historical: boolean, undated: "exclude" | "include_unverified") {
  fake = await startFakeTavily(MIXED);
  const setup = createResearchSetup(research(undated), { env: { TAVILY_API_KEY: KEY, TRADEWARDEN_TAVILY_BASE_URL: fake.url }, historical });
  const logs: unknown[] = [];
  const noop: ToolHandler = () => ({ ok: true, data: {} });
  const handlers = Object.fromEntries(TOOL_NAMES.map((n) => [n, noop]));
  handlers.search_news = checked("search_news", makeSearchNewsHandler({ setup, tradingDay: "2020-03-16", onLog: (l) => logs.push(l) }));
  const rt = buildToolRuntime(handlers, { runId: "r", tradingDay: "2020-03-16" });
  const out = await rt.dispatch("search_news", { query: "Fed rates", max_results: 5 });
  return { out, logs, fake };
}

describe("Tavily provider against a loopback fake", () => {
  it("asks for news ending the day before the trading day, with the domain lists and the key", async () => {
    const { fake: f } = await searchAsModel(true, "exclude");
    expect(f.requests).toHaveLength(1);
    const req = f.requests[0];
    expect(req?.path).toBe("/search");
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.body).toMatchObject({ query: "Fed rates", topic: "news", end_date: "2020-03-15", exclude_domains: ["www.tradertalk.example"] });
  });

  it("in a simulation, future, on-the-day, undated and blocked items never reach the model; syndicated copies merge", async () => {
    const { out, logs } = await searchAsModel(true, "include_unverified");
    expect(out.success).toBe(true);
    for (const banned of ["FUTURE", "ON THE DAY", "UNDATED", "BLOCKED"]) expect(out.text).not.toContain(banned);
    const data = out.envelope as { results: { title: string; outlets: string[]; published: string }[]; undated: unknown[] };
    expect(data.results).toEqual([
      expect.objectContaining({ title: "Fed cuts rates to near zero", published: "2020-03-15", outlets: ["cbwatch.example", "markets.wirenews.example"] }),
    ]);
    expect(data.undated).toEqual([]); // simulations always exclude, whatever the config says
    expect(logs).toEqual([
      expect.objectContaining({
        provider: "tavily",
        status: "success",
        retrieved: 6,
        returned: 1,
        removed: { cutoff: 2, undated: 1, policy: 1, duplicates: 1 },
      }),
    ]);
    expect(JSON.stringify(logs)).not.toContain(KEY);
  });

  it("in a live run configured to admit them, undated items come apart and marked unverified", async () => {
    const { out } = await searchAsModel(false, "include_unverified");
    const data = out.envelope as { results: unknown[]; undated: { title: string; verified: boolean; evidence_id: string }[] };
    expect(data.results).toHaveLength(1);
    expect(data.undated).toEqual([expect.objectContaining({ title: "UNDATED: a pandemic timeline", verified: false })]);
    for (const banned of ["FUTURE", "ON THE DAY", "BLOCKED"]) expect(out.text).not.toContain(banned);
  });

  it("a provider error is a non-retryable search_failed envelope", async () => {
    fake = await startFakeTavily([], 429);
    const setup = createResearchSetup(research("exclude"), { env: { TAVILY_API_KEY: KEY, TRADEWARDEN_TAVILY_BASE_URL: fake.url }, historical: true });
    const h = checked("search_news", makeSearchNewsHandler({ setup, tradingDay: "2020-03-16" }));
    const r = await h({ query: "Fed" }, { runId: "r", tradingDay: "2020-03-16", seenEvidence: new Set(), pending: [] });
    expect(r).toMatchObject({ ok: false, code: "search_failed" });
  });

  it("needs the key, and a base URL override must be loopback", () => {
    expect(() => TavilyProvider.fromEnv({})).toThrow(TwError);
    expect(() => TavilyProvider.fromEnv({ TAVILY_API_KEY: KEY, TRADEWARDEN_TAVILY_BASE_URL: "https://example.com" })).toThrow(/loopback/);
  });

  it("`research search --json` prints the public shape, through the CLI's entry (src/cli.tsx main)", async () => {
    fake = await startFakeTavily(MIXED);
    const home = freshHome('[broker]\nkind = "sim"\n\n[research]\nprovider = "tavily"\nblock_domains = ["tradertalk.example"]\n');
    const r = await twIn(home, ["research", "search", "Fed rates", "--as-of", "2020-03-16", "--json"], {
      env: { TAVILY_API_KEY: KEY, TRADEWARDEN_TAVILY_BASE_URL: fake.url },
    });
    expectExit(r, 0);
    const doc = JSON.parse(String(r.stdout)) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["as_of", "results", "undated", "removed"]);
    expect(doc.as_of).toBe("2020-03-16");
    expect(Object.keys((doc.results as Record<string, unknown>[])[0] ?? {})).toEqual(["evidence_id", "title", "url", "published", "outlets", "snippet"]);
    expect(doc.removed).toEqual({ cutoff: 2, undated: 1, policy: 1, duplicates: 1 });
    expect(String(r.stdout) + String(r.stderr)).not.toContain(KEY);
    const missing = await twIn(home, ["research", "search", "Fed", "--as-of", "2020-03-16"], { env: { TRADEWARDEN_TAVILY_BASE_URL: fake.url } });
    expectExit(missing, 2);
    expect(String(missing.stderr)).toMatch(/TAVILY_API_KEY/);
  });
});
