/**
 * The point-in-time filters, each on its boundary, and the execution log's counts: cutoff (the
 * trading day itself is dropped, the day before kept), undated per mode, the domain policy with
 * `www.`/subdomain normalisation on both the host and the list entries, syndication merge,
 * provenance, and the search call's statuses (success, blocked, disabled, error).
 */
import { describe, expect, it } from "vitest";
import { domainMatches, hostOf, normaliseDomain, policyAllows } from "../../src/research/domains.js";
import { applyPointInTime, publicationDay } from "../../src/research/point-in-time.js";
import { DEFAULT_MAX_RESULTS, MAX_QUERY_CHARS, MAX_RESULTS_LIMIT, type ResearchSetup, runSearch } from "../../src/research/search.js";
import { searchNews } from "../../src/tools/defs/search-news.js";
import type { SearchProvider, SearchResult } from "../../src/research/types.js";

const item = (over: Partial<SearchResult> = {}): SearchResult => ({
  title: "Fed cuts rates",
  url: "https://www.wirenews.example/a",
  snippet: "The Federal Reserve cut its target.",
  published: "2008-03-17",
  score: 0.9,
  provider: "test",
  ...over,
});

const base = { cutoff: "2008-03-18", undated: "exclude" as const, block: [] as string[], allow: [] as string[], maxResults: 10 };

describe("cutoff", () => {
  it("drops a result published on the trading day and keeps the day before", () => {
    const out = applyPointInTime(
      [
        item({ title: "On the day", published: "2008-03-18" }),
        item({ title: "Day before", published: "2008-03-17" }),
        item({ title: "Later", published: "2008-04-01" }),
      ],
      base,
    );
    expect(out.results.map((r) => r.title)).toEqual(["Day before"]);
    expect(out.removed).toEqual({ cutoff: 2, undated: 0, policy: 0, duplicates: 0 });
  });

  it("reads provider timestamps and RFC dates as days (a timestamp late on the day before is kept)", () => {
    expect(publicationDay("2008-03-17T23:59:00Z")).toBe("2008-03-17");
    expect(publicationDay("Mon, 17 Mar 2008 10:00:00 GMT")).toBe("2008-03-17");
    expect(publicationDay("2008-02-30")).toBeNull();
    expect(publicationDay("sometime")).toBeNull();
    const out = applyPointInTime([item({ published: "2008-03-17T23:59:00Z" }), item({ title: "x", published: "2008-03-18T00:00:01Z" })], base);
    expect(out.results).toHaveLength(1);
    expect(out.removed.cutoff).toBe(1);
  });
});

describe("undated results", () => {
  const raw = [item({ title: "Dated" }), item({ title: "Undated one", published: null }), item({ title: "Unreadable date", published: "n/a" })];

  it("are excluded and counted in simulations and replays (exclude)", () => {
    const out = applyPointInTime(raw, base);
    expect(out.results.map((r) => r.title)).toEqual(["Dated"]);
    expect(out.undated).toEqual([]);
    expect(out.removed.undated).toBe(2);
  });

  it("are kept apart and marked unverified when a live run admits them (include_unverified)", () => {
    const out = applyPointInTime(raw, { ...base, undated: "include_unverified" });
    expect(out.results.map((r) => r.title)).toEqual(["Dated"]);
    expect(out.undated.map((r) => [r.title, r.verified, r.published])).toEqual([
      ["Undated one", false, null],
      ["Unreadable date", false, null],
    ]);
    expect(out.undated.every((r) => r.evidence_id.startsWith("news-undated:"))).toBe(true);
    expect(out.removed.undated).toBe(0);
  });
});

describe("domain policy", () => {
  it("normalises www., case, scheme, path and trailing dots on both the host and the entries", () => {
    expect(normaliseDomain("https://WWW.Reuters.com/markets")).toBe("reuters.com");
    expect(normaliseDomain("www.reuters.com.")).toBe("reuters.com");
    expect(hostOf("https://www.uk.reuters.com/x")).toBe("uk.reuters.com");
    expect(hostOf("ftp://reuters.com/x")).toBeNull();
    // An entry written with www. matches the bare host and any subdomain.
    expect(domainMatches("uk.reuters.com", "www.reuters.com")).toBe(true);
    expect(domainMatches("www.reuters.com", "reuters.com")).toBe(true);
    expect(domainMatches("reuters.com", "www.reuters.com")).toBe(true);
    // ...but not a different domain that merely ends with the same letters.
    expect(domainMatches("notreuters.com", "reuters.com")).toBe(false);
  });

  it("applies the block list first, then the allow list", () => {
    const policy = { block: ["www.forum.wirenews.example"], allow: ["wirenews.example"] };
    expect(policyAllows("wirenews.example", policy)).toBe(true);
    expect(policyAllows("markets.wirenews.example", policy)).toBe(true);
    expect(policyAllows("forum.wirenews.example", policy)).toBe(false); // allowed domain, blocked subdomain
    expect(policyAllows("x.forum.wirenews.example", policy)).toBe(false);
    expect(policyAllows("ledger-times.example", policy)).toBe(false); // not on the allow list
  });

  it("counts what the policy removed, results without provenance included", () => {
    const raw = [
      item({ title: "a", url: "https://WWW.Blocked.example/a" }),
      item({ title: "b", url: "https://news.blocked.example/b" }),
      item({ title: "c", url: "https://ok.example/c" }),
      item({ title: "d", url: "not a url" }),
      item({ title: "e", url: "https://ok.example/e", snippet: " " }),
    ];
    const out = applyPointInTime(raw, { ...base, block: ["www.blocked.example"] });
    expect(out.results.map((r) => r.title)).toEqual(["c"]);
    expect(out.removed.policy).toBe(4);
    expect(out.invalid).toBe(2);
  });
});

