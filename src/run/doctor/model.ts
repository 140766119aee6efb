/**
 * Doctor: the model — the provider the config selects, its key (present or not; never its value),
 * its price, and with --ping a one-token request through the real client.
 */
import { createModelClient, DEFAULT_KEY_ENV, isLoopbackUrl, selectProvider } from "../../agent/factory.js";
import { usd } from "../../core/format.js";
import { costOf, resolvePrice } from "../../agent/pricing.js";
import type { Config } from "../../config/types.js";
import type { DoctorCheck, DoctorContext } from "./types.js";
import { fail, pass } from "./types.js";

/** A message with every occurrence of the key replaced (an API error could echo it). */
const scrub = (text: string, key: string | undefined) => (key && key.length >= 4 ? text.split(key).join("[key]") : text);

function providerCheck(config: Config, env: NodeJS.ProcessEnv): { check: DoctorCheck; provider: ReturnType<typeof selectProvider> } {
  const selected = selectProvider(config.model, env);
  const m = config.model;
  const where = m.base_url ? ` at ${m.base_url}` : "";
  const summary =
    selected.provider === "scripted"
      ? m.provider === "auto"
        ? `auto: ${m.api_key_env ?? DEFAULT_KEY_ENV.anthropic} is not set, so the scripted model "${m.script}" runs`
        : `the scripted model "${m.script}" (no API)`
      : `${selected.provider} model ${m.id}${where}`;
  return {
    check: pass("model", "model.provider", summary, {
      provider: selected.provider,
      id: selected.provider === "scripted" ? `scripted:${m.script}` : m.id,
      base_url: m.base_url,
    }),
    provider: selected,
  };
}

export async function modelChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  const config = ctx.config;
  if (!config) return [];
  const { check, provider } = providerCheck(config, ctx.env);
  const out = [check];
  if (provider.provider === "scripted") return out;
  const keyEnv = provider.keyEnv as string;
  const key = ctx.env[keyEnv];
  if (key) out.push(pass("model", "model.key", `${keyEnv} is set (value not shown)`));
  else if (provider.provider === "openai" && isLoopbackUrl(config.model.base_url))
    out.push(pass("model", "model.key", `no key needed: ${config.model.base_url} is on this machine`));
  else out.push(fail("model", "model.key", `${keyEnv} is not set`, `export ${keyEnv}=<your key>, or name the variable that holds it in model.api_key_env`));
  let priced = false;
  try {
    const p = resolvePrice(provider.provider, config.model.id, config.model.price);
    priced = true;
    out.push(
      pass(
        "model",
        "model.price",
        `${config.model.id}: $${p.input} in / $${p.output} out / $${p.cacheRead} cached per million tokens (${p.source === "config" ? "[model.price]" : "data/model-prices.json"})`,
        { ...p },
      ),
    );
  } catch (e) {
    out.push(
      fail(
        "model",
        "model.price",
        (e as Error).message,
        "price it under [model.price] in tradewarden.toml (input_per_mtok, output_per_mtok, cached_input_per_mtok; 0 for a free local model), or pick a listed id",
      ),
    );
  }
  if (ctx.ping && priced && out.every((c) => c.ok)) out.push(await ping(config, ctx.env, key));
  return out;
}

async function ping(config: Config, env: NodeJS.ProcessEnv, key: string | undefined): Promise<DoctorCheck> {
  const started = performance.now();
  try {
    const setup = createModelClient(config.model, { env });
    const r = await setup.client.complete({
      system: "Answer with one word.",
      tools: [],
      messages: [{ role: "user", content: [{ type: "text", text: "ping" }] }],
      maxTokens: 1,
      timeoutMs: config.model.request_timeout_s * 1000,
    });
    const ms = Math.round(performance.now() - started);
    const cost = costOf(r.usage, setup.price);
    return pass("model", "model.ping", `${r.model} answered a one-token request in ${ms} ms (stop ${r.stop_reason}, cost ${usd(cost)})`, {
      model: r.model,
      stop_reason: r.stop_reason,
      usage: r.usage,
      cost_usd: cost,
      ms,
    });
  } catch (e) {
    return fail(
      "model",
      "model.ping",
      `the one-token request failed: ${scrub((e as Error).message, key)}`,
      "check the key, model.id and model.base_url (a 401 is the key, a 404 the id or the URL)",
    );
  }
}
