/**
 * Schema validation of tool arguments: ajv (draft 2020-12, strict), compiled once per tool on
 * first use, reporting every issue as `{path, message}` plus the missing fields.
 */
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from "ajv/dist/2020.js";
import { newAjv2020 } from "../config/ajv-compiler.js";
import { tools as generatedTools } from "../config/validators.generated.js";
import { CATALOGUE } from "./catalogue.js";
import { plainSchema } from "./render.js";

interface ValidationIssue {
  path: string;
  message: string;
}

export interface ValidationReport {
  valid: boolean;
  issues: ValidationIssue[];
  missing: string[];
}

/**
 * An ajv for our own fixed schemas. `validateSchema: false`: each is checked against the draft
 * 2020-12 meta-schema by tests/config/schemas-valid.test.ts instead of by every process (compiling
 * the meta-schema cost ~50 ms of start-up per instance).
 */
export function newAjv(extra: Options = {}): Ajv2020 {
  return newAjv2020({ strict: true, allErrors: true, useDefaults: false, allowUnionTypes: false, validateSchema: false, ...extra });
}

/**
 * The tool validators' ajv: `newAjv()` except that minLength/maxLength count UTF-16 code units
 * (JavaScript's `.length`) instead of code points. Counting code points goes through ajv's
 * `ucs2length` on every string and made up ~75% of validating an order call (1.2 µs → 0.3 µs).
 * The difference only shows for astral characters (an emoji counts 2 towards a maxLength);
 * `minLength: 1` still means non-empty. ajv marks the `unicode` option deprecated, so its
 * start-up notice about it is filtered out of the logger (every other message still goes through).
 */
export function toolAjv(extra: Options = {}): Ajv2020 {
  const warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("DEPRECATED: option unicode")) return;
    console.warn(...args);
  };
  return newAjv({ unicode: false, logger: { log: console.log, warn, error: console.error }, ...extra });
}

/** Made on first use: the current catalogue's validators are generated at build time, so most processes never need it. */
let ajv: Ajv2020 | undefined;

/** "/orders/0/quantity" → "$.orders[0].quantity". */
function toJsonPath(pointer: string, extra?: string): string {
  let out = "$";
  const parts = pointer === "" ? [] : pointer.slice(1).split("/");
  if (extra !== undefined) parts.push(extra);
  for (const raw of parts) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

function describe(e: ErrorObject): ValidationIssue | null {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return { path: toJsonPath(e.instancePath, String(p.missingProperty)), message: "is required" };
    case "dependentRequired":
      return { path: toJsonPath(e.instancePath, String(p.missingProperty)), message: `is required when ${String(p.property)} is present` };
    case "additionalProperties":
      return { path: toJsonPath(e.instancePath, String(p.additionalProperty)), message: "is not an allowed field" };
    case "enum":
      return { path: toJsonPath(e.instancePath), message: `must be one of ${JSON.stringify(p.allowedValues)}` };
    case "const":
      return { path: toJsonPath(e.instancePath), message: `must be ${JSON.stringify(p.allowedValue)}` };
    case "if":
    case "anyOf":
      return null; // the branch errors say what is wrong
    default:
      return { path: toJsonPath(e.instancePath), message: e.message ?? e.keyword };
  }
}

/** Collapse `anyOf` of literals (e.g. side BUY|SELL) into one readable issue. */
function collapseLiteralUnions(errors: ErrorObject[]): ErrorObject[] {
  const out: ErrorObject[] = [];
  const unionPaths = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword === "const") {
      const list = unionPaths.get(e.instancePath) ?? [];
      list.push((e.params as { allowedValue: unknown }).allowedValue);
      unionPaths.set(e.instancePath, list);
    }
  }
  const emitted = new Set<string>();
  for (const e of errors) {
    if (e.keyword === "const") {
      const values = unionPaths.get(e.instancePath) ?? [];
      if (values.length > 1) {
        if (!emitted.has(e.instancePath)) {
          emitted.add(e.instancePath);
          out.push({ ...e, keyword: "enum", params: { allowedValues: values } });
        }
        continue;
      }
    }
    out.push(e);
  }
  return out;
}

/**
 * A validator over a set of contracts. Each tool's schema is compiled once, on its first call: a
 * process pays only for the tools it validates (compiling all sixteen at start-up was ~0.2 s of
 * every command). The contract tests compile every schema of every version. `generated`: validators
 * already compiled at build time, by tool name (the current catalogue's: scripts/validators-source.ts).
 */
export function compileValidators(
  contracts: readonly { name: string; input: unknown }[],
  generated: Readonly<Record<string, ValidateFunction>> = {},
): (tool: string, args: unknown) => ValidationReport {
  const inputs = new Map(contracts.map((c) => [c.name, c.input]));
  const validators = new Map<string, ValidateFunction>(Object.entries(generated).filter(([name]) => inputs.has(name)));
  return (tool, args) => {
    let validate = validators.get(tool);
    if (!validate) {
      if (!inputs.has(tool)) throw new Error(`no validator for tool ${tool}`);
      ajv ??= toolAjv();
      validate = ajv.compile(plainSchema(inputs.get(tool)));
      validators.set(tool, validate);
    }
    return report(validate, args);
  };
}

/** Validates against the current catalogue. */
export const validateArguments = compileValidators(CATALOGUE, generatedTools);

function report(validate: ValidateFunction, args: unknown): ValidationReport {
  if (validate(args)) return { valid: true, issues: [], missing: [] };
  const errors = collapseLiteralUnions(validate.errors ?? []);
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const missing: string[] = [];
  for (const e of errors) {
    const issue = describe(e);
    if (!issue) continue;
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (e.keyword === "required" || e.keyword === "dependentRequired") missing.push(issue.path);
  }
  return { valid: false, issues, missing };
}
