/**
 * The TradeCat record on disk: written beside research-cycle.json at the end of a run, and derived
 * again from a run's artifacts for `tradewarden export` (runs recorded before the export existed
 * included). Nothing is written or printed that TradeCat's schema or audit would refuse.
 */
import { join } from "node:path";
import { TwError } from "../core/errors.js";
import { writeJsonAtomic } from "./artifacts.js";
import { researchCycleOf, runEvents } from "./envelopes.js";
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

/** The TradeCat record of a recorded run, derived from its artifacts (plain or packed) and checked. */
export function tradecatOfRun(runDir: string): Record<string, unknown> {
  const cycle = researchCycleOf(runDir);
  const doc = buildTradecatCycle(cycle, runEvents(runDir));
  const problems = tradecatProblems(doc);
  if (problems.length > 0)
    throw new TwError(
      "tradecat_invalid",
      `the TradeCat record of ${String(cycle.run_id)} would not pass TradeCat's checks: ${problems.join("; ")}`,
      EXIT.INTERNAL_ERROR,
    );
  return doc;
}
