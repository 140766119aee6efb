/**
 * The JSON Schema (draft 2020-12) of `tradewarden.toml`: the one source of truth for validation and
 * defaults. Every section is optional and every key has a default, except `universe.files`, which
 * is required once a `[universe]` table is written. Keys whose default is "none" (null) are simply
 * left out of the file (TOML has no null). Unknown keys are errors everywhere.
 * Pure data: no I/O.
 */

import { type Static, type TProperties, Type } from "@sinclair/typebox";
import { CURRENCY_PATTERN, LimitsSchema, MAX_AMOUNT } from "../core/limits.js";
import { NotifySchema } from "./notify-schema.js";
import { ScheduleSchema } from "./schedule.js";

type Json = Record<string, unknown>;

/** A timer's range: durations are bounded to a day. */
const DAY_S = 86_400;

export const DATE_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";
/** An environment variable name as secrets are recorded (upper case). */
const ENV_NAME_PATTERN = "^[A-Z][A-Z0-9_]*$";

/**
 * The TypeBox sections below keep the JSON the `--set` editor (src/simulation/settings.ts) reads: an enum
 * is `{ enum: [...] }` and a nullable key is `{ type: [T, "null"] }`, typed with `Type.Unsafe`.
 * Every key is required in the schema and has a default: ajv's `useDefaults` assigns a key left out
 * of the file before `required` is checked, so the loaded section always has every key.
 */
const Enum = <const T extends readonly string[]>(values: T, options: Json) => Type.Unsafe<T[number]>({ enum: [...values], ...options });
const NullableString = (options: Json) => Type.Unsafe<string | null>({ type: ["string", "null"], default: null, ...options });
const Section = <P extends TProperties>(description: string, properties: P) =>
  Type.Object(properties, { description, additionalProperties: false, default: {} });
const Domains = (description: string) =>
  Type.Array(Type.String({ minLength: 1, pattern: "^[A-Za-z0-9.-]+$" }), { uniqueItems: true, default: [], description });

/**
 * The `[limits]` properties: the gate's Limits (core/limits.ts) without base_currency (the
 * account's), with a price age the config always sets (fail closed), and the kill-switch keys.
 */
export const LIMITS_PROPERTIES = {
  ...Type.Omit(LimitsSchema, ["base_currency"]).properties,
  max_price_age_days: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 5,
    description: "A reference price older than this many calendar days blocks the order (fail closed: a stale price never trades).",
  }),
  reducing_runs_after_reset: Type.Integer({
    minimum: 0,
    maximum: 10_000,
    default: 3,
    description: "After a kill-switch reset, runs that stay REDUCING (sells only).",
  }),
  liquidation_discount_pct: Type.Number({
    exclusiveMinimum: 0,
    maximum: 20,
    default: 1,
    description: "Kill-switch liquidation: limit this percent under the reference price.",
  }),
};

const LimitsSectionSchema = Section("Risk limits the gate enforces.", LIMITS_PROPERTIES);

/** The loaded `[limits]`: the table with the account's base currency (the gate's Limits and the kill-switch keys). */
const RiskSchema = Type.Object({ base_currency: LimitsSchema.properties.base_currency, ...LIMITS_PROPERTIES });

/** `[universe]`: a written table must name its files; a missing table takes the section default. */
const UniverseSchema = Type.Object(
  {
    files: Type.Array(Type.String({ minLength: 1 }), {
      description: "CSV files; relative paths resolve against the home, then the bundled data/.",
    }),
  },
  { description: "The allowlisted instruments.", additionalProperties: false, default: { files: ["universe/sim.csv"] } },
);

/** `[fx]`: units of base currency per unit of each other currency. */
const FxSchema = Type.Unsafe<Record<string, number>>({
  type: "object",
  description:
    "Exchange rates to the base currency: CURRENCY = units of base currency per unit (e.g. EUR = 1.08 with a USD base). An instrument in a currency without a rate has no reference price, so its orders are blocked.",
  propertyNames: { pattern: CURRENCY_PATTERN, format: "iso-4217" },
  additionalProperties: { type: "number", minimum: 1e-6, maximum: 1e6 },
  default: {},
});

const AccountSchema = Section("The paper account the bot trades.", {
  base_currency: LimitsSchema.properties.base_currency,
  capital: Type.Number({ minimum: 1, maximum: MAX_AMOUNT, default: 100000, description: "Capital the journal is opened with (base currency)." }),
  timezone: Type.String({ format: "iana-timezone", default: "America/New_York", description: "IANA time zone of the monthly order quota and spend month." }),
});

/** `[model.price]`: a hand-set price, USD per million tokens (0 allowed, for a local model). */
export const ModelPriceSchema = Type.Object(
  {
    input_per_mtok: Type.Number({ minimum: 0, description: "USD per million input tokens." }),
    output_per_mtok: Type.Number({ minimum: 0, description: "USD per million output tokens." }),
    cached_input_per_mtok: Type.Optional(
      Type.Number({ minimum: 0, description: "USD per million cached input tokens (default: the input price; Claude: 0.1x the input price)." }),
    ),
  },
  { additionalProperties: false },
);

