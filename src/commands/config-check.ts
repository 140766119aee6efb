/**
 * `tradewarden config check`: loads and validates the configuration and its universe, then what
 * `run` checks before it starts — the [model] keys, the model client, and the paper-only broker
 * guard on the configured endpoint — so a config it passes is one `run` accepts. Exit 2 naming
 * every problem.
 */
import { modelConfigIssues } from "../agent/model-config.js";
import { BrokerError } from "../broker/errors.js";
import { assertPaperEndpoint } from "../broker/guard.js";
import { loopbackAllowedForTests } from "../broker/loopback.js";
import { configRefused, requireConfig } from "../config/require.js";
import type { Config, ConfigIssue } from "../config/types.js";
import { EXIT } from "../core/exit-codes.js";
import { checkRunConfig } from "../run/services.js";
import type { CommandIO } from "./io.js";

/** The broker guard's refusal of the configured Alpaca endpoint, as a config issue (none for the simulated broker). */
function brokerIssues(config: Config): ConfigIssue[] {
  if (config.broker.kind !== "alpaca") return [];
  const file = config.source === null ? "defaults" : "tradewarden.toml";
  try {
    assertPaperEndpoint({ kind: "alpaca", url: config.broker.alpaca.base_url, paper: true }, { allowLoopback: loopbackAllowedForTests() });
    return [];
  } catch (e) {
    if (!(e instanceof BrokerError)) throw e;
    const path = "broker.alpaca.base_url";
    return [{ file, path, rule: e.message, message: `${file}: ${path}: ${e.message}` }];
  }
}

export function cmdConfigCheck(opts: { home: string }, io: CommandIO): number {
  const { config, universe } = requireConfig(opts.home);
  const issues = [...modelConfigIssues(config), ...brokerIssues(config)];
  if (issues.length > 0) throw configRefused(issues);
  checkRunConfig(config, io.env);
  io.stdout(`config ok: ${config.source ?? "built-in defaults (no tradewarden.toml in the home)"}; ${universe.length} instruments in the universe\n`);
  return EXIT.OK;
}
