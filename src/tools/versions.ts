/**
 * Contract versions. A run records the version of the tool contracts it used (cassette meta,
 * research cycle); a replay must offer the model exactly what the recorded run offered, so every
 * published version stays available here:
 *
 * - `tw-tools/2` (current): the catalogue in `catalogue.ts`, rendered by `render.ts`.
 * - `tw-tools/1`: frozen as a data snapshot (`data/contracts/tw-tools-1.json`, the catalogue JSON
 *   that version printed). Its descriptions, schemas and call limits are served from the snapshot,
 *   never re-derived from today's code, so later edits to a tool cannot change a v1 replay.
 *
 * Result serialisation (the envelope and its compaction) is a per-version slot too; both versions
 * use the same serialiser today, and a replay test of a v1 cassette guards that it stays so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundledDataDir } from "../util/paths.js";
import { CATALOGUE, CONTRACT_VERSION } from "./catalogue.js";
import { compactResult } from "./compaction.js";
import { type AnthropicToolDef, type CatalogueEntry, type OpenAIToolDef, renderAnthropic, renderOpenAI } from "./render.js";
import type { ToolContract } from "./types.js";
import { compileValidators, type ValidationReport, validateArguments } from "./validate.js";

export const CONTRACT_VERSIONS = ["tw-tools/1", CONTRACT_VERSION] as const;
export type ContractVersion = (typeof CONTRACT_VERSIONS)[number];

export interface ContractSet {
  version: ContractVersion;
  contracts: readonly ToolContract[];
  anthropic(tool: ToolContract, opts?: { strict?: boolean }): AnthropicToolDef;
  openai(tool: ToolContract): OpenAIToolDef;
  validate(tool: string, args: unknown): ValidationReport;
  serialize(envelope: Record<string, unknown>, budgetChars: number): { text: string; truncated: boolean };
}

const current: ContractSet = {
  version: CONTRACT_VERSION,
  contracts: CATALOGUE as readonly ToolContract[],
  anthropic: renderAnthropic,
  openai: renderOpenAI,
  validate: validateArguments,
  serialize: compactResult,
};

let v1: ContractSet | undefined;

/** The frozen tw-tools/1 set, built from its snapshot on first use. */
function frozenV1(): ContractSet {
  if (v1) return v1;
  const file = join(bundledDataDir(), "contracts", "tw-tools-1.json");
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as { contract_version: string; tools: CatalogueEntry[] };
  if (snapshot.contract_version !== "tw-tools/1") throw new Error(`${file} holds ${snapshot.contract_version}, not tw-tools/1`);
  const entries = new Map(snapshot.tools.map((t) => [t.name, t]));
  const contracts: ToolContract[] = snapshot.tools.map((t) => ({
    name: t.name,
    group: t.group as ToolContract["group"],
    kind: t.kind as ToolContract["kind"],
    // The snapshot holds the full model-facing description (example, summary and error sentence included).
    description: t.description,
    example: t.example,
    successSummary: t.success_summary,
    input: t.input_schema as unknown as ToolContract["input"],
    output: t.output_schema as unknown as ToolContract["output"],
    callLimit: t.call_limit,
  }));
  const entry = (tool: ToolContract): CatalogueEntry => {
    const e = entries.get(tool.name);
    if (!e) throw new Error(`tw-tools/1 has no tool ${tool.name}`);
    return e;
  };
  const validate = compileValidators(contracts);
  v1 = {
    version: "tw-tools/1",
    contracts,
    anthropic: (tool, opts = {}) => {
      const e = entry(tool);
      const def: AnthropicToolDef = { name: e.name, description: e.description, input_schema: structuredClone(e.input_schema) };
      if (opts.strict) def.strict = true;
      return def;
    },
    openai: (tool) => {
      const e = entry(tool);
      return { type: "function", function: { name: e.name, description: e.description, parameters: structuredClone(e.input_schema) } };
    },
    validate,
    serialize: compactResult,
  };
  return v1;
}

export function isContractVersion(v: string): v is ContractVersion {
  return (CONTRACT_VERSIONS as readonly string[]).includes(v);
}

/** The contract set of a version (the current one by default). Unknown versions are refused. */
export function contractSet(version: string = CONTRACT_VERSION): ContractSet {
  if (version === CONTRACT_VERSION) return current;
  if (version === "tw-tools/1") return frozenV1();
  throw new Error(`unknown tool contract version ${version} (this build knows ${CONTRACT_VERSIONS.join(", ")})`);
}
