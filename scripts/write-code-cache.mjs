// Runs one CLI command (this script's arguments) from dist/cli.cjs and writes the bundle's code cache
// for this Node into dist/code-cache/ as the process exits (scripts/build.mjs runs it with `run --yes`
// on a fresh temporary home, so the cache holds what a daily run compiles).
import { buildCodeCacheFile, loadBundle } from "../bin/load-cli.js";

const bundle = "dist/cli.cjs";
const writeTo = buildCodeCacheFile(bundle);
if (!writeTo) throw new Error(`${bundle}.id is missing: build the bundle first (scripts/build.mjs)`);
const { exports } = loadBundle(bundle, { writeTo });
await exports.runAsProcess();
