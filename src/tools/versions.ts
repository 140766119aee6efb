/**
 * Contract versions. A run records the version of the tool contracts it used (cassette meta,
 * research cycle); a replay must offer the model exactly what the recorded run offered, so every
 * published version stays available here:
 *
 * - `tw-tools/3` (current): the catalogue in `catalogue.ts`, rendered by `render.ts`. It differs
 *   from v2 in the kinds: the account's own notes, watchlist and standing-order writes are `write`;
 *   it adds `get_proposal_status` (what became of a proposal) and the market tools; `check_orders`
 *   answers a `check_id` and `submit_orders` takes exactly one of `orders` or that `check_id`
 *   (swapped for the orders before grounding; an id no check of the run returned is refused as
 *   `unknown_check_id`); empty optional lists are taken as absent; an identical refused call
 *   repeated counts toward the repair budget. It is this round's one new version and is frozen
 *   when the round ends.
 * - `tw-tools/1` and `tw-tools/2`: frozen as data snapshots (`data/contracts/tw-tools-1.json`,
 *   `tw-tools-2.json`: the catalogue JSON each version printed). Their descriptions, schemas and call
 *   limits are served from the snapshot, never re-derived from today's code, so later edits to a
 *   tool cannot change an old replay.
 *
 * Result serialisation (the envelope and its compaction) is a per-version slot too; all versions
 * use the same serialiser today, and replay tests of v1 and v2 cassettes guard that it stays so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundledDataDir } from "../util/paths.js";
import { CATALOGUE, CONTRACT_VERSION } from "./catalogue.js";
import { compactResult } from "./compaction.js";
import { type AnthropicToolDef, type CatalogueEntry, type OpenAIToolDef, renderAnthropic, renderOpenAI } from "./render.js";
import type { ServedContract, ToolContract } from "./types.js";
import { compileValidators, type ValidationReport, validateArguments } from "./validate.js";

/** The frozen versions: each served from its snapshot, never from today's code. */
const FROZEN = ["tw-tools/1", "tw-tools/2"] as const;
type FrozenVersion = (typeof FROZEN)[number];

export const CONTRACT_VERSIONS = [...FROZEN, CONTRACT_VERSION] as const;
export type ContractVersion = (typeof CONTRACT_VERSIONS)[number];

export interface ContractSet {
  version: ContractVersion;
  contracts: readonly ServedContract[];
  anthropic(tool: ServedContract, opts?: { strict?: boolean }): AnthropicToolDef;
  openai(tool: ServedContract): OpenAIToolDef;
  validate(tool: string, args: unknown): ValidationReport;
  serialize(envelope: Record<string, unknown>, budgetChars: number): { text: string; truncated: boolean };
}

const current: ContractSet = {
  version: CONTRACT_VERSION,
  contracts: CATALOGUE,
  anthropic: renderAnthropic,
  openai: renderOpenAI,
  validate: validateArguments,
  serialize: compactResult,
};

const frozenSets = new Map<FrozenVersion, ContractSet>();

function isFrozen(v: string): v is FrozenVersion {
  return (FROZEN as readonly string[]).includes(v);
}

/** A frozen set, built from `data/contracts/<version>.json` on first use. */
function frozen(version: FrozenVersion): ContractSet {
  const cached = frozenSets.get(version);
  if (cached) return cached;
  const file = join(bundledDataDir(), "contracts", `${version.replace("/", "-")}.json`);
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as { contract_version: string; tools: CatalogueEntry[] };
  if (snapshot.contract_version !== version) throw new Error(`${file} holds ${snapshot.contract_version}, not ${version}`);
  const entries = new Map(snapshot.tools.map((t) => [t.name, t]));
  const contracts: ServedContract[] = snapshot.tools.map((t) => ({
    name: t.name,
    group: t.group as ToolContract["group"],
    kind: t.kind as ToolContract["kind"],
    // The snapshot holds the full model-facing description (example, summary and error sentence included).
    description: t.description,
    example: t.example,
    successSummary: t.success_summary,
    input: t.input_schema,
    output: t.output_schema,
    callLimit: t.call_limit,
  }));
  const entry = (tool: ServedContract): CatalogueEntry => {
    const e = entries.get(tool.name);
    if (!e) throw new Error(`${version} has no tool ${tool.name}`);
    return e;
  };
  const set: ContractSet = {
    version,
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
    validate: compileValidators(contracts),
    serialize: compactResult,
  };
  frozenSets.set(version, set);
  return set;
}

export function isContractVersion(v: string): v is ContractVersion {
  return (CONTRACT_VERSIONS as readonly string[]).includes(v);
}

/** The contract set of a version (the current one by default). Unknown versions are refused. */
export function contractSet(version: string = CONTRACT_VERSION): ContractSet {
  if (version === CONTRACT_VERSION) return current;
  if (isFrozen(version)) return frozen(version);
  throw new Error(`unknown tool contract version ${version} (this build knows ${CONTRACT_VERSIONS.join(", ")})`);
}