describe("syndication", () => {
  it("merges copies of one story into one result naming every outlet, dated by the earliest copy", () => {
    const raw = [
      item({ title: "Lehman Brothers files for bankruptcy", url: "https://www.ledger-times.example/l", published: "2008-09-15", score: 0.7 }),
      item({ title: "LEHMAN BROTHERS files for bankruptcy!", url: "https://markets.wirenews.example/l", published: "2008-09-16", score: 0.9 }),
      item({ title: "Lehman Brothers files for bankruptcy", url: "https://forum.tradertalk.example/l", published: "2008-09-15", score: 0.4 }),
      item({ title: "Another story", url: "https://ledger-times.example/o", published: "2008-09-14", score: 0.5 }),
    ];
    const out = applyPointInTime(raw, { ...base, cutoff: "2008-09-17" });
    expect(out.results).toHaveLength(2);
    const merged = out.results[0];
    // The copy that locates the story first, then the others (earliest, then by score).
    expect(merged?.outlets).toEqual(["ledger-times.example", "forum.tradertalk.example", "markets.wirenews.example"]);
    expect(merged?.url).toBe("https://www.ledger-times.example/l");
    expect(merged?.published).toBe("2008-09-15");
    expect(out.removed.duplicates).toBe(2);
    // The id is derived from the story: the same story gets the same id in every call.
    const again = applyPointInTime([...raw].reverse(), { ...base, cutoff: "2008-09-17" });
    expect(again.results[0]?.evidence_id).toBe(merged?.evidence_id);
  });

  it("a copy published on the cutoff day is dropped by the cutoff, not merged", () => {
    const raw = [item({ url: "https://a.example/x", published: "2008-03-17" }), item({ url: "https://b.example/x", published: "2008-03-18" })];
    const out = applyPointInTime(raw, base);
    expect(out.results[0]?.outlets).toEqual(["a.example"]);
    expect(out.removed).toMatchObject({ cutoff: 1, duplicates: 0 });
  });
});

describe("a search call and its execution log", () => {
  it("refuses exactly what the tool's contract refuses (one limit, two places)", () => {
    const p = searchNews.input.properties;
    expect(p.query.maxLength).toBe(MAX_QUERY_CHARS);
    expect(p.max_results.maximum).toBe(MAX_RESULTS_LIMIT);
    expect(p.max_results.default).toBe(DEFAULT_MAX_RESULTS);
  });

  const provider = (results: SearchResult[] | Error): SearchProvider => ({
    name: "fake",
    search: async () => {
      if (results instanceof Error) throw results;
      return results;
    },
  });
  const setup = (p: SearchProvider | null, over: Partial<ResearchSetup> = {}): ResearchSetup => ({
    provider: p,
    providerName: p ? "fake" : "none",
    policy: { block: ["blocked.example"], allow: [] },
    undated: "exclude",
    ...over,
  });

  it("logs how many results each filter removed", async () => {
    const raw = [
      item({ title: "kept" }),
      item({ title: "kept", url: "https://copy.example/k" }),
      item({ title: "future", published: "2008-03-20" }),
      item({ title: "undated", published: null }),
      item({ title: "blocked", url: "https://www.blocked.example/b" }),
    ];
    const { log, outcome } = await runSearch(setup(provider(raw)), { query: "Fed", asOf: "2008-03-18", maxResults: 5 });
    expect(log).toMatchObject({
      query: "Fed",
      provider: "fake",
      status: "success",
      retrieved: 5,
      returned: 1,
      removed: { cutoff: 1, undated: 1, policy: 1, duplicates: 1 },
    });
    expect(log.duration_ms).toBeGreaterThanOrEqual(0);
    expect(outcome?.results.map((r) => r.title)).toEqual(["kept"]);
  });

  it("refuses a blank or over-long query without asking the provider (blocked)", async () => {
    let asked = 0;
    const p: SearchProvider = {
      name: "fake",
      search: async () => {
        asked++;
        return [];
      },
    };
    for (const q of ["", "   \t", "x".repeat(MAX_QUERY_CHARS + 1)]) {
      const { log, outcome } = await runSearch(setup(p), { query: q, asOf: "2008-03-18", maxResults: 5 });
      expect(log.status).toBe("blocked");
      expect(outcome).toBeNull();
    }
    expect((await runSearch(setup(p), { query: "x".repeat(MAX_QUERY_CHARS), asOf: "2008-03-18", maxResults: 5 })).log.status).toBe("success");
    expect(asked).toBe(1);
  });

  it("a missing provider is a logged `disabled` outcome, not an exception; a failing one is `error`", async () => {
    const off = await runSearch(setup(null), { query: "Fed", asOf: "2008-03-18", maxResults: 5 });
    expect(off.log).toMatchObject({ status: "disabled", provider: "none", returned: 0 });
    expect(off.outcome?.results).toEqual([]);
    const broken = await runSearch(setup(provider(new Error("HTTP 500"))), { query: "Fed", asOf: "2008-03-18", maxResults: 5 });
    expect(broken.log.status).toBe("error");
    expect(broken.log.message).toMatch(/HTTP 500/);
  });
});
