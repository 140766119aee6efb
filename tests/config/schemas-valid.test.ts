/**
 * The product compiles its schemas with `validateSchema: false` (src/config/ajv.ts,
 * src/tools/validate.ts): the draft 2020-12 meta-schema is not compiled in every process. This
 * test is where every schema is checked against it instead: the config and scenario schemas, every
 * schema registered with `generatedChecker` (journal events, sim broker state and log, simulation
 * meta, the audit's recorded events), every tool contract of every contract version, and the bundled data schemas.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { registeredSchemas } from "../../src/config/ajv.js";
import { plainSchema } from "../../src/tools/render.js";
import { CONTRACT_VERSIONS, contractSet } from "../../src/tools/versions.js";
import { bundledDataDir } from "../../src/util/paths.js";
// Imported for the schemas they register.
import "../../src/config/load.js";
import "../../src/gate/scenario.js";
import "../../src/journal/validate.js";
import "../../src/broker/simulated-state.js";
import "../../src/simulation/store.js";

const meta = new Ajv2020({ strict: false });

function metaIssues(schema: unknown): string[] {
  if (meta.validateSchema(schema as object)) return [];
  return (meta.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
}

describe("every schema the product compiles is a valid draft 2020-12 schema", () => {
  it("the registered ones: config, gate scenario, journal events, sim broker state and log, simulation meta", () => {
    const schemas = registeredSchemas();
    // config + scenario + the journal's event schemas + sim state + sim log + simulation meta, at least.
    expect(schemas.length).toBeGreaterThanOrEqual(10);
    for (const [i, schema] of schemas.entries()) expect(metaIssues(schema), `registered schema ${i} ${JSON.stringify(schema).slice(0, 80)}`).toEqual([]);
  });

  for (const version of CONTRACT_VERSIONS) {
    it(`every tool's input schema in ${version}, and each compiles under the product's strict ajv and accepts its own example`, () => {
      const set = contractSet(version);
      expect(set.contracts.length).toBeGreaterThan(5);
      for (const tool of set.contracts) {
        expect(metaIssues(plainSchema(tool.input)), `${version} ${tool.name}`).toEqual([]);
        // Validators compile on first use: compile every one here, not only those a test happens to call.
        expect(set.validate(tool.name, structuredClone(tool.example)), `${version} ${tool.name} example`).toMatchObject({ valid: true });
      }
    });
  }

  it("the bundled data schemas (research cycle, TradeCat)", () => {
    const dir = join(bundledDataDir(), "schemas");
    const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) expect(metaIssues(JSON.parse(readFileSync(join(dir, f), "utf8"))), f).toEqual([]);
  });

  it("the check can fail: a schema with a wrong keyword type is refused", () => {
    expect(metaIssues({ type: "object", properties: { a: { type: "string", minLength: "3" } } })).not.toEqual([]);
    expect(metaIssues({ type: "strnig" })).not.toEqual([]);
  });
});
