/**
 * The embedded search provider: keyword search over the bundled news corpus (`data/news/*.jsonl`,
 * sources and licence in data/news/README.md). Like a web index searched today, it returns every
 * match whatever its date: the point-in-time filters are the tool's job, never the provider's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TwError } from "../core/errors.js";
import { EXIT } from "../core/exit-codes.js";
import type { SearchOptions, SearchProvider, SearchResult } from "./types.js";

export interface CorpusItem {
  id: string;
  title: string;
  url: string;
  snippet: string;
  published: string | null;
}

const STOPWORDS = new Set(["the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "at", "by", "is", "as", "with", "news", "what", "how"]);
const MAX_MATCHES = 50;
/** How many searches' matches a provider keeps (a simulation asks the same few queries day after day). */
const RECENT_SEARCHES = 64;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9&]+/)
    .filter((w) => w.length > 0);
}

function queryTerms(query: string): string[] {
  return [...new Set(words(query).filter((w) => !STOPWORDS.has(w)))];
}

/** Reads every `*.jsonl` file of a folder; a bad line is an error naming the file and line. */
export function loadCorpus(dir: string): CorpusItem[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  const items: CorpusItem[] = [];
  for (const f of files) {
    const lines = readFileSync(join(dir, f), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      let v: Partial<CorpusItem>;
      try {
        v = JSON.parse(line) as Partial<CorpusItem>;
      } catch (e) {
        throw new TwError("news_corpus_invalid", `${join(dir, f)} line ${i + 1}: not JSON (${(e as Error).message})`, EXIT.USAGE_OR_CONFIG);
      }
      if (
        typeof v.title !== "string" ||
        typeof v.url !== "string" ||
        typeof v.snippet !== "string" ||
        !(typeof v.published === "string" || v.published === null)
      ) {
        throw new TwError(
          "news_corpus_invalid",
          `${join(dir, f)} line ${i + 1}: needs title, url, snippet (strings) and published (YYYY-MM-DD or null)`,
          EXIT.USAGE_OR_CONFIG,
        );
      }
      items.push({ id: String(v.id ?? `${f}:${i + 1}`), title: v.title, url: v.url, snippet: v.snippet, published: v.published });
    });
  }
  return items;
}

interface Indexed {
  item: CorpusItem;
  title: string[];
  body: string[];
}

/** Whether a word of `ws` is the term, or (a term of 3+ letters) begins with it. */
const matches = (t: string, ws: readonly string[]) => ws.some((w) => w === t || (t.length >= 3 && w.startsWith(t)));

export class EmbeddedProvider implements SearchProvider {
  readonly name = "embedded";
  private readonly index: Indexed[];

  constructor(readonly items: readonly CorpusItem[]) {
    this.index = items.map((item) => ({ item, title: words(item.title), body: words(item.snippet) }));
  }

  static fromDir(dir: string): EmbeddedProvider {
    return new EmbeddedProvider(loadCorpus(dir));
  }

  /**
   * The last searches' matches by their terms and count, the least recently asked dropped first:
   * the corpus does not change, so the same terms match the same items in the same order. Each
   * call gets copies (a caller changing a result changes no later call's).
   */
  private readonly recent = new Map<string, readonly SearchResult[]>();

  async search(query: string, opts: SearchOptions): Promise<SearchResult[]> {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    // The caller's filters need room to work: more candidates than results are returned.
    const count = Math.max(MAX_MATCHES, opts.maxResults);
    const key = `${count} ${terms.join(" ")}`;
    let found = this.recent.get(key);
    if (found) this.recent.delete(key);
    else found = this.ranked(terms).slice(0, count);
    this.recent.set(key, found);
    if (this.recent.size > RECENT_SEARCHES) this.recent.delete(this.recent.keys().next().value as string);
    return found.map((r) => ({ ...r }));
  }

  /** Every item matching a term, best first. */
  private ranked(terms: readonly string[]): SearchResult[] {
    const scored: SearchResult[] = [];
    for (const d of this.index) {
      // The terms found in the title, and in the title or the body (no joined word list per item).
      let inTitle = 0;
      let all = 0;
      for (const t of terms) {
        if (matches(t, d.title)) {
          inTitle++;
          all++;
        } else if (matches(t, d.body)) all++;
      }
      if (all === 0) continue;
      const score = Math.round((all / terms.length + (0.2 * inTitle) / terms.length) * 1000) / 1000;
      scored.push({ title: d.item.title, url: d.item.url, snippet: d.item.snippet, published: d.item.published, score, provider: this.name });
    }
    scored.sort((a, b) => b.score - a.score || (b.published ?? "").localeCompare(a.published ?? "") || a.url.localeCompare(b.url));
    return scored;
  }
}
