/**
 * Builds a run's research setup from the `[research]` config: the provider (the bundled corpus,
 * Tavily, or none), the domain policy and the effective undated mode (historical runs — simulations,
 * replays, runs on the simulated broker — always exclude undated results).
 */
import { join } from "node:path";
import type { ResearchConfig } from "../config/types.js";
import { bundledDataDir } from "../util/paths.js";
import { EmbeddedProvider } from "./embedded.js";
import type { ResearchSetup } from "./search.js";
import { TAVILY_KEY_ENV, TavilyProvider } from "./tavily.js";

const corpusCache = new Map<string, EmbeddedProvider>();

export function bundledCorpusDir(): string {
  return join(bundledDataDir(), "news");
}

/** The embedded provider over a corpus folder (loaded once per process). */
export function embeddedProvider(dir = bundledCorpusDir()): EmbeddedProvider {
  let p = corpusCache.get(dir);
  if (!p) {
    p = EmbeddedProvider.fromDir(dir);
    corpusCache.set(dir, p);
  }
  return p;
}

export interface ResearchSetupOptions {
  env: NodeJS.ProcessEnv;
  /** True for simulations, replays and runs on the simulated broker: undated results are always excluded. */
  historical: boolean;
  corpusDir?: string;
}

export function createResearchSetup(cfg: ResearchConfig, opts: ResearchSetupOptions): ResearchSetup & { secretsRead: string[] } {
  const policy = { block: [...cfg.block_domains], allow: [...cfg.allow_domains] };
  const undated = opts.historical ? "exclude" : cfg.undated;
  switch (cfg.provider) {
    case "none":
      return { provider: null, providerName: "none", policy, undated, secretsRead: [] };
    case "tavily":
      return { provider: TavilyProvider.fromEnv(opts.env), providerName: "tavily", policy, undated, secretsRead: [TAVILY_KEY_ENV] };
    default:
      return { provider: embeddedProvider(opts.corpusDir), providerName: "embedded", policy, undated, secretsRead: [] };
  }
}
