/**
 * The research layer's types: one search protocol every provider implements, typed results with
 * their provenance, and the per-call execution log. Providers return what they find; the
 * point-in-time filters (src/research/point-in-time.ts) decide what a run may see.
 */
/** One document as a provider returns it (no vendor field names past this point). */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  /** Publication day (YYYY-MM-DD) when the provider knows it; null when it does not. */
  published: string | null;
  /** The provider's relevance ranking (ordering only; says nothing about truth). */
  score: number;
  /** Which provider returned it. */
  provider: string;
}

export interface SearchOptions {
  maxResults: number;
  /** The run's trading day (YYYY-MM-DD): a provider that can filter by date is asked for earlier documents. */
  cutoff: string;
  /** The domain policy, for providers that can apply it themselves (the tool applies it again). */
  domains?: { block: readonly string[]; allow: readonly string[] };
  signal?: AbortSignal;
}

export interface SearchProvider {
  readonly name: string;
  search(query: string, opts: SearchOptions): Promise<SearchResult[]>;
}

/** What undated results do: kept apart and excluded, or admitted and marked unverified (live runs only). */
export type UndatedMode = "exclude" | "include_unverified";

/** One result as the tool returns it: merged across syndicated copies, with an evidence id. */
export interface ResearchItem {
  evidence_id: string;
  title: string;
  url: string;
  published: string | null;
  /** Every outlet (normalised host) that carried this story. */
  outlets: string[];
  snippet: string;
  /** Present (false) only on undated items admitted in a live run. */
  verified?: false;
}
