/**
 * An events.jsonl line checked against its event type's schema (core/events.ts), compiled on first
 * use: the audit names a line whose event is not the shape its type says.
 */
import { RECORDED_EVENT_SCHEMAS } from "../core/events.js";
import { schemaChecker, type SchemaIssue } from "../config/ajv.js";

const checkers = new Map<string, (value: unknown) => SchemaIssue[]>();

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The event as its schema reads it. Runs recorded before gate decisions carried their input index
 * (tests/fixtures/cassette-tw-tools-1 and -2) wrote decisions without one: each such decision is
 * checked as if it had its position as its index, so older runs still audit clean.
 */
function withDecisionIndexes(event: Record<string, unknown>): Record<string, unknown> {
  const decisions = event.decisions;
  if (!Array.isArray(decisions) || !decisions.some((d) => isRecord(d) && !("index" in d))) return event;
  return { ...event, decisions: decisions.map((d, i) => (isRecord(d) && !("index" in d) ? { ...d, index: i } : d)) };
}

/** The ways a recorded event of a known type breaks its schema (empty when it fits, or when the type is unknown). */
export function eventShapeIssues(type: string, event: unknown): string[] {
  let check = checkers.get(type);
  if (!check) {
    const schema = RECORDED_EVENT_SCHEMAS.get(type);
    if (!schema) return [];
    check = schemaChecker(schema);
    checkers.set(type, check);
  }
  return check(isRecord(event) ? withDecisionIndexes(event) : event).map((issue) => (issue.path === "" ? issue.rule : `${issue.path}: ${issue.rule}`));
}
