// Runs one CLI command (this script's arguments) from dist/cli.cjs and writes the bundle's code cache
// for this Node into dist/code-cache/ as the process exits (scripts/build.mjs runs it with `run --yes`
// on a fresh temporary home, so the cache holds what a daily run compiles).
import { readFileSync } from "node:fs";
import { loadBundle } from "../bin/load-cli.js";

const bundle = "dist/cli.cjs";
const id = readFileSync(`${bundle}.id`, "utf8").trim();
const { exports } = loadBundle(bundle, { writeTo: `dist/code-cache/${id}-${process.version}-${process.arch}.bin` });
await exports.runAsProcess();
