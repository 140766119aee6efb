/**
 * The contract checker the contract tests run over every tool in the catalogue. It works on the
 * plain JSON Schema a provider receives (not on TypeBox internals), so a deliberately broken
 * contract — a hand-written schema or a mutated copy of a real one — goes through the very same
 * checks and must be caught.
 */
import { isDeepStrictEqual } from "node:util";
import { newAjv } from "../../src/tools/validate.js";
import { modelDescription, modelSchema, plainSchema } from "../../src/tools/render.js";
import type { ToolContract } from "../../src/tools/types.js";

export interface ContractProblem {
  tool: string;
  /** JSON-Schema location, e.g. `input.properties.orders.items.properties.reason`. */
  at: string;
  problem: string;
}

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === "object" && !Array.isArray(v);
const nonEmpty = (v: unknown): boolean => typeof v === "string" && v.trim().length > 0;

/** A string field that can be empty: `type: "string"` without `const`/`enum` and without `minLength ≥ 1`. */
function allowsEmptyString(s: Schema): boolean {
  if (s.type !== "string" || s.const !== undefined || s.enum !== undefined) return false;
  return typeof s.minLength !== "number" || s.minLength < 1;
}

function isObjectSchema(s: Schema): boolean {
  return s.type === "object" || isSchema(s.properties);
}

/**
 * Walk a data-shape schema: the root, every property, array items / prefixItems and union
 * branches. `described` is false for union branches whose parent carries the description.
 */
function walkShape(s: Schema, at: string, described: boolean, out: (at: string, problem: string) => void): void {
  if (described && !nonEmpty(s.description)) out(at, "has no description");
  if (s.type === undefined && s.const === undefined && s.enum === undefined && !Array.isArray(s.anyOf) && !Array.isArray(s.oneOf)) {
    out(at, "has no type");
  }
  if (isObjectSchema(s)) {
    if (s.additionalProperties !== false) out(at, "lacks additionalProperties: false");
    const props = isSchema(s.properties) ? s.properties : {};
    const required = Array.isArray(s.required) ? (s.required as unknown[]) : [];
    for (const name of required) {
      if (typeof name !== "string" || !Object.hasOwn(props, name)) out(at, `requires "${String(name)}" which it does not define`);
    }
    for (const [name, prop] of Object.entries(props)) {
      const pAt = `${at}.properties.${name}`;
      if (!isSchema(prop)) {
        out(pAt, "is not a schema object (boolean schemas say nothing to the model)");
        continue;
      }
      if (required.includes(name) && allowsEmptyString(prop)) out(pAt, "is a required string without minLength ≥ 1");
      walkShape(prop, pAt, true, out);
    }
    checkConditionals(s, props, at, out);
  }
  if (s.type === "array") {
    if (!isSchema(s.items)) {
      out(at, "is an array without an items schema");
    } else {
      // Every element of an array is present, so a string element must be non-empty too.
      if (allowsEmptyString(s.items)) out(`${at}.items`, "is a string element without minLength ≥ 1");
      walkShape(s.items, `${at}.items`, true, out);
    }
    if (Array.isArray(s.prefixItems)) {
      s.prefixItems.forEach((p, i) => {
        if (isSchema(p)) walkShape(p, `${at}.prefixItems[${i}]`, true, out);
      });
    }
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = s[key];
    if (!Array.isArray(branches)) continue;
    if (!nonEmpty(s.description)) out(at, `has ${key} without a description of the field`);
    branches.forEach((b, i) => {
      if (!isSchema(b)) return;
      if (b.type === "string" && b.const === "") out(`${at}.${key}[${i}]`, "allows the empty string");
      walkShape(b, `${at}.${key}[${i}]`, false, out);
    });
  }
}

/** Conditional keywords may only talk about fields the object defines. */
function checkConditionals(s: Schema, props: Schema, at: string, out: (at: string, problem: string) => void): void {
  const known = (name: unknown) => typeof name === "string" && Object.hasOwn(props, name);
  if (isSchema(s.dependentRequired)) {
    for (const [name, deps] of Object.entries(s.dependentRequired)) {
      if (!known(name)) out(`${at}.dependentRequired`, `names "${name}" which the object does not define`);
      for (const d of Array.isArray(deps) ? deps : []) {
        if (!known(d)) out(`${at}.dependentRequired.${name}`, `requires "${String(d)}" which the object does not define`);
      }
    }
  }
  const conditional: [string, unknown][] = [];
  for (const key of ["if", "then", "else", "not"]) if (s[key] !== undefined) conditional.push([key, s[key]]);
  if (Array.isArray(s.allOf)) {
    s.allOf.forEach((c, i) => {
      conditional.push([`allOf[${i}]`, c]);
    });
  }
  while (conditional.length > 0) {
    const [where, c] = conditional.pop() as [string, unknown];
    if (!isSchema(c)) continue;
    for (const name of Array.isArray(c.required) ? c.required : []) {
      if (!known(name)) out(`${at}.${where}`, `requires "${String(name)}" which the object does not define`);
    }
    if (isSchema(c.properties)) {
      for (const name of Object.keys(c.properties)) {
        if (!known(name)) out(`${at}.${where}`, `introduces "${name}" outside the object's properties`);
      }
    }
    for (const key of ["if", "then", "else", "not"]) if (c[key] !== undefined) conditional.push([`${where}.${key}`, c[key]]);
  }
}

