/**
 * Renderings of the catalogue, all derived from the contracts: the description the model sees,
 * the Anthropic and OpenAI tool formats, the JSON catalogue and the markdown docs page.
 *
 * tw-tools/3 is lean (issue #26): what every tool shares — the failure envelope, the correction, the
 * pending and repair rules — is said once, in the system prompt (`ERROR_CONTRACT`), never per tool;
 * a tool's description is its own text and, when its arguments nest objects (orders, filters), one
 * short valid example; a union of constants is rendered as a plain `enum`; guards that only stop absurd
 * input are left to the validator; the input schema's root carries no description (its fields do). The success summary stays in the catalogue JSON and the docs: the model reads a
 * result when it gets one. (tw-tools/1 and /2 are served from their snapshots, untouched by this.)
 */
import { ERROR_CONTRACT } from "../agent/prompt.js";
import { CATALOGUE, CONTRACT_VERSION } from "./catalogue.js";
import { TOOL_ERROR_CODES, TOOL_ERROR_CODE_LIST } from "../core/tool-error-codes.js";
import type { ServedContract, ToolContract } from "./types.js";

/** Plain JSON (drops TypeBox's symbol keys, fixes key order). */
export function plainSchema(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** The constants of a union whose every branch is one constant of one JSON type (`anyOf: [{const}, …]`), else undefined. */
function constUnion(branches: unknown): { type: string; values: unknown[] } | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const values: unknown[] = [];
  let type: string | undefined;
  for (const b of branches) {
    if (!isJson(b) || b.const === undefined || typeof b.type !== "string" || Object.keys(b).some((k) => k !== "const" && k !== "type")) return undefined;
    if (type !== undefined && b.type !== type) return undefined;
    type = b.type;
    values.push(b.const);
  }
  return type === undefined ? undefined : { type, values };
}

/** Keywords whose value is one subschema, or a list of them. */
const SUBSCHEMA = new Set(["items", "not", "if", "then", "else", "additionalItems", "contains"]);
const SUBSCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

/**
 * Guards the validator enforces that tell the model nothing it would get wrong: string length and
 * list length caps, character patterns, uniqueness, and numeric caps far beyond any real value
 * (|bound| ≥ 100,000).
 * They stay in the contract (validation, docs); a call that breaks one is refused with its issue.
 */
const GUARD_KEYWORDS = new Set(["maxLength", "maxItems", "pattern", "uniqueItems"]);
const isGuard = (k: string, v: unknown) => GUARD_KEYWORDS.has(k) || ((k === "maximum" || k === "minimum") && typeof v === "number" && Math.abs(v) >= 100_000);

/** An optional list's `minItems: 1` left out: tw-tools/3 accepts an empty optional list as absent (./empty-lists.ts), so `[]` is fine. */
function optionalList(schema: unknown): unknown {
  if (!isJson(schema) || schema.type !== "array" || schema.minItems !== 1) return schema;
  const { minItems: _accepted, ...rest } = schema;
  return rest;
}

/** One schema as the model is shown it: unions of constants as `enum`, guards left out, everything else as it is. */
function leanSchema(schema: unknown): unknown {
  if (!isJson(schema)) return schema;
  const out: Json = {};
  const lits = constUnion(schema.anyOf);
  if (lits) {
    out.type = lits.type;
    out.enum = lits.values;
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [k, v] of Object.entries(schema)) {
    if ((lits && k === "anyOf") || isGuard(k, v)) continue;
    if (k === "properties" && isJson(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, leanSchema(required.has(name) ? p : optionalList(p))]));
    else if (SUBSCHEMA.has(k)) out[k] = leanSchema(v);
    else if (SUBSCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map(leanSchema);
    else out[k] = v;
  }
  return out;
}

