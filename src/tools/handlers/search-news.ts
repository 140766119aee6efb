/**
 * The `search_news` handler: runs one search as of the run's trading day through the research
 * setup (provider, policy, undated mode) and hands each call's execution log entry to `onLog`
 * (the pipeline puts it in the run's events). A disabled provider is a successful call with
 * status `disabled` and no results; a provider failure is `search_failed` (not retryable).
 */
import type { searchNews } from "../defs/search-news.js";
import type { AnswerOf, HandlerOf, ResultOf } from "../define.js";
import type { FilterOutcome } from "../../research/point-in-time.js";
import { DEFAULT_MAX_RESULTS, type ResearchSetup, runSearch } from "../../research/search.js";
import type { SearchLogEntry } from "../../core/research.js";

export interface SearchNewsDeps {
  setup: ResearchSetup;
  tradingDay: string;
  onLog?: (entry: SearchLogEntry) => void;
}

/** What the tool (and `research search --json`) returns for one filtered search. */
export function searchPayload(asOf: string, outcome: FilterOutcome): Pick<ResultOf<typeof searchNews>, "as_of" | "results" | "undated" | "removed"> {
  return { as_of: asOf, results: outcome.results, undated: outcome.undated, removed: outcome.removed };
}

export function makeSearchNewsHandler(deps: SearchNewsDeps): HandlerOf<typeof searchNews> {
  return async (args, ctx): Promise<AnswerOf<typeof searchNews>> => {
    const query = typeof args.query === "string" ? args.query : "";
    const maxResults = typeof args.max_results === "number" ? args.max_results : DEFAULT_MAX_RESULTS;
    const { log, outcome } = await runSearch(deps.setup, { query, asOf: deps.tradingDay, maxResults, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    deps.onLog?.(log);
    if (log.status === "blocked") {
      return {
        ok: false,
        code: "invalid_tool_arguments",
        message: `search_news refused the query: ${log.message ?? "invalid query"}`,
        issues: [{ path: "$.query", message: log.message ?? "invalid" }],
      };
    }
    if (log.status === "error" || !outcome) return { ok: false, code: "search_failed", message: log.message ?? "the news search failed" };
    const data: ResultOf<typeof searchNews> = { ...searchPayload(deps.tradingDay, outcome), provider: log.provider, status: log.status };
    if (log.status === "disabled") data.message = "News search is off in this configuration: decide from prices and the portfolio.";
    const ids = [...outcome.results, ...outcome.undated].map((r) => r.evidence_id);
    return { ok: true, data, evidenceIds: ids };
  };
}
