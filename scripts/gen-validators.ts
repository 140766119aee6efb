/**
 * `npm run validators:build`: writes src/config/validators.generated.js and its groups' code in
 * src/config/validators/ (scripts/validators-source.ts says what they hold). The schemas' modules
 * import that file, so a file that does not load (a conflicted merge, say) is first replaced by an
 * empty one the generator can start from.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const OUT = join(import.meta.dirname, "..", "src", "config", "validators.generated.js");
const EMPTY =
  "export const config = null, scenario = null, researchCycle = null, tradecat = null, tools = {}, configDefaults = {};\n" +
  "export const journalHead = null, journalTrips = null, journalResets = null, simState = null, simLogRecord = null, journalEvents = {};\n" +
  "export const simulationMeta = null, auditEvents = {};\n";

// Tried in a child: a module that failed to load stays failed in this process's module cache.
try {
  execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(OUT).href)})`], {
    stdio: "ignore",
  });
} catch {
  console.log(`(${OUT} did not load: starting from an empty one)`);
  writeFileSync(OUT, EMPTY);
}
const { GROUP_DIR, validatorGroupFiles, validatorsModule } = await import("./validators-source.js");
const groupDir = join(OUT, "..", GROUP_DIR);
mkdirSync(groupDir, { recursive: true });
const groups = validatorGroupFiles();
// A group no longer generated leaves no file behind.
for (const f of readdirSync(groupDir)) if (!(f in groups)) rmSync(join(groupDir, f));
for (const [f, text] of Object.entries(groups)) writeFileSync(join(groupDir, f), text);
writeFileSync(OUT, validatorsModule());
console.log(`wrote ${OUT} and ${Object.keys(groups).length} group files in ${groupDir}`);
