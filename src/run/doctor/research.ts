/**
 * Doctor: the research provider behind `search_news` ([research]): disabled, the bundled corpus
 * (it loads; how many items, dated how far), or Tavily (its key is present — never printed — and,
 * with --ping, one search answers).
 */
import { TwError } from "../../core/errors.js";
import { bundledCorpusDir, embeddedProvider } from "../../research/setup.js";
import { TAVILY_KEY_ENV, TavilyProvider } from "../../research/tavily.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

export async function researchChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  if (!ctx.config) return [];
  const cfg = ctx.config.research;
  if (cfg.provider === "none") {
    return [
      pass("research", "research.provider", 'search_news is disabled ([research] provider = "none"): the model researches with the market-data tools only'),
    ];
  }
  if (cfg.provider === "embedded") {
    try {
      const items = embeddedProvider().items;
      const dated = items
        .map((i) => i.published)
        .filter((p): p is string => p !== null)
        .sort();
      const range = dated.length > 0 ? `, dated ${dated[0]?.slice(0, 10)} to ${dated[dated.length - 1]?.slice(0, 10)}` : "";
      return [
        pass("research", "research.provider", `the bundled news corpus: ${items.length} items${range}`, {
          items: items.length,
          undated: items.length - dated.length,
        }),
      ];
    } catch (e) {
      return [
        fail(
          "research",
          "research.provider",
          `the bundled news corpus does not load: ${(e as Error).message}`,
          `reinstall tradewarden (the corpus is ${bundledCorpusDir()}) or set [research] provider = "none"`,
        ),
      ];
    }
  }
  let provider: TavilyProvider;
  try {
    provider = TavilyProvider.fromEnv(ctx.env);
  } catch (e) {
    const why = e instanceof TwError ? e.message : String(e);
    return [
      fail(
        "research",
        "research.key",
        `Tavily is configured but cannot be used: ${why}`,
        `export ${TAVILY_KEY_ENV}=… (from app.tavily.com), or set [research] provider = "embedded"`,
      ),
    ];
  }
  const out: DoctorCheck[] = [pass("research", "research.key", `Tavily: ${TAVILY_KEY_ENV} is set`)];
  if (!ctx.ping) return out;
  try {
    const day = ctx.now.toISOString().slice(0, 10);
    const results = await provider.search("stock market", { maxResults: 1, cutoff: day, signal: AbortSignal.timeout(15_000) });
    out.push(pass("research", "research.ping", `Tavily answered a one-result search (${results.length} result${results.length === 1 ? "" : "s"})`));
  } catch (e) {
    out.push(
      fail(
        "research",
        "research.ping",
        `Tavily did not answer: ${redactKey((e as Error).message, ctx.env[TAVILY_KEY_ENV])}`,
        `check ${TAVILY_KEY_ENV} and the network, or set [research] provider = "embedded"`,
      ),
    );
  }
  return out;
}

/** An error body may echo the key: it is never printed. */
function redactKey(message: string, key: string | undefined): string {
  const k = key?.trim();
  return k ? message.split(k).join("[redacted]") : message;
}
