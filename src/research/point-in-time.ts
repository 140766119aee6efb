/**
 * The point-in-time filters the tool applies to whatever a provider returns, in this order:
 *   1. provenance: a result needs an http(s) URL with a host, a title and a snippet (else policy);
 *   2. domain policy: block list, then allow list (src/research/domains.ts);
 *   3. cutoff: a result published on or after the run's trading day is dropped;
 *   4. undated: results with no publication date are kept apart — excluded, or (live runs that
 *      configure it) admitted separately and marked unverified;
 *   5. syndication: copies of one story (same normalised title) merge into one result that names
 *      every outlet, dated by its earliest copy, so three copies are not three confirmations.
 * Each step counts what it removed. Evidence ids are derived from the story, so they are stable
 * across calls and runs. Pure.
 */
import { createHash } from "node:crypto";
import { type DomainPolicy, hostOf, policyAllows } from "./domains.js";
import type { RemovedCounts } from "../core/research.js";
import type { ResearchItem, SearchResult, UndatedMode } from "./types.js";

export interface FilterOptions extends DomainPolicy {
  /** The run's trading day (YYYY-MM-DD): results published on or after it are dropped. */
  cutoff: string;
  undated: UndatedMode;
  maxResults: number;
}

export interface FilterOutcome {
  results: ResearchItem[];
  undated: ResearchItem[];
  removed: RemovedCounts;
  invalid: number;
}

const ISO_DAY = /^(\d{4}-\d{2}-\d{2})/;

/** A provider's date in canonical form (YYYY-MM-DD), or null when it is absent or unreadable. */
export function publicationDay(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.trim() === "") return null;
  const s = raw.trim();
  const iso = ISO_DAY.exec(s);
  if (iso) return validDay(iso[1] as string);
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  return new Date(t).toISOString().slice(0, 10);
}

function validDay(day: string): string | null {
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day ? day : null;
}

/** The key under which syndicated copies merge: the title, case and punctuation folded. */
function storyKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

interface Candidate {
  result: SearchResult;
  host: string;
  published: string | null;
}

function evidenceIdOf(key: string, published: string | null): string {
  const h = createHash("sha256")
    .update(`${key}|${published ?? "undated"}`)
    .digest("hex")
    .slice(0, 12);
  return published ? `news:${h}` : `news-undated:${h}`;
}

function merge(group: Candidate[]): { item: ResearchItem; score: number } {
  // The earliest copy dates and locates the story; ties go to the higher score, then the URL.
  const sorted = [...group].sort(
    (a, b) => (a.published ?? "").localeCompare(b.published ?? "") || b.result.score - a.result.score || a.result.url.localeCompare(b.result.url),
  );
  const first = sorted[0] as Candidate;
  const outlets = [...new Set(sorted.map((c) => c.host))];
  const item: ResearchItem = {
    evidence_id: evidenceIdOf(storyKey(first.result.title), first.published),
    title: first.result.title,
    url: first.result.url,
    published: first.published,
    outlets,
    snippet: first.result.snippet,
  };
  return { item, score: Math.max(...group.map((c) => c.result.score)) };
}

function dedupe(cands: Candidate[], counts: RemovedCounts): { item: ResearchItem; score: number }[] {
  const groups = new Map<string, Candidate[]>();
  for (const c of cands) {
    const k = storyKey(c.result.title);
    const g = groups.get(k);
    if (g) g.push(c);
    else groups.set(k, [c]);
  }
  const out: { item: ResearchItem; score: number }[] = [];
  for (const g of groups.values()) {
    counts.duplicates += g.length - 1;
    out.push(merge(g));
  }
  // Relevance first, then the newer story, then a stable tie-break.
  out.sort(
    (a, b) => b.score - a.score || (b.item.published ?? "").localeCompare(a.item.published ?? "") || a.item.evidence_id.localeCompare(b.item.evidence_id),
  );
  return out;
}

export function applyPointInTime(raw: readonly SearchResult[], opts: FilterOptions): FilterOutcome {
  const removed: RemovedCounts = { cutoff: 0, undated: 0, policy: 0, duplicates: 0 };
  let invalid = 0;
  const dated: Candidate[] = [];
  const undated: Candidate[] = [];
  for (const r of raw) {
    const host = typeof r.url === "string" ? hostOf(r.url) : null;
    if (!host || typeof r.title !== "string" || r.title.trim() === "" || typeof r.snippet !== "string" || r.snippet.trim() === "") {
      invalid++;
      removed.policy++;
      continue;
    }
    if (!policyAllows(host, opts)) {
      removed.policy++;
      continue;
    }
    const published = publicationDay(r.published);
    if (published === null) {
      undated.push({ result: r, host, published });
      continue;
    }
    if (published >= opts.cutoff) {
      removed.cutoff++;
      continue;
    }
    dated.push({ result: r, host, published });
  }
  const results = dedupe(dated, removed)
    .slice(0, opts.maxResults)
    .map((x) => x.item);
  let admitted: ResearchItem[] = [];
  if (opts.undated === "exclude") removed.undated += undated.length;
  else
    admitted = dedupe(undated, removed)
      .slice(0, opts.maxResults)
      .map((x) => ({ ...x.item, verified: false as const }));
  return { results, undated: admitted, removed, invalid };
}
