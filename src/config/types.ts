/**
 * The loaded, validated configuration (the TOML file after defaults). The loader in
 * `src/config/load.ts` is the only producer; everything else reads this shape.
 * Keys are snake_case, exactly as in the file.
 */
import type { Static } from "@sinclair/typebox";
import type { Instrument } from "../core/domain.js";
import type { ExecutorSchema, LoadedConfigSchema, ModelSchema, ResearchSchema, SimBrokerSchema } from "./schema.js";

/** `[model]`: provider, id, limits per request and run, budgets (USD), endpoint, key variable, hand-set price. */
export type ModelConfig = Static<typeof ModelSchema>;

/** `[broker.sim]`: participation cap, commission schedule, first day of a fresh simulation. */
export type SimBrokerConfig = Static<typeof SimBrokerSchema>;

/** `[executor]`: how long the executor waits (seconds) and polls (milliseconds); the schema is the one definition. */
export type ExecutorConfig = Static<typeof ExecutorSchema>;

/** `[research]`: the news provider, domain filters (block first), undated results. */
export type ResearchConfig = Static<typeof ResearchSchema>;

/**
 * The loaded configuration: the validated file (defaults applied), `[limits]` with the account's
 * base currency, and the file it was loaded from (null when running on the built-in defaults).
 */
export type Config = Static<typeof LoadedConfigSchema>;

/** The universe as loaded from the configured CSV files (case-normalised, validated). */
export type Universe = Instrument[];

/** One reason a config (or a universe file) refused to load. */
export interface ConfigIssue {
  /** The file, as the user knows it: "tradewarden.toml", or a universe file as configured. */
  file: string;
  /** The key path ("limits.max_position_pct", "universe.files[0]", "row 3.currency", "line 4, column 7"). */
  path: string;
  /** The rule broken, with the value found ("must be in (0, 100], got 150"). */
  rule: string;
  /** `${file}: ${path}: ${rule}` — one line for a person. */
  message: string;
}

export type ConfigLoadResult = { ok: true; config: Config; universe: Universe } | { ok: false; errors: ConfigIssue[] };
