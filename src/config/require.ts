/** Load the configuration or refuse (exit 2) with every problem named. Light: no run services. */
import type { Instrument } from "../core/domain.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { loadConfig } from "./load.js";
import type { Config } from "./types.js";

export interface LoadedConfig {
  config: Config;
  universe: Instrument[];
}

export function requireConfig(home: string): LoadedConfig {
  const r = loadConfig(home);
  if (!r.ok) {
    throw new TwError(
      "config_invalid",
      `the configuration did not load; nothing runs on it:\n${r.errors.map((e) => `  - ${e.message}`).join("\n")}`,
      EXIT.USAGE_OR_CONFIG,
      r.errors,
    );
  }
  return { config: r.config, universe: r.universe };
}
