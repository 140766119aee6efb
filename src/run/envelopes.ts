/**
 * A simulated day's envelopes, derived: its run writes neither research-cycle.json nor the TradeCat
 * record, only the facts they are built from (`envelope-facts.json`, beside its events in the packed
 * bundle). `export` and `audit` derive the envelope from those facts and the events, exactly as the
 * run's close would have built it; a daily run's written envelope is read as written.
 */
import { EXIT } from "../core/exit-codes.js";
import { TwError } from "../core/errors.js";
import type { RunEvent } from "../core/events.js";
import { readArtifact } from "./artifacts.js";
import { buildResearchCycle, type ResearchCycleFacts, validateResearchCycle } from "./research-cycle.js";

function parsed(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new TwError("run_incomplete", `${what} is not JSON: ${(e as Error).message}`, EXIT.INTERNAL_ERROR);
  }
}

/** The run's events, one JSON event a line. */
export function runEvents(runDir: string): RunEvent[] {
  const text = readArtifact(runDir, "events");
  if (text === null) throw new TwError("run_incomplete", `events.jsonl is missing in ${runDir}`, EXIT.USAGE_OR_CONFIG);
  return text
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => parsed(l, "a line of events.jsonl") as RunEvent);
}

/** Whether the run kept the facts its envelopes are derived from (a simulated day) instead of writing them. */
export function hasDerivedEnvelopes(runDir: string): boolean {
  return readArtifact(runDir, "researchCycle") === null && readArtifact(runDir, "envelopeFacts") !== null;
}

/** The research-cycle envelope derived from the run's kept facts and events; null when the run kept none. */
export function derivedResearchCycle(runDir: string, events?: readonly RunEvent[]): Record<string, unknown> | null {
  const text = readArtifact(runDir, "envelopeFacts");
  if (text === null) return null;
  const facts = parsed(text, "envelope-facts.json");
  if (facts === null || typeof facts !== "object" || Array.isArray(facts))
    throw new TwError("run_incomplete", "envelope-facts.json is not an object", EXIT.INTERNAL_ERROR);
  return buildResearchCycle(events ?? runEvents(runDir), facts as ResearchCycleFacts);
}

/** The research-cycle envelope of a recorded run: as written, or derived (a simulated day). */
export function researchCycleOf(runDir: string): Record<string, unknown> {
  const text = readArtifact(runDir, "researchCycle");
  if (text !== null) return parsed(text, "research-cycle.json") as Record<string, unknown>;
  const derived = derivedResearchCycle(runDir);
  if (derived === null) throw new TwError("run_incomplete", `research-cycle.json is missing in ${runDir}`, EXIT.USAGE_OR_CONFIG);
  const problems = validateResearchCycle(derived);
  if (problems.length > 0)
    throw new TwError(
      "research_cycle_invalid",
      `the research-cycle envelope derived for ${runDir} fails its schema: ${problems.join("; ")}`,
      EXIT.INTERNAL_ERROR,
    );
  return derived;
}
