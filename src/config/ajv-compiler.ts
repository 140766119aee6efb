/**
 * ajv's schema compiler, loaded the first time a process compiles a schema. Every schema a command
 * checks on its usual path is compiled at build time (src/config/validators.generated.js), so most
 * processes never compile one: loading the compiler (~80 modules, ~200 KB of the bundle) with every
 * command was start-up spent on nothing (issue 26). It is required from the installed package, not
 * bundled (scripts/build.mjs keeps `ajv/dist/2020.js` external), so a process that never compiles
 * never even parses it. Who compiles: replays of runs recorded under an older tool catalogue, the
 * build's validator generator, and the test-only result check.
 */
import { createRequire } from "node:module";
import type { Ajv2020, Options } from "ajv/dist/2020.js";

type Ajv2020Module = typeof import("ajv/dist/2020.js");

let loaded: Ajv2020Module | undefined;

/** A new draft 2020-12 ajv with `options`. */
export function newAjv2020(options: Options): Ajv2020 {
  loaded ??= createRequire(import.meta.url)("ajv/dist/2020.js") as Ajv2020Module;
  return new loaded.Ajv2020(options);
}