/** The input schema the model is shown (tw-tools/3): plain JSON, unions of constants as `enum`, no description at the root. */
export function modelSchema(tool: Pick<ServedContract, "input">): Record<string, unknown> {
  const lean = leanSchema(plainSchema(tool.input)) as Json;
  const { description: _root, ...rest } = lean;
  return rest;
}

/** Whether an input schema nests objects (an argument that is an object, or a list of them): then an example shows the shape. */
function nestsObjects(input: unknown): boolean {
  const props = isJson(input) && isJson(input.properties) ? Object.values(input.properties) : [];
  return props.some((p) => isJson(p) && (p.type === "object" || (isJson(p.items) && p.items.type === "object")));
}

/** The description the model sees: the tool's own text, then (when its arguments nest objects) one valid example. */
export function modelDescription(tool: Pick<ServedContract, "description" | "example" | "input">): string {
  return nestsObjects(plainSchema(tool.input)) ? `${tool.description}\nExample: ${JSON.stringify(tool.example)}` : tool.description;
}

export interface AnthropicToolDef {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  strict?: boolean;
}

export interface OpenAIToolDef {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

export function renderAnthropic(tool: ServedContract, opts: { strict?: boolean } = {}): AnthropicToolDef {
  const def: AnthropicToolDef = { name: tool.name, description: modelDescription(tool), input_schema: modelSchema(tool) };
  if (opts.strict) def.strict = true;
  return def;
}

export function renderOpenAI(tool: ServedContract): OpenAIToolDef {
  return { type: "function", function: { name: tool.name, description: modelDescription(tool), parameters: modelSchema(tool) } };
}

/** MCP's tool annotations: hints for the client (a client must not trust them for safety; the gate and the operator decide). */
interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpToolDef {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: McpToolAnnotations;
}

/**
 * The MCP form (`tools/list` of `tradewarden mcp`, `tools --format mcp`): the same description and
 * input schema as the other forms. Reads and dry runs are read-only; writes change the account's
 * journal (notes, watchlist, standing orders), removals being the destructive ones; the final tool
 * records a proposal for the operator and places nothing.
 */
export function renderMcp(tool: ServedContract): McpToolDef {
  const readOnly = tool.kind === "read" || tool.kind === "dry_run";
  return {
    name: tool.name,
    description: modelDescription(tool),
    inputSchema: modelSchema(tool),
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && /^(remove|cancel)_/.test(tool.name),
      idempotentHint: readOnly,
      openWorldHint: false,
    },
  };
}

export interface CatalogueEntry {
  name: string;
  group: string;
  kind: string;
  call_limit: number | null;
  description: string;
  example: Record<string, unknown>;
  success_summary: string;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
}

export function renderCatalogueEntry(tool: ToolContract): CatalogueEntry {
  return {
    name: tool.name,
    group: tool.group,
    kind: tool.kind,
    call_limit: tool.callLimit,
    description: modelDescription(tool),
    example: tool.example,
    success_summary: tool.successSummary,
    input_schema: modelSchema(tool),
    output_schema: plainSchema(tool.output),
  };
}

export function renderCatalogue(): { contract_version: string; tools: CatalogueEntry[]; error_codes: Record<string, unknown> } {
  return {
    contract_version: CONTRACT_VERSION,
    tools: CATALOGUE.map((t) => renderCatalogueEntry(t)),
    error_codes: TOOL_ERROR_CODES,
  };
}

function fieldRows(schema: Record<string, unknown>, prefix = ""): string[] {
  const rows: string[] = [];
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [key, prop] of Object.entries(props)) {
    const path = prefix + key;
    const type = describeType(prop);
    rows.push(`| \`${path}\` | ${type} | ${required.has(key) ? "yes" : "no"} | ${escapeCell(String(prop.description ?? ""))} |`);
    if (prop.type === "object") rows.push(...fieldRows(prop, `${path}.`));
    const items = prop.items as Record<string, unknown> | undefined;
    if (items && items.type === "object") rows.push(...fieldRows(items, `${path}[].`));
  }
  return rows;
}

