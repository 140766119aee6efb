/**
 * The validators compiled at build time (src/config/validators.generated.js) are what compiling
 * their schemas gives now: a schema changed without `npm run validators:build` fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GROUP_DIR, validatorGroupFiles, validatorsModule } from "../../scripts/validators-source.js";
import { Type } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import { SimLogRecordSchema, SimStateSchema } from "../../src/broker/simulated-state.js";
import { describeErrors, generatedChecker, makeAjv, type SchemaIssue } from "../../src/config/ajv.js";
import { defaultConfig, validateConfigDocument } from "../../src/config/load.js";
import { CONFIG_SCHEMA } from "../../src/config/schema.js";
import { EVENT_BODIES, HeadDoc, ResetRecord, TripRecord } from "../../src/journal/schemas.js";
import { CATALOGUE } from "../../src/tools/catalogue.js";
import { RECORDED_EVENT_SCHEMAS } from "../../src/core/events.js";
import { typesOnly } from "../../src/records/audit-events.js";
import { SimulationMetaSchema } from "../../src/simulation/store.js";
import * as generated from "../../src/config/validators.generated.js";

/** The issues of compiling `schema` now, with the product's ajv set-up: what the generated validator must give. */
function compiledChecker(schema: object): (value: unknown) => SchemaIssue[] {
  const validate = makeAjv().compile(schema);
  return (value) => (validate(value) ? [] : describeErrors(validate.errors));
}

describe("build-time validators", () => {
  it("regenerating src/config/validators.generated.js gives the same text (run `npm run validators:build` otherwise)", () => {
    const file = readFileSync(join(import.meta.dirname, "..", "..", "src", "config", "validators.generated.js"), "utf8");
    expect(validatorsModule() === file).toBe(true);
  });

  it("regenerating each group's code in src/config/validators/ gives the same files, and no other file is there", () => {
    const dir = join(import.meta.dirname, "..", "..", "src", "config", GROUP_DIR);
    const groups = validatorGroupFiles();
    expect(readdirSync(dir).sort()).toEqual(Object.keys(groups).sort());
    for (const [f, text] of Object.entries(groups)) expect(readFileSync(join(dir, f), "utf8") === text, f).toBe(true);
  });

  it("has one validator for each tool of the current catalogue", () => {
    expect(Object.keys(generated.tools).sort()).toEqual(CATALOGUE.map((c) => c.name).sort());
  });

  it("a config with nothing written is what the config's validator makes of an empty document, a fresh copy each time", () => {
    const doc: Record<string, unknown> = {};
    expect(makeAjv({ useDefaults: true }).compile(CONFIG_SCHEMA)(doc)).toBe(true);
    const { limits, ...sections } = doc;
    const first = defaultConfig();
    expect(first).toEqual({ ...sections, source: null, limits: Object.assign({}, limits, { base_currency: "USD" }) });
    first.account.capital = 1;
    first.universe.files.push("elsewhere.csv");
    expect(defaultConfig().account.capital).toBe(100000);
    expect(defaultConfig().universe.files).toEqual(["universe/sim.csv"]);
    const written = validateConfigDocument({ account: { capital: 5000 } }, "tradewarden.toml", "tradewarden.toml");
    expect(written.ok && written.config.account).toEqual({ base_currency: "USD", capital: 5000, timezone: "America/New_York" });
  });

  it("the journal's and the sim broker's stored files, simulation.json and the audit's recorded events get the same issues from the generated validators as from compiling their schemas", () => {
    const stored: [string, object, ValidateFunction | undefined][] = [
      ["simulation.json", SimulationMetaSchema, generated.simulationMeta],
      ...[...RECORDED_EVENT_SCHEMAS].map(([t, schema]): [string, object, ValidateFunction | undefined] => [
        `recorded ${t}`,
        typesOnly(schema as unknown as Record<string, unknown>),
        generated.auditEvents[t],
      ]),
      ["head", HeadDoc, generated.journalHead],
      ["trips", Type.Array(TripRecord), generated.journalTrips],
      ["resets", Type.Array(ResetRecord), generated.journalResets],
      ["sim state", SimStateSchema, generated.simState],
      ["sim log", SimLogRecordSchema, generated.simLogRecord],
      ...Object.entries(EVENT_BODIES).map(([t, schema]): [string, object, ValidateFunction | undefined] => [t, schema, generated.journalEvents[t]]),
    ];
    const bad: unknown[] = [{}, null, [], [{ at: 1 }], { t: "x", seq: -1, at: "", run_id: 7, quantity: "lots", orders: [{}] }];
    for (const [name, schema, validate] of stored) {
      const fromBuild = generatedChecker(schema, validate, name);
      const compiled = compiledChecker(schema);
      for (const value of bad) expect(fromBuild(value), `${name} ${JSON.stringify(value)}`).toEqual(compiled(value));
    }
  });
});
