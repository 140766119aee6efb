/**
 * `tradewarden gate check --scenario FILE [--json]`: evaluate one scenario with the real gate.
 * Exit 0 when evaluated (blocked orders included), 2 when the scenario cannot be read or is
 * invalid (every problem named with its path).
 */
import { parseScenario, runScenario, scenarioOutput, scenarioTable } from "../gate/scenario.js";
import { EXIT } from "../core/exit-codes.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../util/json-depth.js";
import { READ_LIMITS, readRequiredFile } from "../util/regular-file.js";
import type { CommandIO } from "./io.js";

export interface GateCheckOptions {
  scenario: string;
  json: boolean;
}

export async function cmdGateCheck(opts: GateCheckOptions, io: CommandIO): Promise<number> {
  // Only a regular file: a FIFO or a device is refused at once, never waited on.
  const read = readRequiredFile(opts.scenario, READ_LIMITS.scenario);
  if (!read.ok) {
    io.stderr(`gate check: cannot read scenario ${opts.scenario}: ${read.reason}\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const text = read.text;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    io.stderr(`gate check: ${opts.scenario} is not valid JSON: ${(e as Error).message}\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  if (nestsDeeperThan(doc)) {
    io.stderr(`gate check: ${opts.scenario} is not a valid scenario: it nests deeper than ${MAX_JSON_DEPTH} levels\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const parsed = parseScenario(doc);
  if (!parsed.ok) {
    const lines = parsed.issues.map((i) => `  ${i.path}: ${i.message}`);
    io.stderr(`gate check: ${opts.scenario} is not a valid scenario (${parsed.issues.length} problem(s)):\n${lines.join("\n")}\n`);
    return EXIT.USAGE_OR_CONFIG;
  }
  const result = runScenario(parsed.scenario);
  if (opts.json) io.stdout(`${JSON.stringify(scenarioOutput(result), null, 2)}\n`);
  else io.stdout(scenarioTable(result, parsed.scenario.limits));
  return EXIT.OK;
}