function describeType(prop: Record<string, unknown>): string {
  if (Array.isArray(prop.enum)) return (prop.enum as unknown[]).map((v) => JSON.stringify(v)).join(" \\| ");
  if (Array.isArray(prop.anyOf)) {
    const lits = (prop.anyOf as Record<string, unknown>[]).map((s) => (s.const !== undefined ? JSON.stringify(s.const) : String(s.type)));
    return lits.join(" \\| ");
  }
  const parts: string[] = [String(prop.type ?? "any")];
  const bounds: string[] = [];
  if (prop.minimum !== undefined) bounds.push(`≥ ${prop.minimum}`);
  if (prop.exclusiveMinimum !== undefined) bounds.push(`> ${prop.exclusiveMinimum}`);
  if (prop.maximum !== undefined) bounds.push(`≤ ${prop.maximum}`);
  if (prop.minLength !== undefined) bounds.push(`length ≥ ${prop.minLength}`);
  if (prop.maxLength !== undefined) bounds.push(`length ≤ ${prop.maxLength}`);
  if (prop.minItems !== undefined) bounds.push(`items ≥ ${prop.minItems}`);
  if (prop.maxItems !== undefined) bounds.push(`items ≤ ${prop.maxItems}`);
  if (prop.default !== undefined) bounds.push(`default ${JSON.stringify(prop.default)}`);
  if (bounds.length) parts.push(`(${bounds.join(", ")})`);
  return parts.join(" ");
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** The docs page for tools and error codes (docs/tools.md). A test keeps the committed copy current. */
export function renderMarkdown(): string {
  const out: string[] = [];
  out.push("# Tool catalogue", "");
  out.push(
    `Generated from the tool contracts in \`src/tools\` (contract version \`${CONTRACT_VERSION}\`) by \`tradewarden tools --format markdown\`. Do not edit by hand: \`npm run docs:tools\` rewrites it and a test fails when it is stale.`,
    "",
  );
  out.push("| tool | kind | group | calls per run |", "|---|---|---|---|");
  for (const t of CATALOGUE) out.push(`| [\`${t.name}\`](#${t.name}) | ${t.kind} | ${t.group} | ${t.callLimit ?? "unlimited"} |`);
  out.push("");
  for (const t of CATALOGUE) {
    const schema = modelSchema(t);
    out.push(`## ${t.name}`, "", t.description, "");
    out.push(`- kind: \`${t.kind}\`; calls per run: ${t.callLimit ?? "unlimited"}`);
    out.push(`- on success: ${t.successSummary}`, "");
    const rows = fieldRows(schema);
    if (rows.length) {
      out.push("| argument | type | required | description |", "|---|---|---|---|", ...rows, "");
    } else {
      out.push("No arguments.", "");
    }
    out.push("Valid example:", "", "```json", JSON.stringify(t.example, null, 2), "```", "");
  }
  out.push("## Failure envelope", "", "Stated once, in the system prompt, for every tool:", "", ERROR_CONTRACT, "");
  out.push(
    "```json",
    JSON.stringify(
      {
        success: false,
        error: "specific message",
        error_code: "stable_snake_case",
        retryable: true,
        correction: {
          tool: "...",
          instruction: "how to repair in this run",
          valid_arguments_example: {},
          received_arguments: {},
          issues: [{ path: "$.orders[0].quantity", message: "..." }],
        },
      },
      null,
      2,
    ),
    "```",
    "",
  );
  out.push("## Error codes", "", "| code | retryable | meaning | repair |", "|---|---|---|---|");
  for (const code of TOOL_ERROR_CODE_LIST) {
    const spec = TOOL_ERROR_CODES[code];
    out.push(`| \`${code}\` | ${spec.retryable ? "yes" : "no"} | ${escapeCell(spec.meaning)} | ${escapeCell(spec.instruction)} |`);
  }
  out.push("");
  return out.join("\n");
}
