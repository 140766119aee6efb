/**
 * `tradewarden research search "QUERY" --as-of DAY [--json] [--max N]`: exactly what search_news
 * would return to a run on that trading day with this configuration (same provider, domain policy
 * and undated mode — undated results are excluded on the simulated broker, as in simulations).
 * `--json` prints the public contract: { as_of, results, undated, removed }.
 */
import { requireConfig } from "../config/require.js";
import { isIsoDay } from "../market/calendar.js";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT, runSearch } from "../research/search.js";
import { createResearchSetup } from "../research/setup.js";
import { searchPayload } from "../tools/handlers/search-news.js";
import type { ResearchItem } from "../research/types.js";
import { EXIT } from "../core/exit-codes.js";
import { sanitizeLine } from "../util/sanitize.js";
import type { CommandIO } from "./io.js";

export interface ResearchSearchOptions {
  home: string;
  query: string;
  asOf: string;
  json: boolean;
  max?: string;
}

export async function cmdResearchSearch(opts: ResearchSearchOptions, io: CommandIO): Promise<number> {
  const fail = (msg: string, code: number = EXIT.USAGE_OR_CONFIG) => {
    io.stderr(`tradewarden research search: ${msg}\n`);
    return code;
  };
  if (!isIsoDay(opts.asOf)) return fail(`--as-of ${opts.asOf} is not a date (YYYY-MM-DD)`);
  let max = DEFAULT_MAX_RESULTS;
  if (opts.max !== undefined) {
    max = Number(opts.max);
    if (!Number.isInteger(max) || max < 1 || max > MAX_RESULTS_LIMIT) return fail(`--max ${opts.max} must be a whole number from 1 to ${MAX_RESULTS_LIMIT}`);
  }
  const { config } = requireConfig(opts.home);
  const setup = createResearchSetup(config.research, { env: io.env, historical: config.broker.kind === "sim" });
  const { log, outcome } = await runSearch(setup, { query: opts.query, asOf: opts.asOf, maxResults: max });
  if (log.status === "blocked") return fail(`the query was refused: ${log.message ?? "invalid"}`);
  if (log.status === "error" || !outcome) return fail(log.message ?? "the search failed", EXIT.BROKER_OR_DATA_UNAVAILABLE);
  if (opts.json) {
    io.stdout(`${JSON.stringify(searchPayload(opts.asOf, outcome))}\n`);
    return EXIT.OK;
  }
  const r = outcome.removed;
  io.stdout(
    `news before ${opts.asOf} via ${log.provider} (${log.status}): ${outcome.results.length} result(s), ${outcome.undated.length} undated; removed: cutoff ${r.cutoff}, undated ${r.undated}, policy ${r.policy}, duplicates ${r.duplicates}\n`,
  );
  if (log.status === "disabled") io.stdout('news search is off: research.provider = "none"\n');
  const print = (items: ResearchItem[], label: string) => {
    items.forEach((it, i) => {
      io.stdout(`${label}${i + 1}. ${it.published ?? "undated   "}  ${sanitizeLine(it.title)}\n`);
      io.stdout(`    ${it.evidence_id}  ${sanitizeLine(it.url)}  outlets: ${it.outlets.join(", ")}\n`);
      io.stdout(`    ${sanitizeLine(it.snippet)}\n`);
    });
  };
  print(outcome.results, "");
  if (outcome.undated.length > 0) {
    io.stdout("undated (unverified; never grounds an order alone):\n");
    print(outcome.undated, "u");
  }
  return EXIT.OK;
}
