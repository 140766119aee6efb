/**
 * Run ids as a person types them: a full id, `latest`, or a unique prefix (`20260102`). One
 * resolver for `audit`, `replay`, `export` and `journal --run`: an ambiguous prefix is a usage
 * error listing the candidates; no match is a clear error naming where it looked.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import { homePaths } from "../util/paths.js";
import type { CommandIO } from "./io.js";

const SHOWN = 8;

/** The one id among `ids` (oldest first) that `target` names: exact, `latest` (the last), or a unique prefix. */
export function pickRunId(ids: readonly string[], target: string, where: string): string {
  if (ids.includes(target)) return target;
  if (target === "latest") {
    const latest = ids.at(-1);
    if (latest === undefined) throw new TwError("unknown_run", `no runs yet in ${where}: \`latest\` names nothing`, EXIT.USAGE_OR_CONFIG);
    return latest;
  }
  const matches = target === "" ? [] : ids.filter((id) => id.startsWith(target)).sort();
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) {
    const listed = matches.slice(0, SHOWN).join(", ") + (matches.length > SHOWN ? `, … (${matches.length - SHOWN} more)` : "");
    throw new TwError("ambiguous_run", `"${target}" matches ${matches.length} runs: ${listed}; type more of the id`, EXIT.USAGE_OR_CONFIG);
  }
  throw new TwError("unknown_run", `no run "${target}" in ${where} (give a run id, a unique prefix of one, or \`latest\`)`, EXIT.USAGE_OR_CONFIG);
}

function runDirIds(runs: string): string[] {
  if (!existsSync(runs)) return [];
  return readdirSync(runs, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort(); // a run id starts with its UTC start time
}

/** A run folder given as a path, or a run id / `latest` / unique prefix under the home's runs/. Throws a TwError (exit 2) otherwise. */
function resolveRunDir(home: string, target: string): string {
  if (existsSync(target) && statSync(target).isDirectory()) return target;
  const paths = homePaths(home);
  return paths.runDir(pickRunId(runDirIds(paths.runs), target, paths.runs));
}

/** `resolveRunDir` for a command: the folder, or null after printing `tradewarden <command>: <why>` on stderr. */
export function runDirOrReport(command: string, home: string, target: string, io: CommandIO): string | null {
  try {
    return resolveRunDir(home, target);
  } catch (e) {
    if (e instanceof TwError) {
      io.stderr(`tradewarden ${command}: ${e.message}\n`);
      return null;
    }
    throw e;
  }
}
