/**
 * The validators compiled at build time (src/config/validators.generated.js) are what compiling
 * their schemas gives now: a schema changed without `npm run validators:build` fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validatorsModule } from "../../scripts/validators-source.js";
import { CATALOGUE } from "../../src/tools/catalogue.js";
import * as generated from "../../src/config/validators.generated.js";

describe("build-time validators", () => {
  it("regenerating src/config/validators.generated.js gives the same text (run `npm run validators:build` otherwise)", () => {
    const file = readFileSync(join(import.meta.dirname, "..", "..", "src", "config", "validators.generated.js"), "utf8");
    expect(validatorsModule() === file).toBe(true);
  });

  it("has one validator for each tool of the current catalogue", () => {
    expect(Object.keys(generated.tools).sort()).toEqual(CATALOGUE.map((c) => c.name).sort());
  });
});
