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

/** A run folder's name as `newRunId` makes it (to the millisecond; earlier builds: to the second): other folders in runs/ are no runs. */
const RUN_ID = /^\d{8}T\d{6}(\d{3})?Z-[0-9a-f]{6}$/;

function runDirIds(runs: string): string[] {
  if (!existsSync(runs)) return [];
  return readdirSync(runs, { withFileTypes: true })
    .filter((d) => d.isDirectory() && RUN_ID.test(d.name))
    .map((d) => d.name);
}

/** The runs the home's journal started (none when it has no journal or cannot be read: the commands that need it say why). */
async function journalRunIds(home: string): Promise<string[]> {
  try {
    const { openJournal } = await import("../journal/journal.js");
    const j = await openJournal(home, { timezone: "UTC", readOnly: true, notice: () => {} });
    return j.runs().map((r) => r.run_id);
  } catch {
    return [];
  }
}

/** Where a run resolved: its folder, or a run the journal holds whose folder is gone (deleted or moved). */
export type ResolvedRun = { kind: "dir"; dir: string } | { kind: "gone"; dir: string; message: string };

/**
 * A run folder given as a path, or a run id / `latest` / unique prefix of the runs of the home: its
 * run folders and the runs its journal started (`latest` is the last started, whether or not its
 * folder is still there). Throws a TwError (exit 2) when the target names no run.
 */
export async function resolveRun(home: string, target: string): Promise<ResolvedRun> {
  if (existsSync(target) && statSync(target).isDirectory()) return { kind: "dir", dir: target };
  const paths = homePaths(home);
  if (target !== "" && existsSync(paths.runDir(target)) && statSync(paths.runDir(target)).isDirectory()) return { kind: "dir", dir: paths.runDir(target) };
  const ids = [...new Set([...runDirIds(paths.runs), ...(await journalRunIds(home))])].sort(); // a run id starts with its UTC start time
  const id = pickRunId(ids, target, paths.runs);
  const dir = paths.runDir(id);
  if (existsSync(dir)) return { kind: "dir", dir };
  return {
    kind: "gone",
    dir,
    message: `run ${id} is in the journal, but its folder ${dir} is gone (deleted or moved): its artifacts cannot be read or checked`,
  };
}

/**
 * `resolveRun` for a command: the folder, or the exit code after printing `tradewarden <command>: <why>`
 * on stderr (a target naming no run: 2; a run whose folder is gone: 1, the record is damaged).
 */
export async function runDirOrReport(command: string, home: string, target: string, io: CommandIO): Promise<{ dir: string } | { exit: number }> {
  try {
    const r = await resolveRun(home, target);
    if (r.kind === "dir") return { dir: r.dir };
    io.stderr(`tradewarden ${command}: ${r.message}\n`);
    return { exit: EXIT.INTERNAL_ERROR };
  } catch (e) {
    if (e instanceof TwError) {
      io.stderr(`tradewarden ${command}: ${e.message}\n`);
      return { exit: e.exitCode };
    }
    throw e;
  }
}
