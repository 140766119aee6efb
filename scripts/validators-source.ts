/**
 * Generates src/config/validators.generated.js and its groups' code (src/config/validators/*.generated.cjs):
 * ajv's standalone code for the schemas every command checks (the config, the gate scenario, each
 * tool's arguments in the current catalogue, the research-cycle and TradeCat envelopes, the files a
 * home holds). Compiling them in every process was ~23% of `run --yes`'s
 * start-up (issue #26). Each schema is compiled by the very ajv set-up that compiled it at run time
 * (same options, formats and RegExp engine), so the errors, and the messages made of them, are the
 * same. tests/config/validators-generated.test.ts fails when regenerating would change a file:
 * run `npm run validators:build` after changing one of these schemas.
 */
import { _, type CodeOptions } from "ajv";
import type AjvCore from "ajv/dist/core.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { Type } from "@sinclair/typebox";
import { SimLogRecordSchema, SimStateSchema } from "../src/broker/simulated-state.js";
import { makeAjv } from "../src/config/ajv.js";
import { CONFIG_SCHEMA } from "../src/config/schema.js";
import { RECORDED_EVENT_SCHEMAS } from "../src/core/events.js";
import { EVENT_BODIES, HeadDoc, ResetRecord, TripRecord } from "../src/journal/schemas.js";
import { typesOnly } from "../src/records/audit-events.js";
import { SimulationMetaSchema } from "../src/simulation/store.js";
import { SCENARIO_SCHEMA } from "../src/gate/scenario.js";
import { researchCycleAjv, researchCycleSchema } from "../src/run/research-cycle.js";
import { tradecatAjv, tradecatSchema } from "../src/run/tradecat-rules.js";
import { CATALOGUE } from "../src/tools/catalogue.js";
import { plainSchema } from "../src/tools/render.js";
import { toolAjv } from "../src/tools/validate.js";

/** The generated code names the formats and the RegExp engine by these (imported from src/config/schema-runtime.ts). */
const CODE: CodeOptions = { source: true, formats: _`__twFormats` };

interface Group {
  /** A name for the group's scope in the generated module. */
  name: string;
  ajv: (code: CodeOptions) => AjvCore.default;
  /** export name → schema */
  schemas: Record<string, object>;
}

function groups(): Group[] {
  return [
    { name: "defaults", ajv: (code) => makeAjv({ useDefaults: true, code }), schemas: { config: CONFIG_SCHEMA, scenario: SCENARIO_SCHEMA } },
    { name: "tools", ajv: (code) => toolAjv({ code }), schemas: Object.fromEntries(CATALOGUE.map((c) => [`tool_${c.name}`, plainSchema(c.input)])) },
    { name: "research", ajv: researchCycleAjv, schemas: { researchCycle: researchCycleSchema() } },
    { name: "tradecat", ajv: tradecatAjv, schemas: { tradecat: tradecatSchema() } },
    // The files read back on every start: the journal (head, each event type, a schema 1 journal's
    // trips and resets) and the simulated broker (state, log records). Compiling them when a home
    // was opened was most of a `run` on a home with history (issue 26).
    {
      name: "stored",
      ajv: (code) => makeAjv({ code }),
      schemas: {
        journalHead: HeadDoc,
        journalTrips: Type.Array(TripRecord),
        journalResets: Type.Array(ResetRecord),
        simState: SimStateSchema,
        simLogRecord: SimLogRecordSchema,
        ...Object.fromEntries(Object.entries(EVENT_BODIES).map(([t, schema]) => [`event_${t}`, schema])),
      },
    },
    // What `simulate list/report/compare` read back of each simulation (simulation.json), and each
    // recorded run event as `audit` checks it (its types-only form): groups of their own, so neither
    // command loads the other's validators or the journal's.
    { name: "simulation", ajv: (code) => makeAjv({ code }), schemas: { simulationMeta: SimulationMetaSchema } },
    {
      name: "audit",
      ajv: (code) => makeAjv({ code }),
      schemas: Object.fromEntries(auditEventTypes().map((t, i) => [`audit_${i}`, auditEventSchema(t)])),
    },
  ];
}

/** The recorded run events' types, in a fixed order (their validators are named by index: a type holds dots). */
function auditEventTypes(): string[] {
  return [...RECORDED_EVENT_SCHEMAS.keys()];
}

function auditEventSchema(type: string): object {
  const schema = RECORDED_EVENT_SCHEMAS.get(type);
  if (!schema) throw new Error(`no recorded event schema for ${type}`);
  return typesOnly(schema as unknown as Record<string, unknown>);
}

