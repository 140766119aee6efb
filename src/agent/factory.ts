/**
 * Picks and builds the model client from the configuration, refusing at start-up (exit 2) what
 * would go wrong later: an unpriced model (its cost could not be tracked), a missing key, an unknown
 * script. `provider = "auto"` means Claude when its key is set, else the scripted model.
 * The SDKs are loaded on the first call: runs on the scripted model (and commands that never call a
 * model) do not pay for loading them.
 */
import { microsToUsd, usdToMicros } from "../core/money.js";
import type { ModelConfig } from "../config/types.js";
import type { Limits } from "../core/gate-types.js";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { redactor } from "../core/redact.js";
import type { AnthropicClientOptions } from "./anthropic-client.js";
import type { AgentLimits } from "./loop.js";
import type { OpenAIClientOptions } from "./openai-client.js";
import { type ModelPrice, type PriceTable, resolvePrice } from "./pricing.js";
import { isScriptName, SCRIPTS, ScriptedClient } from "./scripted-client.js";
import type { CallHooks, ModelClient, ModelRequest, ModelResponse } from "./types.js";

export type ProviderName = "anthropic" | "openai" | "scripted";

export const DEFAULT_KEY_ENV: Record<"anthropic" | "openai", string> = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY" };

/** A client whose module (and SDK) is imported on its first call. */
class LazyClient implements ModelClient {
  private inner: Promise<ModelClient> | null = null;
  constructor(
    readonly model: string,
    private readonly load: () => Promise<ModelClient>,
  ) {}
  complete(req: ModelRequest, hooks?: CallHooks): Promise<ModelResponse> {
    this.inner ??= this.load();
    return this.inner.then((c) => c.complete(req, hooks));
  }
}

export interface ModelSetup {
  client: ModelClient;
  price: ModelPrice;
  provider: ProviderName;
  /** The environment variable the key was read from (its name only), or null when none was read. */
  keyEnv: string | null;
}

/** True when a base URL points at this machine (a local model server needs no key). */
export function isLoopbackUrl(url: string | null): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "[::1]" || host === "::1" || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** The provider a config selects, and the key variable it reads (pure; nothing is read but `env`). */
export function selectProvider(model: ModelConfig, env: NodeJS.ProcessEnv): { provider: ProviderName; keyEnv: string | null } {
  if (model.provider === "scripted") return { provider: "scripted", keyEnv: null };
  if (model.provider === "auto") {
    const keyEnv = model.api_key_env ?? DEFAULT_KEY_ENV.anthropic;
    return env[keyEnv] ? { provider: "anthropic", keyEnv } : { provider: "scripted", keyEnv: null };
  }
  return { provider: model.provider, keyEnv: model.api_key_env ?? DEFAULT_KEY_ENV[model.provider] };
}

export function createModelClient(
  model: ModelConfig,
  opts: { env?: NodeJS.ProcessEnv; limits?: Pick<Limits, "max_position_pct" | "max_price_deviation_pct">; priceTable?: PriceTable } = {},
): ModelSetup {
  const env = opts.env ?? process.env;
  const { provider, keyEnv } = selectProvider(model, env);
  if (provider === "scripted") {
    if (!isScriptName(model.script)) {
      throw new TwError("unknown_script", `model.script "${model.script}" is not a scripted policy; use one of: ${SCRIPTS.join(", ")}`, EXIT.USAGE_OR_CONFIG);
    }
    const client = new ScriptedClient(opts.limits ? { script: model.script, limits: opts.limits } : { script: model.script });
    return { client, price: resolvePrice("scripted", "scripted", null, opts.priceTable), provider, keyEnv: null };
  }
  const price = resolvePrice(provider, model.id, model.price, opts.priceTable);
  const key = keyEnv ? env[keyEnv] : undefined;
  // The key is known to the redactor before any client can echo it (any api_key_env name).
  if (keyEnv) redactor.register(keyEnv, key);
  const keyless = provider === "openai" && isLoopbackUrl(model.base_url);
  if (!key && !keyless) {
    throw new TwError(
      "missing_api_key",
      `model.provider is "${provider}" but ${keyEnv} is not set (set it in the environment, or name another variable in model.api_key_env)`,
      EXIT.USAGE_OR_CONFIG,
    );
  }
  const common = {
    model: model.id,
    apiKey: key || "no-key-local-server",
    baseURL: model.base_url,
    maxRetries: model.max_retries,
    timeoutMs: model.request_timeout_s * 1000,
  };
  const client =
    provider === "anthropic"
      ? new LazyClient(model.id, () => import("./anthropic-client.js").then((m) => new m.AnthropicClient(common satisfies AnthropicClientOptions)))
      : new LazyClient(model.id, () => import("./openai-client.js").then((m) => new m.OpenAIClient(common satisfies OpenAIClientOptions)));
  return { client, price, provider, keyEnv: key ? (keyEnv as string) : null };
}

/** The loop's limits from the configuration and what is left of the month's spend cap. */
export function agentLimitsFrom(model: ModelConfig, monthSpentUsd: number): AgentLimits {
  return {
    maxTurns: model.max_turns,
    maxSeconds: model.max_seconds,
    runBudgetUsd: model.run_budget_usd,
    // In whole micro-dollars, so what is left is exact.
    monthlyBudgetLeftUsd: microsToUsd(usdToMicros(model.monthly_budget_usd) - usdToMicros(monthSpentUsd)),
    maxTokens: model.max_tokens,
    requestTimeoutS: model.request_timeout_s,
  };
}
