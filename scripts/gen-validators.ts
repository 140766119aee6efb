/**
 * `npm run validators:build`: writes src/config/validators.generated.js (scripts/validators-source.ts
 * says what it holds). The schemas' modules import that file, so a file that does not load (a
 * conflicted merge, say) is first replaced by an empty one the generator can start from.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const OUT = join(import.meta.dirname, "..", "src", "config", "validators.generated.js");
const EMPTY =
  "export const config = null, scenario = null, researchCycle = null, tradecat = null, tools = {}, configDefaults = {};\n" +
  "export const journalHead = null, journalTrips = null, journalResets = null, simState = null, simLogRecord = null, journalEvents = {};\n";

// Tried in a child: a module that failed to load stays failed in this process's module cache.
try {
  execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(OUT).href)})`], {
    stdio: "ignore",
  });
} catch {
  console.log(`(${OUT} did not load: starting from an empty one)`);
  writeFileSync(OUT, EMPTY);
}
const { validatorsModule } = await import("./validators-source.js");
writeFileSync(OUT, validatorsModule());
console.log(`wrote ${OUT}`);
