import { describe, expect, test } from "vitest";
import { createModelClient } from "../../src/agent/factory.js";
import { costOf, loadPriceTable, parsePriceTable, priceFor, resolvePrice } from "../../src/agent/pricing.js";
import { ScriptedClient } from "../../src/agent/scripted-client.js";
import type { ModelConfig } from "../../src/config/types.js";
import { TwError } from "../../src/core/errors.js";
import { usage } from "./helpers.js";

const MODEL: ModelConfig = {
  provider: "auto",
  id: "claude-sonnet-4-5",
  max_tokens: 4096,
  request_timeout_s: 60,
  max_retries: 2,
  max_turns: 20,
  max_seconds: 300,
  run_budget_usd: 0.5,
  monthly_budget_usd: 20,
  script: "momentum",
  base_url: null,
  api_key_env: null,
  price: null,
};

describe("price table", () => {
  test("the bundled table has the reference prices per million tokens", () => {
    const t = loadPriceTable();
    expect(t.models["claude-sonnet-4-5"]).toEqual({ input: 3, output: 15 });
    expect(t.models["claude-haiku-4-5"]).toEqual({ input: 1, output: 5 });
    expect(t.models["claude-opus-4-1"]).toEqual({ input: 15, output: 75 });
    expect(t.models["claude-sonnet-5"]).toEqual({ input: 2, output: 10 });
    expect(t.models["claude-opus-5-5"]).toEqual({ input: 4, output: 20 });
    expect(t.multipliers).toEqual({ cache_write_5m: 1.25, cache_write_1h: 2, cache_read: 0.1 });
  });

  test("an unknown model is refused (exit 2), never priced at zero", () => {
    let err: unknown;
    try {
      priceFor("claude-imaginary-9");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TwError);
    expect(err).toMatchObject({ code: "unknown_model", exitCode: 2 });
    expect((err as Error).message).toContain("claude-imaginary-9");
  });

  test("a malformed table is a config error", () => {
    expect(() =>
      parsePriceTable({ multipliers: { cache_write_5m: 1.25, cache_write_1h: 2, cache_read: 0.1 }, models: { x: { input: -1, output: 1 } } }),
    ).toThrow(/models.x/);
    expect(() => parsePriceTable({ models: {} })).toThrow(/multipliers/);
    const m = { cache_write_5m: 1.25, cache_write_1h: 2, cache_read: 0.1 };
    expect(() => parsePriceTable({ multipliers: m, models: {}, openai: { models: { g: { input: 1, output: 1, cached_input: -1 } } } })).toThrow(
      /openai.models.g/,
    );
  });
});

describe("cost arithmetic (hand-computed)", () => {
  test("Sonnet 4.5 with the TTL split: 1000 in, 500 out, writes 1500 (5m) + 500 (1h), 10000 read", () => {
    // 1000·3 + 1500·3.75 + 500·6 + 10000·0.3 + 500·15 = 3000 + 5625 + 3000 + 3000 + 7500 = 22125 µ$
    const u = usage(1000, 500, {
      cache_creation_input_tokens: 2000,
      cache_creation_5m_input_tokens: 1500,
      cache_creation_1h_input_tokens: 500,
      cache_read_input_tokens: 10_000,
    });
    expect(costOf(u, priceFor("claude-sonnet-4-5"))).toBeCloseTo(0.022125, 12);
  });

  test("writes without a TTL split are priced at the 5-minute rate", () => {
    // 1000·3 + 2000·3.75 + 10000·0.3 + 500·15 = 3000 + 7500 + 3000 + 7500 = 21000 µ$
    const u = usage(1000, 500, { cache_creation_input_tokens: 2000, cache_read_input_tokens: 10_000 });
    expect(costOf(u, priceFor("claude-sonnet-4-5"))).toBeCloseTo(0.021, 12);
  });

  test("Opus 5.5 at $4/$20 and Opus 4.1 at $15/$75", () => {
    expect(costOf(usage(10_000, 2_000), priceFor("claude-opus-5-5"))).toBeCloseTo(0.08, 12); // 40000 + 40000 µ$
    // 1h writes at 2×: 4000·30 = 120000 µ$, plus 100·15 + 10·75 = 2250 µ$
    const u = usage(100, 10, { cache_creation_input_tokens: 4000, cache_creation_1h_input_tokens: 4000, cache_creation_5m_input_tokens: 0 });
    expect(costOf(u, priceFor("claude-opus-4-1"))).toBeCloseTo(0.12225, 12);
  });

  test("the scripted model costs nothing", () => {
    expect(costOf(usage(1e6, 1e6), priceFor("scripted"))).toBe(0);
  });
});

