/**
 * Renderings of the catalogue, all derived from the contracts: the description the model sees,
 * the Anthropic and OpenAI tool formats, the JSON catalogue and the markdown docs page.
 */
import { CATALOGUE, CONTRACT_VERSION } from "./catalogue.js";
import { TOOL_ERROR_CODES, TOOL_ERROR_CODE_LIST } from "../core/tool-error-codes.js";
import type { ServedContract, ToolContract } from "./types.js";

export const COMMON_ERROR_SENTENCE =
  "On failure you get success=false with error, error_code, retryable and correction (instruction, valid_arguments_example, received_arguments, issues); repair the call as the correction says, and do not repeat a call whose retryable is false.";

/** Plain JSON (drops TypeBox's symbol keys, fixes key order). */
export function plainSchema(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/** The description the model sees: the tool's own text, then the example, the success summary, the error sentence. */
export function modelDescription(tool: ServedContract): string {
  return [tool.description, `Valid arguments example: ${JSON.stringify(tool.example)}`, `On success: ${tool.successSummary}`, COMMON_ERROR_SENTENCE].join(
    "\n\n",
  );
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
  const def: AnthropicToolDef = { name: tool.name, description: modelDescription(tool), input_schema: plainSchema(tool.input) };
  if (opts.strict) def.strict = true;
  return def;
}

export function renderOpenAI(tool: ServedContract): OpenAIToolDef {
  return { type: "function", function: { name: tool.name, description: modelDescription(tool), parameters: plainSchema(tool.input) } };
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
    inputSchema: plainSchema(tool.input),
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
    input_schema: plainSchema(tool.input),
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
    const schema = plainSchema(t.input);
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
  out.push("## Failure envelope", "", COMMON_ERROR_SENTENCE, "");
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
