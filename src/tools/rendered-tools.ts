/** The model-facing tool lists of a contract set, rendered once per process (the runtime serves them). */
import type { AnthropicToolDef, OpenAIToolDef } from "./render.js";
import type { ContractSet } from "./versions.js";

/**
 * The model-facing tool list of a contract set, rendered once per process and frozen: every run of
 * a simulation offers the same list, and one list object lets the cassette canonicalise and hash it
 * once (src/agent/cassette-format.ts caches by identity) instead of once per simulated day.
 */
const rendered = new WeakMap<ContractSet, Map<string, readonly unknown[]>>();

export function renderedTools<K extends "anthropic" | "anthropic-strict" | "openai">(
  set: ContractSet,
  kind: K,
): K extends "openai" ? OpenAIToolDef[] : AnthropicToolDef[] {
  let bySet = rendered.get(set);
  if (!bySet) {
    bySet = new Map();
    rendered.set(set, bySet);
  }
  let list = bySet.get(kind);
  if (!list) {
    list = deepFreeze(
      kind === "openai" ? set.contracts.map((t) => set.openai(t)) : set.contracts.map((t) => set.anthropic(t, { strict: kind === "anthropic-strict" })),
    );
    bySet.set(kind, list);
  }
  return list as K extends "openai" ? OpenAIToolDef[] : AnthropicToolDef[];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
