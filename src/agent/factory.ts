/**
 * Picks and builds the model client from the configuration, refusing at start-up (exit 2) what
 * would go wrong later: an unknown model id (it could not be priced), a missing key, an unknown
 * script. `provider = "auto"` means Claude when ANTHROPIC_API_KEY is set, else the scripted model.
 */
import type { ModelConfig } from "../config/types.js";
import type { Limits } from "../core/gate-types.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { AnthropicClientOptions } from "./anthropic-client.js";
import type { AgentLimits } from "./loop.js";
import { type ModelPrice, type PriceTable, priceFor } from "./pricing.js";
import { isScriptName, SCRIPTS, ScriptedClient } from "./scripted-client.js";
import type { CallHooks, ModelClient, ModelRequest, ModelResponse } from "./types.js";

/**
 * Claude, with the SDK loaded on the first call: runs on the scripted model (and commands that
 * never call a model) do not pay for loading it.
 */
class LazyAnthropicClient implements ModelClient {
  readonly model: string;
  private inner: Promise<ModelClient> | null = null;
  constructor(private readonly opts: AnthropicClientOptions) {
    this.model = opts.model;
  }
  complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    this.inner ??= import("./anthropic-client.js").then((m) => new m.AnthropicClient(this.opts));
    return this.inner.then((c) => c.complete(req, hooks));
  }
}

export interface ModelSetup {
  client: ModelClient;
  price: ModelPrice;
  provider: "anthropic" | "scripted";
}

export function createModelClient(
  model: ModelConfig,
  opts: { env?: NodeJS.ProcessEnv; limits?: Pick<Limits, "max_position_pct" | "max_price_deviation_pct">; priceTable?: PriceTable } = {},
): ModelSetup {
  const env = opts.env ?? process.env;
  const key = env.ANTHROPIC_API_KEY;
  const provider = model.provider === "auto" ? (key ? "anthropic" : "scripted") : model.provider;
  if (provider === "anthropic") {
    const price = priceFor(model.id, opts.priceTable);
    if (!key) {
      throw new TwError("missing_api_key", 'model.provider is "anthropic" but ANTHROPIC_API_KEY is not set', EXIT.USAGE_OR_CONFIG);
    }
    const client = new LazyAnthropicClient({
      model: model.id,
      apiKey: key,
      baseURL: model.base_url,
      maxRetries: model.max_retries,
      timeoutMs: model.request_timeout_s * 1000,
    });
    return { client, price, provider };
  }
  if (!isScriptName(model.script)) {
    throw new TwError("unknown_script", `model.script "${model.script}" is not a scripted policy; use one of: ${SCRIPTS.join(", ")}`, EXIT.USAGE_OR_CONFIG);
  }
  const client = new ScriptedClient(opts.limits ? { script: model.script, limits: opts.limits } : { script: model.script });
  return { client, price: priceFor("scripted", opts.priceTable), provider };
}

/** The loop's limits from the configuration and what is left of the month's spend cap. */
export function agentLimitsFrom(model: ModelConfig, monthSpentUsd: number): AgentLimits {
  return {
    maxTurns: model.max_turns,
    maxSeconds: model.max_seconds,
    runBudgetUsd: model.run_budget_usd,
    monthlyBudgetLeftUsd: model.monthly_budget_usd - monthSpentUsd,
    maxTokens: model.max_tokens,
    requestTimeoutS: model.request_timeout_s,
  };
}