export const ModelSchema = Section("The model that proposes orders.", {
  provider: Enum(["auto", "anthropic", "openai", "scripted"], {
    default: "auto",
    description: "auto: Claude when ANTHROPIC_API_KEY is set, else the scripted model; openai: OpenAI or any OpenAI-compatible endpoint (base_url).",
  }),
  id: Type.String({ minLength: 1, default: "claude-sonnet-5", description: "Model id (priced in data/model-prices.json or by [model.price])." }),
  max_tokens: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 4096, description: "Max output tokens per request." }),
  request_timeout_s: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 60, description: "Per-request timeout cap, seconds." }),
  max_retries: Type.Integer({ minimum: 0, maximum: 100, default: 2, description: "SDK retries per request." }),
  max_turns: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: "Model turns per run." }),
  max_seconds: Type.Number({ minimum: 0, maximum: DAY_S, default: 300, description: "Wall-clock limit of the agent loop, seconds (0: no model call)." }),
  run_budget_usd: Type.Number({ minimum: 0, maximum: 1_000_000, default: 0.5, description: "Per-run LLM cost budget, USD." }),
  monthly_budget_usd: Type.Number({ minimum: 0, maximum: 1_000_000, default: 20, description: "Monthly LLM spend cap, USD." }),
  script: Type.String({ minLength: 1, default: "momentum", description: "Scripted model policy." }),
  base_url: NullableString({
    format: "uri",
    description: "API base URL (Anthropic: without /v1; OpenAI-compatible: with /v1); leave out for the provider's default.",
  }),
  api_key_env: NullableString({
    pattern: ENV_NAME_PATTERN,
    description: "Environment variable holding the API key; leave out for the provider's (ANTHROPIC_API_KEY, OPENAI_API_KEY).",
  }),
  price: Type.Unsafe<Static<typeof ModelPriceSchema> | null>({
    type: ["object", "null"],
    description: "Price the model by hand, USD per million tokens (0 allowed, for a local model); leave out to use data/model-prices.json.",
    additionalProperties: false,
    required: ["input_per_mtok", "output_per_mtok"],
    properties: ModelPriceSchema.properties,
    default: null,
  }),
});

export const SimBrokerSchema = Section("The simulated paper broker.", {
  participation_pct: Type.Number({ exclusiveMinimum: 0, maximum: 100, default: 10, description: "At most this percent of the day's volume fills per order." }),
  commission_per_share: Type.Number({ minimum: 0, maximum: 1000, default: 0.005, description: "Commission per share." }),
  commission_min: Type.Number({ minimum: 0, maximum: 1_000_000, default: 1, description: "Minimum commission per order." }),
  commission_max_pct: Type.Number({ exclusiveMinimum: 0, maximum: 100, default: 1, description: "Commission at most this percent of the order's value." }),
  start_date: NullableString({
    pattern: DATE_PATTERN,
    format: "date",
    description: "First trading day of a fresh simulation (YYYY-MM-DD); leave out for the default.",
  }),
});

const BrokerSchema = Section("The paper broker.", {
  kind: Enum(["sim", "alpaca"], { default: "sim", description: "sim: the simulated broker; alpaca: Alpaca paper." }),
  sim: SimBrokerSchema,
  alpaca: Section("Alpaca paper trading.", {
    base_url: Type.String({
      format: "uri",
      default: "https://paper-api.alpaca.markets",
      description: "Alpaca paper API base URL (live endpoints are refused).",
    }),
  }),
});

export const ResearchSchema = Section("Point-in-time news research (the search_news tool).", {
  provider: Enum(["embedded", "tavily", "none"], {
    default: "embedded",
    description: "embedded: the bundled news corpus; tavily: live news (TAVILY_API_KEY); none: search_news is disabled.",
  }),
  block_domains: Domains("Domains whose results are dropped (subdomains included; a leading www. is ignored). Applied before allow_domains."),
  allow_domains: Domains("When not empty, only results from these domains (subdomains included) are kept."),
  undated: Enum(["exclude", "include_unverified"], {
    default: "exclude",
    description: "Undated results in live runs: excluded, or admitted apart and marked unverified. Simulations and replays always exclude them.",
  }),
  stale_evidence_days: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 30,
    description:
      "Cited evidence (news by its published day, prices and the portfolio by their as-of day) older than this many trading days is marked stale on the approval screen and in check_orders. Information only: the gate does not block on it.",
  }),
});

/**
 * `[executor]` as TypeBox: `ExecutorConfig` is `Static<>` of it. Every key is required in the
 * schema and has a default, so a key left out of the file takes its default (ajv `useDefaults`
 * assigns it before `required` is checked) and the loaded section always has every key.
 */
export const ExecutorSchema = Type.Object(
  {
    wait_s: Type.Number({ minimum: 0, maximum: DAY_S, default: 120, description: "Wait for orders to finish before cancelling, seconds." }),
    settle_s: Type.Number({ minimum: 0, maximum: DAY_S, default: 15, description: "Wait for fills to settle after a cancel, seconds." }),
    poll_ms: Type.Integer({ minimum: 1, maximum: 60_000, default: 250, description: "Poll interval while waiting, milliseconds." }),
  },
  { description: "The order executor.", additionalProperties: false, default: {} },
);

/**
 * The whole file. Every section has a default, so the validated document always has every
 * section (ajv `useDefaults`), and the validator types it as `Static<>` of this schema.
 */
export const CONFIG_SCHEMA = Type.Object(
  {
    account: AccountSchema,
    limits: LimitsSectionSchema,
    universe: UniverseSchema,
    model: ModelSchema,
    broker: BrokerSchema,
    executor: ExecutorSchema,
    research: ResearchSchema,
    fx: FxSchema,
    notify: NotifySchema,
    schedule: ScheduleSchema,
  },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://tradewarden.dev/schema/config.json",
    title: "tradewarden.toml",
    additionalProperties: false,
  },
);

/**
 * The loaded configuration (`Config`): the validated file, `[limits]` with the account's base
 * currency, and the file it was loaded from.
 */
export const LoadedConfigSchema = Type.Object({
  source: Type.Union([Type.String(), Type.Null()], { description: "The file it was loaded from; null on the built-in defaults." }),
  ...CONFIG_SCHEMA.properties,
  limits: RiskSchema,
});
