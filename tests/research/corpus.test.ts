/**
 * The bundled news corpus: the synthetic items are exactly what the generator builds from the
 * bundled bars (tied to real moves in them), and the corpus holds what makes each filter matter.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSyntheticNews } from "../../scripts/build-news.js";
import { loadCorpus } from "../../src/research/embedded.js";
import { bundledCorpusDir } from "../../src/research/setup.js";
import { bundledDataDir } from "../../src/util/paths.js";

const corpus = loadCorpus(bundledCorpusDir());

describe("the bundled news corpus", () => {
  it("synthetic items are rebuilt byte for byte from the bundled bars, each labelled and tied to a real move", () => {
    const built = buildSyntheticNews(bundledDataDir());
    const text = `${built.map((i) => JSON.stringify(i)).join("\n")}\n`;
    expect(readFileSync(join(bundledCorpusDir(), "synthetic.jsonl"), "utf8")).toBe(text);
    for (const i of built) {
      expect(i.title).toContain("[synthetic]");
      expect(i.snippet).toMatch(/^SYNTHETIC ITEM/);
      expect(new URL(i.url).hostname.endsWith(".example")).toBe(true);
    }
    // A wire report's day is a day of the instrument's bars, and the move it states is the bars' move.
    const wire = built.find((i) => i.id.startsWith("syn-alfa-") && !i.id.endsWith("-copy") && !i.id.endsWith("-lookback"));
    const bars = readFileSync(join(bundledDataDir(), "market", "bars", "ALFA.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1);
    const at = bars.findIndex((l) => l.startsWith(`${wire?.published},`));
    expect(at).toBeGreaterThan(0);
    const close = (l: string | undefined) => Number(String(l).split(",")[4]);
    const pct = Math.abs((close(bars[at]) / close(bars[at - 1]) - 1) * 100).toFixed(1);
    expect(wire?.title).toContain(`${pct}%`);
  });

  it("holds real dated items, syndicated copies, www./subdomain hosts, undated items and after-the-fact items", () => {
    const real = corpus.filter((i) => i.id.startsWith("mkt-"));
    expect(real.length).toBeGreaterThanOrEqual(80);
    expect(real.every((i) => i.published !== null && i.published >= "2000-01-01")).toBe(true);
    const titles = new Map<string, number>();
    for (const i of corpus) titles.set(i.title, (titles.get(i.title) ?? 0) + 1);
    expect([...titles.values()].filter((n) => n > 1).length).toBeGreaterThan(10);
    expect(corpus.some((i) => new URL(i.url).hostname.startsWith("www."))).toBe(true);
    expect(corpus.some((i) => new URL(i.url).hostname.split(".").length > 2 && !new URL(i.url).hostname.startsWith("www."))).toBe(true);
    expect(corpus.filter((i) => i.published === null).length).toBeGreaterThanOrEqual(4);
    expect(corpus.some((i) => i.title.startsWith("Ten years after Lehman") && i.published === "2018-09-14")).toBe(true);
  });
});