describe("model client from config", () => {
  test("auto without a key is the scripted model", () => {
    const s = createModelClient(MODEL, { env: {} });
    expect(s.provider).toBe("scripted");
    expect(s.client).toBeInstanceOf(ScriptedClient);
  });

  test("auto with a key is Claude, priced from the table", () => {
    const s = createModelClient(MODEL, { env: { ANTHROPIC_API_KEY: "k" } });
    expect(s.provider).toBe("anthropic");
    expect(s.client.model).toBe("claude-sonnet-4-5");
    expect(s.price.output).toBe(15);
  });

  test("an unknown model id is refused at start-up; so are a missing key and an unknown script", () => {
    expect(() => createModelClient({ ...MODEL, id: "gpt-17" }, { env: { ANTHROPIC_API_KEY: "k" } })).toThrow(/has no anthropic price/);
    expect(() => createModelClient({ ...MODEL, provider: "anthropic" }, { env: {} })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => createModelClient({ ...MODEL, script: "yolo" }, { env: {} })).toThrow(/model.script/);
  });
});

describe("OpenAI-compatible models: priced per provider, or by [model.price]", () => {
  const OPENAI: ModelConfig = { ...MODEL, provider: "openai", id: "gpt-5-mini" };

  test("the table prices OpenAI models with their own cached-input price; cached tokens are cheap, writes are free", () => {
    const p = priceFor("gpt-5-mini", loadPriceTable(), "openai");
    expect(p).toMatchObject({ input: 0.25, output: 2, cacheRead: 0.025, source: "table" });
    // 1000 uncached · 0.25 + 9000 cached · 0.025 + 500 out · 2 = 250 + 225 + 1000 = 1475 µ$
    expect(costOf(usage(1000, 500, { cache_read_input_tokens: 9000 }), p)).toBeCloseTo(0.001475, 12);
    // a Claude id is not an OpenAI price, and the reverse
    expect(() => priceFor("claude-sonnet-5", loadPriceTable(), "openai")).toThrow(/has no openai price/);
    expect(() => priceFor("gpt-5", loadPriceTable(), "anthropic")).toThrow(/has no anthropic price/);
  });

  test("an unpriced model is refused (exit 2) naming [model.price]; with [model.price] it runs at that price, zero allowed", () => {
    const local = { ...OPENAI, id: "llama3.1:8b", base_url: "http://127.0.0.1:11434/v1" };
    let err: unknown;
    try {
      createModelClient(local, { env: {} });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: "unknown_model", exitCode: 2 });
    expect((err as Error).message).toMatch(/\[model\.price\]/);
    const free = createModelClient({ ...local, price: { input_per_mtok: 0, output_per_mtok: 0 } }, { env: {} });
    expect(free).toMatchObject({ provider: "openai", keyEnv: null, price: { input: 0, output: 0, cacheRead: 0, source: "config" } });
    expect(costOf(usage(1e6, 1e6), free.price)).toBe(0);
    const priced = resolvePrice("openai", "my-model", { input_per_mtok: 1, output_per_mtok: 4, cached_input_per_mtok: 0.5 });
    expect(costOf(usage(1000, 100, { cache_read_input_tokens: 2000 }), priced)).toBeCloseTo((1000 + 400 + 1000) / 1e6, 12);
    // Without a cached price, cached tokens cost the input price (never less than known)
    expect(resolvePrice("openai", "m", { input_per_mtok: 2, output_per_mtok: 2 }).cacheRead).toBe(2);
  });

  test("the key: OPENAI_API_KEY by default, api_key_env names another; missing is refused unless the server is on this machine", () => {
    expect(createModelClient(OPENAI, { env: { OPENAI_API_KEY: "sk-x" } })).toMatchObject({ provider: "openai", keyEnv: "OPENAI_API_KEY" });
    expect(createModelClient({ ...OPENAI, id: "deepseek-chat", api_key_env: "DEEPSEEK_API_KEY" }, { env: { DEEPSEEK_API_KEY: "k" } }).keyEnv).toBe(
      "DEEPSEEK_API_KEY",
    );
    expect(() => createModelClient(OPENAI, { env: { ANTHROPIC_API_KEY: "k" } })).toThrow(/OPENAI_API_KEY is not set/);
    expect(() => createModelClient({ ...OPENAI, base_url: "https://gateway.example.com/v1" }, { env: {} })).toThrow(/OPENAI_API_KEY/);
    expect(createModelClient({ ...OPENAI, base_url: "http://localhost:8000/v1" }, { env: {} }).keyEnv).toBeNull();
  });
});
