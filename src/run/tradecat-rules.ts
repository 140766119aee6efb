/**
 * TradeCat's research-cycle contract (schema: `data/schemas/tradecat-research-cycle.schema.json`,
 * TradeCat's own schema vendored verbatim) and the rules its audit enforces beyond the schema.
 *
 * The schema's patterns are Python regular expressions that open with the `(?i)` flag, which
 * JavaScript cannot parse. ajv is given a RegExp engine (`code.regExp`) that reads a leading `(?i)`
 * as the `i` flag (the pattern compiled without it, with flags `u` + `i`); any other pattern compiles
 * as is. So "/v2/Account" or "ORDER" is refused as private-looking, as TradeCat refuses it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CodeOptions } from "ajv";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { pythonFlagRegExp } from "../config/schema-runtime.js";
import { tradecat as generatedTradecat } from "../config/validators.generated.js";
import { newAjv } from "../tools/validate.js";
import { bundledDataDir } from "../util/paths.js";

const TRADECAT_SCHEMA_FILE = "tradecat-research-cycle.schema.json";

/** The safety block: TradeCat allows exactly these values. */
export const TRADECAT_SAFETY = Object.freeze({
  public_readonly_market_data: true,
  public_readonly: true,
  paper_or_watch_only: true,
  real_orders: false,
  signed_requests: false,
  reads_api_keys: false,
  binance_account_state: false,
});

/** The endpoint words TradeCat's schema and audit refuse (`publicMarketEndpoint`), case-insensitive. */
export const PRIVATE_ENDPOINT = /(account|order|listenKey|leverage|marginType|positionMargin|apiKey|secret|signature)/i;

export function tradecatSchema(dir = bundledDataDir()): object {
  return JSON.parse(readFileSync(join(dir, "schemas", TRADECAT_SCHEMA_FILE), "utf8")) as object;
}

/** The ajv TradeCat schemas compile with (`code`: the build's, when it generates the validators' source). */
export function tradecatAjv(code: CodeOptions = {}) {
  return newAjv({ allowUnionTypes: true, code: { ...code, regExp: pythonFlagRegExp } });
}

/** The vendored schema's validator, generated at build time with `tradecatAjv` (scripts/validators-source.ts). */
const validator: ValidateFunction = generatedTradecat;

/**
 * Everything TradeCat would refuse, schema first, then its audit's rules: safety flags other than its
 * constants, a private-looking endpoint anywhere one is named, a paper handoff without sizing and an
 * exit plan, and any tool-failure policy that would write the paper ledger.
 */
export function tradecatProblems(doc: unknown): string[] {
  const problems = validator(doc) ? [] : (validator.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
  if (typeof doc !== "object" || doc === null) return problems;
  const d = doc as Record<string, unknown>;
  const safety = (d.safety ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(TRADECAT_SAFETY)) if (safety[k] !== v) problems.push(`/safety/${k} must be ${v}`);
  const endpoints = [...asArray(d.requested_market_data), ...asArray(d.tool_calls)].map((x) => String((x as Record<string, unknown>).endpoint ?? ""));
  for (const e of endpoints) if (PRIVATE_ENDPOINT.test(e)) problems.push(`endpoint "${e}" looks private`);
  const next = (d.next_action ?? {}) as Record<string, unknown>;
  if (next.action === "run_context_paper") {
    const sizing = asArray(next.sizing);
    if (sizing.length === 0) problems.push("/next_action: a paper handoff needs sizing");
    if (typeof next.exit_plan !== "object" || next.exit_plan === null) problems.push("/next_action: a paper handoff needs an exit plan");
  }
  return problems;
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
