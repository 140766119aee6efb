/**
 * The ajv setup shared by the config loader and the scenario reader: draft 2020-12, strict, all
 * errors, verbose (so messages can quote the rule's bounds and the value), the `iana-timezone`
 * format (luxon), and the standard formats.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { CodeOptions } from "ajv";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { newAjv2020 } from "./ajv-compiler.js";
import { SCHEMA_FORMATS } from "./schema-runtime.js";

/** `code`: the build's options when it generates the validators' source (scripts/validators-source.ts). */
export function makeAjv(options: { useDefaults?: boolean; code?: CodeOptions } = {}): Ajv2020 {
  const ajv = newAjv2020({
    strict: true,
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
    useDefaults: options.useDefaults ?? false,
    // Our schemas are fixed at build time and checked against the draft 2020-12 meta-schema by
    // tests/config/schemas-valid.test.ts (every schema registered below); compiling the
    // meta-schema in every process cost ~50 ms of each command's start-up per ajv instance.
    validateSchema: false,
    ...(options.code ? { code: options.code } : {}),
  });
  for (const [name, format] of Object.entries(SCHEMA_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

/** "/limits/max_position_pct" → "limits.max_position_pct"; array indexes as [0]. */
function dottedPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (extra !== undefined) parts.push(extra);
  let out = "";
  for (const p of parts) {
    if (/^\d+$/.test(p)) out += `[${p}]`;
    else out += out === "" ? p : `.${p}`;
  }
  return out;
}

const show = (v: unknown): string => {
  if (v === undefined) return "nothing";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

/** The rule a numeric schema states, e.g. "must be in (0, 100]" or "must be an integer >= 0". */
function numericRule(s: Record<string, unknown>): string {
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const integer = types.includes("integer");
  const lo = s.exclusiveMinimum ?? s.minimum;
  const hi = s.exclusiveMaximum ?? s.maximum;
  const kind = integer ? "an integer" : "a number";
  const nullable = types.includes("null") ? " (or left out)" : "";
  if (lo !== undefined && hi !== undefined) {
    const l = s.exclusiveMinimum !== undefined ? "(" : "[";
    const r = s.exclusiveMaximum !== undefined ? ")" : "]";
    return `must be ${integer ? "an integer " : ""}in ${l}${lo}, ${hi}${r}${nullable}`;
  }
  if (lo !== undefined) return `must be ${kind} ${s.exclusiveMinimum !== undefined ? ">" : ">="} ${lo}${nullable}`;
  if (hi !== undefined) return `must be ${kind} ${s.exclusiveMaximum !== undefined ? "<" : "<="} ${hi}${nullable}`;
  return `must be ${kind}${nullable}`;
}

const FORMAT_RULES: Record<string, string> = {
  "iana-timezone": "must be an IANA time zone (e.g. America/New_York)",
  "iso-4217": "must be an ISO 4217 currency code in use (e.g. USD, EUR, JPY)",
  date: "must be a date YYYY-MM-DD",
  uri: "must be a URL",
};

const PATTERN_RULES: Record<string, string> = {
  "^[A-Z]{3}$": "must be a 3-letter upper-case ISO 4217 currency code (e.g. USD)",
  "^\\d{4}-\\d{2}-\\d{2}$": "must be a date YYYY-MM-DD",
  "^[A-Z][A-Z0-9_]*$": "must be an upper-case environment variable name (e.g. OPENAI_API_KEY)",
};

export interface SchemaIssue {
  /** Dotted key path, e.g. "limits.max_position_pct" ("" for the whole document). */
  path: string;
  /** The rule broken, e.g. "must be in (0, 100], got 150". */
  rule: string;
}

/** Turn ajv errors into one issue per (path, rule), deduplicated, in document order. */
export function describeErrors(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const seen = new Set<string>();
  const push = (path: string, rule: string) => {
    const k = `${path}\u0000${rule}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push({ path, rule });
    }
  };
  for (const e of errors ?? []) {
    const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
    const got = `, got ${show(e.data)}`;
    switch (e.keyword) {
      case "additionalProperties":
        push(dottedPath(e.instancePath, String(e.params.additionalProperty)), "unknown key");
        break;
      case "required":
        push(dottedPath(e.instancePath, String(e.params.missingProperty)), "missing required key");
        break;
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum":
        push(dottedPath(e.instancePath), numericRule(parent) + got);
        break;
      case "type": {
        const t = parent.type;
        const numeric = t === "number" || t === "integer" || (Array.isArray(t) && (t.includes("number") || t.includes("integer")));
        push(
          dottedPath(e.instancePath),
          (numeric ? numericRule(parent) : `must be ${Array.isArray(t) ? t.filter((x) => x !== "null").join(" or ") : String(t)}`) + got,
        );
        break;
      }
      case "enum":
        push(dottedPath(e.instancePath), `must be one of ${(parent.enum as unknown[]).map(show).join(", ")}${got}`);
        break;
      case "pattern":
        push(dottedPath(e.instancePath), (PATTERN_RULES[String(e.params.pattern)] ?? `must match ${String(e.params.pattern)}`) + got);
        break;
      case "format":
        push(dottedPath(e.instancePath), (FORMAT_RULES[String(e.params.format)] ?? `must be a ${String(e.params.format)}`) + got);
        break;
      case "minLength":
        push(dottedPath(e.instancePath), `must not be empty${got}`);
        break;
      case "minItems":
        push(dottedPath(e.instancePath), `must have at least ${String(e.params.limit)} item(s)${got}`);
        break;
      default:
        push(dottedPath(e.instancePath), `${e.message ?? e.keyword}${got}`);
    }
  }
  return out;
}

const registered: object[] = [];

/** Every schema handed to `generatedValidator` or `generatedChecker` so far (the meta-schema test checks them all). */
export function registeredSchemas(): readonly object[] {
  return registered;
}

/** What a value is once it passes `schema`: `Static<>` of a TypeBox schema; unknown for plain JSON Schema. */
export type Checked<S> = S extends TSchema ? Static<S> : unknown;

/**
 * The validator generated at build time from `schema` (scripts/validators-source.ts generates
 * src/config/validators.generated.js; tests/config/validators-generated.test.ts proves it is what
 * compiling `schema` now gives), typed as `Static<>` of the schema.
 */
export function generatedValidator<S extends object>(schema: S, validate: ValidateFunction): () => ValidateFunction<Checked<S>> {
  registered.push(schema);
  return () => validate as ValidateFunction<Checked<S>>;
}

/**
 * A checker of `schema` that answers with the issues (empty when the value fits), from its validator
 * generated at build time (src/config/validators.generated.js: compiled by `makeAjv`, so the same
 * issues as compiling it now; tests/config/validators-generated.test.ts keeps it current).
 */
export function generatedChecker(schema: object, validate: ValidateFunction | undefined, name: string): (value: unknown) => SchemaIssue[] {
  registered.push(schema);
  return (value) => {
    // Missing only in a tree where a schema was added without regenerating (the generator loads the modules calling this).
    if (!validate) throw new Error(`no validator generated for ${name}: run \`npm run validators:build\``);
    return validate(value) ? [] : describeErrors(validate.errors);
  };
}