/** Every structural problem of one contract (empty = the contract is sound). */
export function checkContract(tool: ToolContract): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const report = (at: string, problem: string) => problems.push({ tool: tool.name, at, problem });

  if (!/^[a-z][a-z0-9_]{0,63}$/.test(tool.name)) report("name", "is not a provider-safe snake_case name (≤ 64 chars)");
  if (!nonEmpty(tool.description)) report("description", "is empty");
  if (!nonEmpty(tool.successSummary)) report("successSummary", "is empty (the model must know what success looks like)");
  if (!["read", "write", "dry_run", "final"].includes(tool.kind)) report("kind", `is "${tool.kind}"`);
  if (tool.callLimit !== null && !(Number.isInteger(tool.callLimit) && tool.callLimit >= 1)) report("callLimit", "must be a positive integer or null");

  // The schema the model is shown (enums, no guards, no root description): every field described, and strict ajv compiles it.
  const input = modelSchema(tool);
  if (input.type !== "object") report("input", "is not an object schema");
  walkShape(input, "input", false, report);

  // The example must validate — with a fresh strict ajv, so the runtime's compiled copy cannot mask a problem.
  if (!isSchema(tool.example)) {
    report("example", "is not an object");
  } else {
    try {
      const validate = newAjv().compile(input);
      if (!validate(structuredClone(tool.example))) {
        report("example", `does not validate: ${(validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ")}`);
      }
    } catch (e) {
      report("input", `does not compile in strict mode: ${(e as Error).message}`);
    }
  }

  const output = plainSchema(tool.output);
  const success = isSchema(output.properties) ? output.properties.success : undefined;
  if (!isSchema(success) || success.const !== true) report("output", "does not declare success: true");
  if (!Array.isArray(output.required) || !output.required.includes("success")) report("output", "does not require success");
  return problems;
}

export interface Renderings {
  catalogue: { name: string; description: string; input_schema: unknown };
  anthropic: { name: string; description: string; input_schema: unknown };
  openai: { type: string; function: { name: string; description: string; parameters: unknown } };
}

/**
 * The three renderings of one tool must say the same thing: same name, same description (the
 * tool's own text, and its example when its arguments nest objects), same schema (the model's).
 */
export function checkRenderings(tool: ToolContract, r: Renderings): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const report = (at: string, problem: string) => problems.push({ tool: tool.name, at, problem });
  const schema = modelSchema(tool);
  if (r.openai.type !== "function") report("openai.type", `is "${r.openai.type}", not "function"`);
  const views = [
    ["catalogue", r.catalogue.name, r.catalogue.description, r.catalogue.input_schema],
    ["anthropic", r.anthropic.name, r.anthropic.description, r.anthropic.input_schema],
    ["openai", r.openai.function.name, r.openai.function.description, r.openai.function.parameters],
  ] as const;
  const expected = modelDescription(tool);
  for (const [where, name, description, params] of views) {
    if (name !== tool.name) report(`${where}.name`, `is "${name}", not "${tool.name}"`);
    if (!description.startsWith(tool.description)) report(`${where}.description`, "does not start with the tool's description");
    if (description !== expected) report(`${where}.description`, "is not the tool's description (with its example when its arguments nest objects)");
    if (!isDeepStrictEqual(params, schema)) report(`${where}.schema`, "differs from the contract's input schema");
  }
  const [first, ...rest] = views;
  for (const v of rest) {
    if (v[2] !== first[2]) report(`${v[0]}.description`, `differs from the ${first[0]} description`);
    if (!isDeepStrictEqual(v[3], first[3])) report(`${v[0]}.schema`, `differs from the ${first[0]} schema`);
  }
  return problems;
}

export const formatProblems = (ps: ContractProblem[]): string => ps.map((p) => `${p.tool}: ${p.at} ${p.problem}`).join("\n");
