/**
 * The embedded provider keeps its last searches' matches (src/research/embedded.ts): a search asked
 * again answers what a provider that never saw it answers, a caller changing a result changes no
 * later answer, and only the last 64 searches are kept.
 */
import { describe, expect, it } from "vitest";
import { EmbeddedProvider, loadCorpus } from "../../src/research/embedded.js";
import { bundledCorpusDir } from "../../src/research/setup.js";

const corpus = loadCorpus(bundledCorpusDir());
const opts = (maxResults: number) => ({ maxResults, cutoff: "2010-06-01", domains: { block: [], allow: [] } });

describe("the embedded provider's recent searches", () => {
  it("answer a repeated search as a fresh provider does, whatever was asked between", async () => {
    const kept = new EmbeddedProvider(corpus);
    const queries = ["ALFA", "earnings guidance", "alfa", "the ALFA", "BRVO outlook", "ALFA"];
    for (const [i, q] of queries.entries()) {
      const max = i % 2 === 0 ? 5 : 60;
      expect(await kept.search(q, opts(max))).toEqual(await new EmbeddedProvider(corpus).search(q, opts(max)));
    }
    expect((await kept.search("ALFA", opts(5))).length).toBeGreaterThan(0);
  });

  it("hands each call its own results", async () => {
    const kept = new EmbeddedProvider(corpus);
    const first = await kept.search("ALFA", opts(5));
    const expected = structuredClone(first);
    if (first[0]) first[0].title = "changed";
    first.pop();
    expect(await kept.search("ALFA", opts(5))).toEqual(expected);
  });

  it("keeps the last 64 searches: an older one is searched again, to the same answer", async () => {
    const kept = new EmbeddedProvider(corpus);
    const ranked = kept as unknown as { ranked: (terms: readonly string[]) => unknown[] };
    const original = ranked.ranked.bind(kept);
    let searched = 0;
    ranked.ranked = (terms) => {
      searched++;
      return original(terms);
    };
    const first = await kept.search("ALFA", opts(5));
    await kept.search("ALFA", opts(5));
    expect(searched).toBe(1);
    for (let i = 0; i < 64; i++) await kept.search(`term${i}`, opts(5));
    expect(await kept.search("ALFA", opts(5))).toEqual(first);
    expect(searched).toBe(66);
  });
});
