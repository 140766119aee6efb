/**
 * The `[model]` checks that need the agent's knowledge (the price table, the scripted policies):
 * one function used by `config check` and by the run's start-up, so both refuse the same configs
 * with the same words. Provider-independent: an unpriceable id or an unknown script is a mistake
 * whichever model would run today.
 */
import type { Config, ConfigIssue } from "../config/types.js";
import { type PriceTable, loadPriceTable } from "./pricing.js";
import { SCRIPTS, isScriptName } from "./scripted-client.js";

export function modelConfigIssues(config: Config, table: PriceTable = loadPriceTable()): ConfigIssue[] {
  const file = config.source === null ? "defaults" : "tradewarden.toml";
  const out: ConfigIssue[] = [];
  const add = (path: string, rule: string) => out.push({ file, path, rule, message: `${file}: ${path}: ${rule}` });
  const { id, script, provider, price } = config.model;
  // `[model.price]` prices any id by hand; otherwise the id must be in its provider's table
  // (auto and scripted may run Claude, so they are checked against Claude's).
  const models = provider === "openai" ? table.openai : table.models;
  if (!price && !Object.hasOwn(models, id)) {
    const known = Object.keys(models).filter((k) => k !== "scripted");
    add(
      "model.id",
      `must be a model in the ${provider === "openai" ? "openai" : "Claude"} price table (data/model-prices.json), so its cost can be tracked, or be priced by [model.price]: one of ${known.join(", ")}; got ${JSON.stringify(id)}`,
    );
  }
  if (!isScriptName(script)) add("model.script", `must be a scripted policy: one of ${SCRIPTS.join(", ")}; got ${JSON.stringify(script)}`);
  return out;
}
