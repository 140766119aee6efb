/** Load the configuration or refuse (exit 2) with every problem named. Light: no run services. */
import type { Instrument } from "../core/domain.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { loadConfig } from "./load.js";
import type { Config, ConfigIssue } from "./types.js";

export interface LoadedConfig {
  config: Config;
  universe: Instrument[];
}

/** The refusal of a configuration: every issue on its own line; exit 2. */
export function configRefused(errors: ConfigIssue[]): TwError {
  return new TwError(
    "config_invalid",
    `the configuration did not load; nothing runs on it:\n${errors.map((e) => `  - ${e.message}`).join("\n")}`,
    EXIT.USAGE_OR_CONFIG,
    errors,
  );
}

export function requireConfig(home: string): LoadedConfig {
  const r = loadConfig(home);
  if (!r.ok) throw configRefused(r.errors);
  return { config: r.config, universe: r.universe };
}
