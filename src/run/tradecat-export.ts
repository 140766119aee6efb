/**
 * The TradeCat record on disk: written beside research-cycle.json at the end of a run, and derived
 * again from a run's artifacts for `tradewarden export` (runs recorded before the export existed
 * included). Nothing is written or printed that TradeCat's schema or audit would refuse.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TwError } from "../core/errors.js";
import { artifactPaths, writeJsonAtomic } from "./artifacts.js";
import type { RunEvent } from "../core/events.js";
import { EXIT } from "../core/exit-codes.js";
import { buildTradecatCycle } from "./tradecat.js";
import { tradecatProblems } from "./tradecat-rules.js";

export const TRADECAT_FILE = "tradecat-research-cycle.json";

/** Builds, checks and writes the record; returns the problems (nothing is written when there are any). */
export function writeTradecatCycle(runDir: string, cycle: Record<string, unknown>, events: readonly RunEvent[]): string[] {
  const doc = buildTradecatCycle(cycle, events);
  const problems = tradecatProblems(doc);
  if (problems.length === 0) writeJsonAtomic(join(runDir, TRADECAT_FILE), doc);
  return problems;
}

function readJson(path: string, what: string): unknown {
  if (!existsSync(path)) throw new TwError("run_incomplete", `${what} is missing: ${path}`, EXIT.USAGE_OR_CONFIG);
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new TwError("run_incomplete", `${what} is not JSON (${path}): ${(e as Error).message}`, EXIT.INTERNAL_ERROR);
  }
}

/** A run's research-cycle envelope as recorded. */
export function readResearchCycle(runDir: string): Record<string, unknown> {
  return readJson(artifactPaths(runDir).researchCycle, "research-cycle.json") as Record<string, unknown>;
}

/** The TradeCat record of a recorded run, derived from its artifacts and checked. */
export function tradecatOfRun(runDir: string): Record<string, unknown> {
  const paths = artifactPaths(runDir);
  const cycle = readResearchCycle(runDir);
  if (!existsSync(paths.events)) throw new TwError("run_incomplete", `events.jsonl is missing: ${paths.events}`, EXIT.USAGE_OR_CONFIG);
  const events = readFileSync(paths.events, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as RunEvent);
  const doc = buildTradecatCycle(cycle, events);
  const problems = tradecatProblems(doc);
  if (problems.length > 0)
    throw new TwError(
      "tradecat_invalid",
      `the TradeCat record of ${String(cycle.run_id)} would not pass TradeCat's checks: ${problems.join("; ")}`,
      EXIT.INTERNAL_ERROR,
    );
  return doc;
}
