/**
 * One search call, as the tool and `tradewarden research search` both run it: refuse a blank or
 * over-long query (status `blocked`), log a missing provider as `disabled` (not an exception),
 * ask the provider, apply the point-in-time filters, and write the execution log entry.
 */
import { applyPointInTime, type FilterOutcome } from "./point-in-time.js";
import type { DomainPolicy } from "./domains.js";
import type { SearchLogEntry } from "../core/research.js";
import type { SearchProvider, UndatedMode } from "./types.js";

export const MAX_QUERY_CHARS = 300;
export const DEFAULT_MAX_RESULTS = 5;
export const MAX_RESULTS_LIMIT = 10;

export interface ResearchSetup {
  /** null: research is off (`provider = "none"`): calls are logged as `disabled`. */
  provider: SearchProvider | null;
  providerName: string;
  policy: DomainPolicy;
  /** The effective undated mode: simulations and replays always exclude. */
  undated: UndatedMode;
}

export interface SearchCall {
  query: string;
  /** The trading day: results published on or after it are dropped. */
  asOf: string;
  maxResults: number;
  signal?: AbortSignal;
  now?: () => number;
}

export interface SearchCallResult {
  log: SearchLogEntry;
  /** The filtered results (success, and disabled: empty). */
  outcome: FilterOutcome | null;
}

const zero = () => ({ cutoff: 0, undated: 0, policy: 0, duplicates: 0 });

/** Why a query is refused, or null when it may run. */
function queryProblem(query: string): string | null {
  if (query.trim() === "") return "the query is blank";
  if (query.length > MAX_QUERY_CHARS) return `the query is ${query.length} characters long (at most ${MAX_QUERY_CHARS})`;
  return null;
}

export async function runSearch(setup: ResearchSetup, call: SearchCall): Promise<SearchCallResult> {
  const now = call.now ?? (() => performance.now());
  const started = now();
  const entry = (status: SearchLogEntry["status"], extra: Partial<SearchLogEntry> = {}): SearchLogEntry => ({
    query: call.query.slice(0, MAX_QUERY_CHARS),
    provider: setup.providerName,
    status,
    duration_ms: Math.max(0, Math.round((now() - started) * 1000) / 1000),
    retrieved: 0,
    returned: 0,
    removed: zero(),
    invalid: 0,
    ...extra,
  });
  const problem = queryProblem(call.query);
  if (problem) return { log: entry("blocked", { message: problem }), outcome: null };
  if (!setup.provider) {
    const empty: FilterOutcome = { results: [], undated: [], removed: zero(), invalid: 0 };
    return { log: entry("disabled", { message: 'news search is off (research.provider = "none")' }), outcome: empty };
  }
  const maxResults = Math.max(1, Math.min(MAX_RESULTS_LIMIT, Math.floor(call.maxResults)));
  try {
    const raw = await setup.provider.search(call.query.trim(), {
      maxResults,
      cutoff: call.asOf,
      domains: setup.policy,
      ...(call.signal ? { signal: call.signal } : {}),
    });
    const outcome = applyPointInTime(raw, { ...setup.policy, cutoff: call.asOf, undated: setup.undated, maxResults });
    return {
      log: entry("success", {
        retrieved: raw.length,
        returned: outcome.results.length + outcome.undated.length,
        removed: outcome.removed,
        invalid: outcome.invalid,
      }),
      outcome,
    };
  } catch (e) {
    return { log: entry("error", { message: `${setup.providerName} search failed: ${e instanceof Error ? e.message : String(e)}` }), outcome: null };
  }
}