/** One group's standalone (CommonJS) code: `exports.<name> = <validate function>` for each schema. */
function groupCode(g: Group): string {
  const ajv = g.ajv(CODE);
  const refs: Record<string, string> = {};
  for (const [name, schema] of Object.entries(g.schemas)) {
    ajv.addSchema(schema, name);
    refs[name] = name;
  }
  return standaloneCode.default(ajv, refs);
}

/**
 * What the config validator makes of an empty document (no tradewarden.toml, or an empty one): the
 * built-in defaults, filled in by the very validator generated below. src/config/load.ts takes
 * them as they are instead of validating `{}` again in every process (compiling and running the
 * config's validator on start-up was ~30 ms of `run`, issue 26).
 */
function configDefaults(): unknown {
  const validate = makeAjv({ useDefaults: true }).compile(CONFIG_SCHEMA);
  const doc = {};
  if (!validate(doc)) throw new Error(`the config defaults do not validate: ${JSON.stringify(validate.errors)}`);
  return doc;
}

/** Where each group's code is written, relative to src/config (and bundled into the CLI by scripts/commonjs-plugin.mjs). */
export const GROUP_DIR = "validators";

/**
 * Each group's code, one CommonJS file per group (file name → text): a function of the formats and
 * the RegExp engine that gives the group's validators. The module below requires a group's file the
 * first time one of its validators is called, so a command reads and compiles only the groups it
 * checks: loading all of them (1.2 MB of validate functions) with every command was ~25 ms of
 * start-up (issue 26), and a run on a fresh home checks neither a config nor stored files.
 */
export function validatorGroupFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of groups())
    out[`${g.name}.generated.cjs`] = [
      "// Generated by scripts/validators-source.ts (`npm run validators:build`): ajv's standalone validators of one group. Do not edit.",
      // A parenthesized function: V8 compiles it when it reads it instead of pre-parsing it first and
      // parsing it again at its call (half the instructions of loading a group, measured under callgrind).
      "module.exports = (function (__twFormats, __twPythonFlagRegExp) {",
      "const exports = {};",
      groupCode(g),
      "return exports;",
      "});",
      "",
    ].join("\n");
  return out;
}

/**
 * A validator that requires its group on its first call and answers as the group's own: the result,
 * and the errors on itself as ajv's `validate.errors`. (`requireGroup`, not `require`: an ES-module
 * bundle leaves the group files out; the CLI's CommonJS bundle puts them in by literal paths,
 * scripts/commonjs-plugin.mjs, each still initialised on first use.)
 */
const LAZY = `const requireGroup = createRequire(import.meta.url);
const group = (name) => {
  let loaded;
  return () => (loaded ??= requireGroup(\`./${GROUP_DIR}/\${name}.generated.cjs\`)(__twFormats, __twPythonFlagRegExp));
};
const lazy = (load, name) => {
  const validate = (data, cxt) => {
    const real = load()[name];
    const ok = real(data, cxt);
    validate.errors = real.errors;
    return ok;
  };
  validate.errors = null;
  return validate;
};`;

/** The generated module's text: every group's validators by name, each loading its group on first use. */
export function validatorsModule(): string {
  const lines: string[] = [];
  const exported: string[] = [];
  for (const g of groups()) {
    lines.push(`const group_${g.name} = group(${JSON.stringify(g.name)});`);
    for (const name of Object.keys(g.schemas))
      if (!/^(tool|event|audit)_/.test(name)) exported.push(`export const ${name} = lazy(group_${g.name}, "${name}");`);
  }
  const tools = CATALOGUE.map((c) => `  ${JSON.stringify(c.name)}: lazy(group_tools, "tool_${c.name}"),`).join("\n");
  const events = Object.keys(EVENT_BODIES)
    .map((t) => `  ${JSON.stringify(t)}: lazy(group_stored, "event_${t}"),`)
    .join("\n");
  const audit = auditEventTypes()
    .map((t, i) => `  ${JSON.stringify(t)}: lazy(group_audit, "audit_${i}"),`)
    .join("\n");
  return [
    "// Generated by scripts/validators-source.ts (`npm run validators:build`): ajv's standalone validators, each group's code in validators/. Do not edit.",
    'import { createRequire } from "node:module";',
    'import { SCHEMA_FORMATS as __twFormats, pythonFlagRegExp as __twPythonFlagRegExp } from "./schema-runtime.js";',
    LAZY,
    ...lines,
    ...exported,
    `/** The config an empty document gives (its validated defaults). */\nexport const configDefaults = ${JSON.stringify(configDefaults())};`,
    `/** Each tool's arguments (the current catalogue), by tool name. */\nexport const tools = {\n${tools}\n};`,
    `/** Each journal event's body, by event type. */\nexport const journalEvents = {\n${events}\n};`,
    `/** Each recorded run event's types-only schema (the audit's check), by event type. */\nexport const auditEvents = {\n${audit}\n};`,
    "",
  ].join("\n");
}
